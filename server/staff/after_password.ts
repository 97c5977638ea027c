/**
 * What follows a right password at sign-in: a session at once, or a second factor first. The
 * sign-in route (routes/admin.ts) opens no session while a second factor is owed.
 */
import type { AppDeps } from "../deps.ts";

/** The sign-in's next step after a right password. */
export type AfterPassword =
  | { next: "session" }
  | { next: "second_factor"; challenge: string; methods: string[] };

/** No account has a second factor yet, so a right password opens a session. */
export function afterPassword(_deps: AppDeps, _accountId: string): Promise<AfterPassword> {
  return Promise.resolve({ next: "session" });
}
