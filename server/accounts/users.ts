import type { Clock } from "../clock.ts";
import { InvalidInput } from "../errors.ts";
import { randomId, secretsEqual } from "../crypto.ts";
import { passwordGate } from "../password_gate.ts";
import { keys } from "../kv/keys.ts";
import { createSession, deleteSession, type SessionKind, touchSession } from "./sessions.ts";

/**
 * PBKDF2-HMAC-SHA256 at OWASP's recommended 600,000 iterations, through Web Crypto: the count of
 * every new hash unless the app is given another (AppDeps.passwordIterations).
 */
const ITERATIONS = 600_000;

/** Sessions end after 14 days unused, and 60 days after sign-in at the latest. */
export const USER_IDLE_MS = 14 * 86400_000;
export const USER_ABSOLUTE_MS = 60 * 86400_000;

/** An account. */
export interface User {
  userId: string;
  email: string;
  passwordHash: string;
  salt: string;
  iterations: number;
  createdAt: number;
  /**
   * Sessions carry the generation they were made in; a new password moves it on, which ends
   * every session at once (absent: 0).
   */
  generation?: number;
}

const SHOPPER: SessionKind = {
  key: keys.userSession,
  idleMs: USER_IDLE_MS,
  absoluteMs: USER_ABSOLUTE_MS,
};

/** Waits for a hashing permit (password_gate.ts); throws Unavailable when too many wait. */
function hashPassword(password: string, salt: string, iterations: number): Promise<string> {
  return passwordGate.run(() => derive(password, salt, iterations));
}

async function derive(password: string, salt: string, iterations: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: new TextEncoder().encode(salt), iterations },
    key,
    256,
  );
  return btoa(String.fromCharCode(...new Uint8Array(bits)));
}

const USER_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** Creates an account; 400 when the email is taken (the spec reads 400 as "exists"). */
export async function registerUser(
  kv: Deno.Kv,
  clock: Clock,
  email: string,
  password: string,
  requestedId: string | null,
  iterations = ITERATIONS,
): Promise<User> {
  const salt = randomId(16);
  // The browser's stored id is kept when it is well-formed and free, so guest data stays linked.
  let userId = requestedId && USER_ID.test(requestedId) ? requestedId : randomId(16);
  if ((await kv.get(keys.user(userId))).value) userId = randomId(16);
  const user: User = {
    userId,
    email,
    passwordHash: await hashPassword(password, salt, iterations),
    salt,
    iterations,
    createdAt: clock.now(),
  };
  const result = await kv.atomic()
    .check({ key: keys.userByEmail(email), versionstamp: null })
    .check({ key: keys.user(userId), versionstamp: null })
    .set(keys.userByEmail(email), userId)
    .set(keys.user(userId), user)
    .commit();
  if (!result.ok) throw new InvalidInput("An account with this email already exists");
  return user;
}

const DUMMY_SALT = "timing-equaliser";

/**
 * The user for these credentials, or null. An unknown email costs the same hashing work as a wrong
 * password, so the answer time does not tell which emails have accounts.
 */
export async function checkCredentials(
  kv: Deno.Kv,
  email: string,
  password: string,
  iterations = ITERATIONS,
): Promise<User | null> {
  const userId = (await kv.get<string>(keys.userByEmail(email))).value;
  const user = userId ? (await kv.get<User>(keys.user(userId))).value : null;
  const hash = await hashPassword(
    password,
    user?.salt ?? DUMMY_SALT,
    user?.iterations ?? iterations,
  );
  if (!user) return null;
  return (await secretsEqual(hash, user.passwordHash)) ? user : null;
}

/** A password as another wing keeps it (staff accounts): its hash, salt and iterations. */
export interface PasswordHash {
  passwordHash: string;
  salt: string;
  iterations: number;
}

/** Hashes a new password as accounts' passwords are (through the hashing gate). */
export async function newPasswordHash(
  password: string,
  iterations = ITERATIONS,
): Promise<PasswordHash> {
  const salt = randomId(16);
  return {
    passwordHash: await hashPassword(password, salt, iterations),
    salt,
    iterations,
  };
}

/**
 * Whether `password` is the one `stored` was made from. Without a stored hash (an unknown email,
 * an account with no password yet) the same hashing work is done and the answer is no, so the
 * answer time does not tell which emails have accounts.
 */
export async function passwordMatches(
  password: string,
  stored: PasswordHash | null,
  iterations = ITERATIONS,
): Promise<boolean> {
  const hash = await hashPassword(
    password,
    stored?.salt ?? DUMMY_SALT,
    stored?.iterations ?? iterations,
  );
  return stored !== null && await secretsEqual(hash, stored.passwordHash);
}

/** Starts a session: a fresh 256-bit token, stored only as its hash. */
export async function createUserSession(
  kv: Deno.Kv,
  clock: Clock,
  userId: string,
): Promise<string> {
  const user = (await kv.get<User>(keys.user(userId))).value;
  return await createSession(kv, clock, SHOPPER, { userId, generation: user?.generation ?? 0 });
}

/**
 * The user of a live session token (renewing its idle timer), or null: also null once the
 * account is deleted or its password changed since the session began.
 */
export async function userForToken(kv: Deno.Kv, clock: Clock, token: string): Promise<User | null> {
  const session = await touchSession<{ userId: string; generation?: number }>(
    kv,
    clock,
    SHOPPER,
    token,
  );
  if (!session) return null;
  const user = (await kv.get<User>(keys.user(session.userId))).value;
  return user && (session.generation ?? 0) === (user.generation ?? 0) ? user : null;
}

/** The account of an email (as stored: lower case), or null. */
export async function findUserByEmail(
  kv: Deno.Kv,
  email: string,
): Promise<Deno.KvEntry<User> | null> {
  const userId = (await kv.get<string>(keys.userByEmail(email))).value;
  if (!userId) return null;
  const entry = await kv.get<User>(keys.user(userId));
  return entry.value ? entry as Deno.KvEntry<User> : null;
}

/**
 * The account with a new password and the next session generation (every session ends), to be
 * written by the caller with its own checks.
 */
export async function withNewPassword(
  user: User,
  password: string,
  iterations = ITERATIONS,
): Promise<User> {
  const salt = randomId(16);
  return {
    ...user,
    salt,
    iterations,
    passwordHash: await hashPassword(password, salt, iterations),
    generation: (user.generation ?? 0) + 1,
  };
}

/** Ends a session. */
export async function deleteUserSession(kv: Deno.Kv, token: string): Promise<void> {
  await deleteSession(kv, SHOPPER, token);
}
