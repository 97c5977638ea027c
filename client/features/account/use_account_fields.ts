import { useState } from "react";
import { fieldErrors, type SchemaIssues } from "../../app/field_errors.ts";

/** The two fields of the sign-in and sign-up forms. */
export type AccountFieldName = "email" | "password";

/** A shared schema (shared/schemas.ts) as this hook uses it. */
interface AccountSchema<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: SchemaIssues };
}

/**
 * Where a message belongs: one field, or both ("Invalid email or password" cannot say which is
 * wrong, so it is shown once, under the password, and marks both fields invalid).
 */
export type AccountErrorPlace = AccountFieldName | "both";

/** The state of an account form's fields and what it takes to check them. */
export interface AccountFields {
  values: Record<AccountFieldName, string>;
  errors: Partial<Record<AccountErrorPlace, string>>;
  /** The input id of a field ('login-email'). */
  idOf: (name: AccountFieldName) => string;
  /** Sets a field and clears its message (and one of both fields): the shopper is fixing it. */
  change: (name: AccountFieldName, value: string) => void;
  /**
   * Shows a message by its field (the server's answer to a sent form) and moves the focus there,
   * where it is read; a message of both fields leaves the focus (its toast says it).
   */
  showError: (place: AccountErrorPlace, message: string) => void;
  /**
   * Checks the body with the server's schema: its data when it passes, else null with each
   * field's message shown and the first failing field focused.
   */
  check: <T>(schema: AccountSchema<T>, body: Record<string, unknown>) => T | null;
}

/** Email and password fields checked with the same schema as the server's route. */
export function useAccountFields(idPrefix: string): AccountFields {
  const [values, setValues] = useState({ email: "", password: "" });
  const [errors, setErrors] = useState<AccountFields["errors"]>({});

  function idOf(name: AccountFieldName): string {
    return `${idPrefix}-${name}`;
  }

  function change(name: AccountFieldName, value: string) {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => (e[name] || e.both ? { ...e, [name]: undefined, both: undefined } : e));
  }

  function showError(place: AccountErrorPlace, message: string) {
    setErrors({ [place]: message });
    if (place !== "both") document.getElementById(idOf(place))?.focus();
  }

  function check<T>(schema: AccountSchema<T>, body: Record<string, unknown>): T | null {
    const result = schema.safeParse(body);
    if (result.success) {
      setErrors({});
      return result.data;
    }
    const found = fieldErrors(result.error);
    setErrors({ email: found.email, password: found.password });
    document.getElementById(idOf(found.email ? "email" : "password"))?.focus();
    return null;
  }

  return {
    values,
    errors,
    idOf,
    change,
    showError,
    check,
  };
}
