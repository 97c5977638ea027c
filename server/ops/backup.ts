/**
 * `deno task backup [file]`: writes every entry of the shop's Deno KV (KV_PATH, default
 * ./data/shop.kv) to a JSON-lines file, one `{"key": [...], "value": ...}` per line, in key order.
 *
 * The shop stores JSON values (strings, finite numbers, booleans, null, arrays and plain objects)
 * under keys of strings and numbers, which JSON gives back exactly, and counters KV sums in place
 * (Deno.KvU64: a promo code's paid uses), written `{"key": [...], "u64": "12"}` with the count in
 * decimal. Anything else (bigint, Uint8Array, Date, Map, NaN, -0, an undefined array element,
 * ...) stops the backup with its key named, rather than being written as something that restores
 * differently. A property set to undefined is left out: it reads back the same, as absent.
 *
 * The shop's work owed later is stored jobs, ordinary entries, so a backup carries it (a job held by
 * a running process comes due when its lease ends). Not in a backup, because Deno KV cannot list
 * them: `expireIn` deadlines (records that must expire store their own expiry and are checked on
 * read). Versionstamps are not kept: a
 * restore writes every entry anew. Local KV belongs to one process, so stop the shop first;
 * against a KV Connect URL the listing is not one snapshot of a store that keeps changing.
 */
import { openKv } from "../kv/open.ts";

/** One line of a backup: a JSON value, or a KV counter as its decimal digits. */
export type BackupLine =
  | { key: (string | number)[]; value: unknown }
  | { key: (string | number)[]; u64: string };

/** What stops a backup: an entry JSON cannot hold exactly. */
export class NotJsonError extends TypeError {}

/** What `value` is, for an error message: `a bigint`, `a Uint8Array`, `undefined`, `NaN`... */
function describe(value: unknown): string {
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (value === undefined) return "undefined";
  if (typeof value !== "object" || value === null) return `a ${typeof value}`;
  return `a ${value.constructor?.name ?? "non-plain object"}`;
}

/**
 * Why `value` would not come back from JSON exactly, naming where in it (`at` is its path), or
 * null when it would.
 */
export function jsonProblem(value: unknown, at: string): string | null {
  if (value === null || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = i in value ? jsonProblem(value[i], `${at}[${i}]`) : `${at}[${i}] is empty`;
      if (problem) return problem;
    }
    return null;
  }
  const proto = typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
  if (proto !== Object.prototype && proto !== null) return `${at} is ${describe(value)}`;
  for (const [k, v] of Object.entries(value as object)) {
    // A property set to undefined reads back as an absent one: the same to every reader.
    if (v === undefined) continue;
    const problem = jsonProblem(v, `${at}.${k}`);
    if (problem) return problem;
  }
  return null;
}

/** Why a key would not come back from JSON exactly (a part that is no string or number), or null. */
export function keyProblem(key: readonly unknown[]): string | null {
  for (const [i, part] of key.entries()) {
    const at = `key part ${i}`;
    if (typeof part !== "string" && typeof part !== "number") return `${at} is ${describe(part)}`;
    const problem = jsonProblem(part, at);
    if (problem) return problem;
  }
  return null;
}

/** One JSON line (without its newline) for a KV entry; throws NotJsonError naming the key. */
export function encodeEntry(entry: Deno.KvEntry<unknown>): string {
  const counter = entry.value instanceof Deno.KvU64;
  const problem = keyProblem(entry.key) ?? (counter ? null : jsonProblem(entry.value, "value"));
  if (problem) {
    const key = entry.key.map((part) => Deno.inspect(part)).join(", ");
    throw new NotJsonError(
      `Cannot back up [${key}]: ${problem}; a backup holds JSON values and KV counters only`,
    );
  }
  const key = entry.key as (string | number)[];
  const line: BackupLine = counter
    ? { key, u64: (entry.value as Deno.KvU64).value.toString() }
    : { key, value: entry.value };
  return JSON.stringify(line);
}

/** Every entry of the store as JSON lines, in key order. */
export async function* backupLines(kv: Deno.Kv): AsyncGenerator<string> {
  for await (const entry of kv.list({ prefix: [] })) yield encodeEntry(entry);
}

/**
 * Writes the backup to `path` through a temporary file renamed at the end, so an interrupted or
 * refused run never leaves something that looks like a complete backup. Returns how many entries
 * it holds.
 */
export async function backupToFile(kv: Deno.Kv, path: string): Promise<number> {
  const partial = `${path}.partial`;
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  if (dir) await Deno.mkdir(dir, { recursive: true });
  const file = await Deno.open(partial, { write: true, create: true, truncate: true });
  const writer = file.writable.getWriter();
  const encoder = new TextEncoder();
  let count = 0;
  try {
    for await (const line of backupLines(kv)) {
      await writer.write(encoder.encode(line + "\n"));
      count++;
    }
    await writer.close();
  } catch (err) {
    await writer.abort(err).catch(() => {});
    await Deno.remove(partial).catch(() => {});
    throw err;
  }
  await Deno.rename(partial, path);
  return count;
}

/** The KV_PATH the server would use; empty counts as unset, as in server/config.ts. */
export function kvPathFromEnv(): string | undefined {
  return Deno.env.get("KV_PATH") || undefined;
}

async function main(args: string[]): Promise<void> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const path = args[0] ?? `./data/backup-${stamp}.jsonl`;
  const kv = await openKv(kvPathFromEnv());
  try {
    const count = await backupToFile(kv, path);
    console.log(`Backed up ${count} entries to ${path}`);
  } catch (err) {
    if (!(err instanceof NotJsonError)) throw err;
    console.error(`Backup failed: ${err.message}`);
    Deno.exitCode = 1;
  } finally {
    kv.close();
  }
}

if (import.meta.main) await main(Deno.args);
