/**
 * The admin password as a bearer token stops once the owner has a second factor: a password
 * alone would otherwise still open everything the factor protects. Scripts use API keys instead.
 */
import { Unauthorized } from "../errors.ts";
import { accountHasSecondFactor } from "./second_factors.ts";

/** The sentence a script gets, saying what changed and what to use. */
export const BEARER_PASSWORD_REFUSED =
  "The owner has a second factor, so the admin password no longer works as a bearer token; scripts need an API key (Authorization: Bearer <key>).";

/** Refuses the bearer password (already found right) when the owner has a second factor. */
export async function refuseBearerPassword(kv: Deno.Kv): Promise<void> {
  if (await accountHasSecondFactor(kv, "owner")) throw new Unauthorized(BEARER_PASSWORD_REFUSED);
}
