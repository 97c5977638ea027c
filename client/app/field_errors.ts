/**
 * Field messages from a failed shared schema check (shared/schemas.ts), so a form shows the very
 * words the server would answer with, each beside its field.
 */

/** What a failed `safeParse` carries; structural, so this module does not pull zod itself. */
export interface SchemaIssues {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

/** The first message of each field, keyed by the issue's path joined with dots ('a.b'). */
export function fieldErrors(error: SchemaIssues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".");
    // The first issue is the one the server reports, so it wins here too.
    errors[key] ??= issue.message;
  }
  return errors;
}
