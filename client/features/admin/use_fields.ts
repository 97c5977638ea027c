import { useState } from "react";
import type { z } from "zod";
import { fieldErrors } from "../../app/field_errors.ts";

/** A form's values: text as typed, checkboxes as booleans. */
export type FormValues = Record<string, string | boolean>;

/** The state of an admin form's fields and what it takes to check them. */
export interface Fields<V extends FormValues, K extends keyof V & string = keyof V & string> {
  values: V;
  /** Each field's message; `form` holds one that belongs to no field. */
  errors: Partial<Record<K | "form", string>>;
  /** The input id of a field ('switch-new-name'). */
  idOf: (name: K) => string;
  /** Sets a field and clears its message: the owner is fixing it. */
  set: <N extends K>(name: N, value: V[N]) => void;
  /** Replaces every value (a record reloaded after a conflict) and clears the messages. */
  reset: (values: V) => void;
  /** Shows the server's message by its field when it names one (a 400's issues), else on the form. */
  showError: (message: string, field?: string) => void;
  /**
   * Checks the body with the route's own schema: true when it passes (the body is then what the
   * route takes, and is sent as it is: the server applies the schema's own transforms), else
   * false with each field's message shown beside it and the first failing field focused.
   */
  accepts: <S extends z.ZodType>(schema: S, body: unknown) => body is z.input<S>;
}

/**
 * Text values of a form, checked in the browser with the same shared schema the server uses, so
 * the owner reads the server's words beside each field before anything is sent.
 */
export function useFields<V extends FormValues>(idPrefix: string, initial: V): Fields<V> {
  type K = keyof V & string;
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Fields<V>["errors"]>({});
  const names = Object.keys(initial) as K[];

  function idOf(name: K): string {
    return `${idPrefix}-${name}`;
  }

  function set<N extends K>(name: N, value: V[N]) {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => (e[name] || e.form ? { ...e, [name]: undefined, form: undefined } : e));
  }

  function reset(next: V) {
    setValues(next);
    setErrors({});
  }

  function showError(message: string, field?: string) {
    const known = names.find((n) => n === field);
    const next: Fields<V>["errors"] = {};
    next[known ?? "form"] = message;
    setErrors(next);
    if (known) document.getElementById(idOf(known))?.focus();
  }

  function accepts<S extends z.ZodType>(schema: S, body: unknown): body is z.input<S> {
    const result = schema.safeParse(body);
    if (result.success) {
      setErrors({});
      return true;
    }
    const found = fieldErrors(result.error);
    const next: Fields<V>["errors"] = {};
    for (const [path, message] of Object.entries(found)) {
      // 'switchIds.3' belongs to the switchIds field.
      const field = names.find((n) => path === n || path.startsWith(`${n}.`));
      if (field) next[field] ??= message;
      else next.form ??= message;
    }
    setErrors(next);
    const first = names.find((n) => next[n]);
    if (first) document.getElementById(idOf(first))?.focus();
    return false;
  }

  return { values, errors, idOf, set, reset, showError, accepts };
}
