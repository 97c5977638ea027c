/**
 * The rules of scripts' API keys: what a key looks like, how long it may live, when it stops
 * opening the dashboard, and how often its last use is written down. Pure: the store
 * (api_keys.ts) applies them.
 */
import { type Role, ROLES } from "../../shared/roles.ts";

/**
 * Every key starts with this, so a key pasted into a repository, a log or a chat is found by a
 * secret scanner or a grep, and is never mistaken for the owner's password.
 */
export const API_KEY_PREFIX = "shk_";

/** A key lives at most a year: a script that runs longer gets a new key, the old one revoked. */
export const API_KEY_MAX_LIFE_MS = 365 * 24 * 60 * 60 * 1000;

/** A key's last use is written at most once a minute, so a busy script costs no write a request. */
export const LAST_USE_EVERY_MS = 60_000;

/** Who made a key, as the list shows it. */
export interface KeyMaker {
  kind: "owner" | "staff" | "key";
  id: string;
  name: string;
}

/** A key as stored: never the key itself, only its SHA-256. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  role: Role;
  /** Hex SHA-256 of the key. */
  hash: string;
  createdAt: number;
  /** When it stops working (ms since the epoch); null: until revoked. */
  expiresAt: number | null;
  lastUsedAt: number | null;
  createdBy: KeyMaker;
  /**
   * The account (the owner or a member's id) the key answers for: its maker, or, for a key a key
   * made, that key's account. Absent on keys made before it was kept (see `accountOfKey`).
   */
  account?: string;
}

/** Whether a bearer credential is spelled as a key (otherwise it may be the owner's password). */
export function looksLikeApiKey(bearer: string): boolean {
  return bearer.startsWith(API_KEY_PREFIX);
}

/** Why an expiry cannot be given to a new key, or null when it can. */
export function expiryProblem(expiresAt: number | undefined, now: number): string | null {
  if (expiresAt === undefined) return null;
  if (expiresAt <= now) return "expiresAt must be in the future";
  if (expiresAt - now > API_KEY_MAX_LIFE_MS) {
    return "expiresAt must be at most a year from now";
  }
  return null;
}

/** Whether a key still opens the dashboard at `now`: its expiry is a hard end. */
export function keyIsLive(key: ApiKeyRecord, now: number): boolean {
  return key.expiresAt === null || now < key.expiresAt;
}

/** Whether a use at `now` should be written down as the key's last use. */
export function lastUseDue(key: ApiKeyRecord, now: number): boolean {
  return key.lastUsedAt === null || now - key.lastUsedAt >= LAST_USE_EVERY_MS;
}

/**
 * The account a key answers for, or null when none is known (a key another key made before keys
 * kept their account: it acts with its own role, as it always did).
 */
export function accountOfKey(key: Pick<ApiKeyRecord, "account" | "createdBy">): string | null {
  if (key.account !== undefined) return key.account;
  return key.createdBy.kind === "key" ? null : key.createdBy.id;
}

/**
 * The role a key acts with: its own, but never more than its account's role now. A member's key
 * must not keep the owner's powers once the member is demoted (nor could a helper promoted for a
 * day leave with an owner key); ROLES lists the most powerful first.
 */
export function keyRole(own: Role, accountRole: Role): Role {
  return ROLES.indexOf(own) >= ROLES.indexOf(accountRole) ? own : accountRole;
}
