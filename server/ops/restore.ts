/**
 * `deno task restore <file> [--force]`: loads a backup written by `deno task backup` into the
 * shop's Deno KV (KV_PATH, default ./data/shop.kv). Refuses a store that already holds anything,
 * unless --force, which empties it first so the result is exactly the backup. Entries are written
 * in atomic batches within Deno KV's limits (1000 mutations, 800 KiB per commit). Every entry gets
 * a new versionstamp, the stock version's included, so shops sharing the store see the restored
 * catalogue and stock within the stock version's trust window. Stop the shop first: local KV
 * belongs to one process.
 */
import { openKv } from "../kv/open.ts";
import { jsonProblem, keyProblem, kvPathFromEnv } from "./backup.ts";

/** Options of a restore. */
export interface RestoreOptions {
  /** Empty a non-empty target first instead of refusing it. */
  force?: boolean;
}

/** What stops a restore before it writes anything. */
export class RestoreRefused extends Error {}

// Below Deno KV's per-commit limits (1000 mutations, 800 KiB in all, 80 KiB of keys), with room
// for the difference between a line's JSON length and the stored size.
const MAX_BATCH_ENTRIES = 500;
const MAX_BATCH_BYTES = 400_000;
const MAX_BATCH_KEY_BYTES = 40_000;

/** A parsed backup line. */
interface Entry {
  key: Deno.KvKey;
  value: unknown;
  size: number;
  keySize: number;
}

/** The largest count a Deno.KvU64 holds. */
const MAX_U64 = 2n ** 64n - 1n;

/** Parses one backup line; `where` names it in errors. */
export function decodeLine(line: string, where: string): Entry {
  let parsed: { key?: unknown; value?: unknown; u64?: unknown } | null;
  try {
    parsed = JSON.parse(line);
  } catch (err) {
    throw new RestoreRefused(`${where} is not JSON (${(err as Error).message})`);
  }
  const { key, value, u64 } = parsed ?? {};
  const hasValue = parsed !== null && typeof parsed === "object" && "value" in parsed;
  const hasCount = parsed !== null && typeof parsed === "object" && "u64" in parsed;
  if (!Array.isArray(key) || key.length === 0 || hasValue === hasCount) {
    throw new RestoreRefused(
      `${where} is not a backup entry {"key": [...], "value": ...} or {"key": [...], "u64": "..."}`,
    );
  }
  // JSON.parse can still give what a backup never holds, such as Infinity for 1e999.
  const problem = keyProblem(key) ?? (hasCount ? null : jsonProblem(value, "value"));
  if (problem) throw new RestoreRefused(`${where}: ${problem}`);
  const size = line.length;
  const keySize = JSON.stringify(key).length;
  if (!hasCount) return { key, value, size, keySize };
  if (typeof u64 !== "string" || !/^(0|[1-9][0-9]{0,19})$/.test(u64) || BigInt(u64) > MAX_U64) {
    throw new RestoreRefused(
      `${where}: u64 must be a whole number from 0 to ${MAX_U64}, in a string`,
    );
  }
  return { key, value: new Deno.KvU64(BigInt(u64)), size, keySize };
}

async function isEmpty(kv: Deno.Kv): Promise<boolean> {
  for await (const _ of kv.list({ prefix: [] }, { limit: 1 })) return false;
  return true;
}

/** Commits `entries` as one atomic set, halving the batch if a commit is still too large. */
async function commitBatch(
  kv: Deno.Kv,
  entries: Entry[],
  mutate: (op: Deno.AtomicOperation, e: Entry) => void,
): Promise<void> {
  if (entries.length === 0) return;
  const op = kv.atomic();
  for (const entry of entries) mutate(op, entry);
  try {
    const result = await op.commit();
    if (!result.ok) throw new Error("a restore commit failed its checks");
  } catch (err) {
    if (entries.length === 1) throw err;
    const half = Math.ceil(entries.length / 2);
    await commitBatch(kv, entries.slice(0, half), mutate);
    await commitBatch(kv, entries.slice(half), mutate);
  }
}

/** Splits entries into batches within the commit limits and writes each. */
async function writeBatched(
  kv: Deno.Kv,
  entries: AsyncIterable<Entry> | Iterable<Entry>,
  mutate: (op: Deno.AtomicOperation, e: Entry) => void,
): Promise<number> {
  let batch: Entry[] = [];
  let bytes = 0;
  let keyBytes = 0;
  let count = 0;
  for await (const entry of entries) {
    const full = batch.length >= MAX_BATCH_ENTRIES || bytes + entry.size > MAX_BATCH_BYTES ||
      keyBytes + entry.keySize > MAX_BATCH_KEY_BYTES;
    if (full) {
      await commitBatch(kv, batch, mutate);
      batch = [];
      bytes = 0;
      keyBytes = 0;
    }
    batch.push(entry);
    bytes += entry.size;
    keyBytes += entry.keySize;
    count++;
  }
  await commitBatch(kv, batch, mutate);
  return count;
}

async function* listedEntries(kv: Deno.Kv): AsyncGenerator<Entry> {
  for await (const { key } of kv.list({ prefix: [] })) {
    yield { key, value: null, size: 64, keySize: JSON.stringify(key, jsonSafe).length };
  }
}

function jsonSafe(_: string, v: unknown): unknown {
  return typeof v === "bigint" ? v.toString() : v instanceof Uint8Array ? [...v] : v;
}

async function* parsedEntries(lines: AsyncIterable<string> | Iterable<string>) {
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === "") continue;
    yield decodeLine(line, `line ${n}`);
  }
}

/**
 * Restores backup lines into `kv`. Every line is parsed before anything is written, so a damaged
 * file changes nothing. Returns how many entries were written.
 */
export async function restoreLines(
  kv: Deno.Kv,
  lines: AsyncIterable<string> | Iterable<string>,
  options: RestoreOptions = {},
): Promise<number> {
  const entries: Entry[] = [];
  for await (const entry of parsedEntries(lines)) entries.push(entry);
  if (!(await isEmpty(kv))) {
    if (!options.force) {
      throw new RestoreRefused(
        "The target KV is not empty; restore into an empty store, or pass --force to replace " +
          "everything in it",
      );
    }
    await writeBatched(kv, listedEntries(kv), (op, e) => op.delete(e.key));
  }
  return await writeBatched(kv, entries, (op, e) => op.set(e.key, e.value));
}

/** The lines of a text file, streamed. */
export async function* fileLines(path: string): AsyncGenerator<string> {
  const file = await Deno.open(path);
  let buffer = "";
  for await (const chunk of file.readable.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let index;
    while ((index = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, index);
      buffer = buffer.slice(index + 1);
    }
  }
  if (buffer) yield buffer;
}

async function main(args: string[]): Promise<void> {
  const force = args.includes("--force");
  const [path] = args.filter((a) => a !== "--force");
  if (!path) {
    console.error("Usage: deno task restore <backup.jsonl> [--force]");
    Deno.exit(2);
  }
  const kv = await openKv(kvPathFromEnv());
  try {
    const count = await restoreLines(kv, fileLines(path), { force });
    console.log(`Restored ${count} entries from ${path}`);
  } catch (err) {
    if (!(err instanceof RestoreRefused)) throw err;
    console.error(`Restore refused: ${err.message}`);
    Deno.exitCode = 1;
  } finally {
    kv.close();
  }
}

if (import.meta.main) await main(Deno.args);
