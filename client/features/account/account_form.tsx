import type { FormEvent, ReactNode } from "react";
import { TextField } from "../../app/components/text_field.tsx";
import type { AccountFields } from "./use_account_fields.ts";

/**
 * The frame of the sign-in and sign-up pages: the heading, the card form (the browser's own
 * checks are off: the shared schema checks and words every field), the submit button that says
 * when it is working, and the link to the other page.
 */
export function AccountForm(
  { title, submitLabel, workingLabel, working, onSubmit, footer, children }: {
    title: string;
    submitLabel: string;
    workingLabel: string;
    working: boolean;
    onSubmit: () => void;
    /** The line under the button that leads to the other page. */
    footer: ReactNode;
    children: ReactNode;
  },
) {
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!working) onSubmit();
  }
  return (
    <section className="page account-page">
      <h1>{title}</h1>
      <form className="card account-form" onSubmit={submit} aria-label={title} noValidate>
        {children}
        <button type="submit" className="button account-submit" aria-disabled={working}>
          {working ? workingLabel : submitLabel}
        </button>
        <p className="account-switch">{footer}</p>
      </form>
    </section>
  );
}

/** The email and password fields of an account form, with their inline messages. */
export function AccountFieldset({ form, passwordAutoComplete, passwordHint, passwordAside }: {
  form: AccountFields;
  passwordAutoComplete: "current-password" | "new-password";
  passwordHint?: string;
  /** Shown at the end of the password's label line (the 'Forgot password?' link). */
  passwordAside?: ReactNode;
}) {
  return (
    <>
      <TextField
        id={form.idOf("email")}
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        maxLength={254}
        value={form.values.email}
        error={form.errors.email}
        invalidBy={form.errors.both ? `${form.idOf("password")}-error` : undefined}
        onChange={(value) => form.change("email", value)}
      />
      <TextField
        id={form.idOf("password")}
        name="password"
        label="Password"
        labelAside={passwordAside}
        type="password"
        autoComplete={passwordAutoComplete}
        required
        value={form.values.password}
        hint={passwordHint}
        error={form.errors.password ?? form.errors.both}
        onChange={(value) => form.change("password", value)}
      />
    </>
  );
}
