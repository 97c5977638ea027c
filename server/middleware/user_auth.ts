import type { Context } from "hono";
import type { AppDeps } from "../deps.ts";
import { Unauthorized } from "../errors.ts";
import { type User, userForToken } from "../accounts/users.ts";

/** The bearer token of a request, if any. */
export function bearerToken(c: Context): string | null {
  return /^Bearer (.+)$/i.exec(c.req.header("Authorization") ?? "")?.[1] ?? null;
}

/** The signed-in shopper, or null (guests are welcome on shopper routes). */
export async function optionalUser(
  deps: Pick<AppDeps, "kv" | "clock">,
  c: Context,
): Promise<User | null> {
  const token = bearerToken(c);
  return token ? await userForToken(deps.kv, deps.clock, token) : null;
}

/** The signed-in shopper; 401 otherwise. */
export async function requireUser(deps: Pick<AppDeps, "kv" | "clock">, c: Context): Promise<User> {
  const user = await optionalUser(deps, c);
  if (!user) throw new Unauthorized("Please sign in again: your session has ended");
  return user;
}
