/**
 * `deno task backup [file]`: writes every entry of the shop's Deno KV (KV_PATH, default
 * ./data/shop.kv) to a JSON-lines file, one `{key, value, versionstamp}` per line. Values keep
 * their exact types (Uint8Array, bigint, Date, Map, Set, Deno.KvU64, ...) through tagged objects,
 * so `deno task restore` gives back entries that compare equal, types included.
 *
 * Not in a backup, because Deno KV cannot list them: pending queue messages (reservation expiry
 * and email jobs; the server's start-up sweeps redo both) and `expireIn` deadlines (records that
 * must expire store their own expiry and are checked on read). Versionstamps are recorded for
 * reference only; a restore gets new ones. Local KV belongs to one process, so stop the shop first;
 * against a KV Connect URL the listing is not one snapshot of a store that keeps changing.
 */
import { openKv } from "../kv.ts";

/** One line of a backup. */
export interface BackupLine {
  key: unknown[];
  value: unknown;
  versionstamp?: string;
}

/** The tag of an encoded value that JSON cannot hold as it is. */
const TAG = "$kv";

const TYPED_ARRAYS = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
} as const;

type TypedArrayName = keyof typeof TYPED_ARRAYS;

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * A JSON-safe form of a KV value or key part. Plain JSON stays as it is, so a backup reads like
 * the data; everything else becomes `{"$kv": type, ...}`, and a plain object that happens to have
 * a `$kv` field is wrapped too, so decoding is never ambiguous.
 */
export function encodeValue(value: unknown): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "undefined":
      return { [TAG]: "undefined" };
    case "bigint":
      return { [TAG]: "bigint", v: value.toString() };
    case "number":
      // JSON has no NaN, infinities or negative zero.
      return Number.isFinite(value) && !Object.is(value, -0)
        ? value
        : { [TAG]: "number", v: String(Object.is(value, -0) ? "-0" : value) };
    case "object":
      break;
    default:
      throw new TypeError(`Cannot back up a value of type ${typeof value}`);
  }
  if (value === null) return null;
  if (value instanceof Deno.KvU64) return { [TAG]: "u64", v: value.value.toString() };
  if (value instanceof Date) return { [TAG]: "date", v: encodeValue(value.getTime()) };
  if (value instanceof RegExp) return { [TAG]: "regexp", source: value.source, flags: value.flags };
  if (value instanceof Map) {
    return { [TAG]: "map", v: [...value].map(([k, v]) => [encodeValue(k), encodeValue(v)]) };
  }
  if (value instanceof Set) return { [TAG]: "set", v: [...value].map(encodeValue) };
  if (value instanceof ArrayBuffer) {
    return { [TAG]: "arraybuffer", v: toBase64(new Uint8Array(value)) };
  }
  if (ArrayBuffer.isView(value)) {
    const type = value.constructor.name;
    if (type !== "DataView" && !(type in TYPED_ARRAYS)) {
      throw new TypeError(`Cannot back up a ${type}`);
    }
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return { [TAG]: type === "DataView" ? "dataview" : "bytes", type, v: toBase64(bytes) };
  }
  if (value instanceof Error) {
    return { [TAG]: "error", name: value.name, message: value.message, stack: value.stack ?? null };
  }
  if (Array.isArray(value)) return Array.from(value, encodeValue);
  const entries = Object.entries(value).map(([k, v]) => [k, encodeValue(v)]);
  const object = Object.fromEntries(entries);
  return TAG in object ? { [TAG]: "object", v: object } : object;
}

/** The value `encodeValue` was given, with its type. */
export function decodeValue(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(decodeValue);
  const object = value as Record<string, unknown>;
  if (!(TAG in object)) {
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, decodeValue(v)]));
  }
  const v = object.v;
  switch (object[TAG]) {
    case "undefined":
      return undefined;
    case "bigint":
      return BigInt(v as string);
    case "number":
      return Number(v);
    case "u64":
      return new Deno.KvU64(BigInt(v as string));
    case "date":
      return new Date(decodeValue(v) as number);
    case "regexp":
      return new RegExp(object.source as string, object.flags as string);
    case "map":
      return new Map((v as [unknown, unknown][]).map(([k, x]) => [decodeValue(k), decodeValue(x)]));
    case "set":
      return new Set((v as unknown[]).map(decodeValue));
    case "arraybuffer":
      return fromBase64(v as string).buffer;
    case "dataview":
      return new DataView(fromBase64(v as string).buffer);
    case "bytes": {
      const type = object.type as TypedArrayName;
      if (!(type in TYPED_ARRAYS)) throw new TypeError(`Unknown typed array ${type}`);
      return new TYPED_ARRAYS[type](fromBase64(v as string).buffer);
    }
    case "error": {
      const error = new Error(object.message as string);
      error.name = object.name as string;
      if (typeof object.stack === "string") error.stack = object.stack;
      return error;
    }
    case "object":
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, decodeValue(x)]),
      );
    default:
      throw new TypeError(`Unknown tag ${JSON.stringify(object[TAG])} in a backup`);
  }
}

/** One JSON line (without its newline) for a KV entry. */
export function encodeEntry(entry: Deno.KvEntry<unknown>): string {
  const line: BackupLine = {
    key: entry.key.map(encodeValue),
    value: encodeValue(entry.value),
    versionstamp: entry.versionstamp,
  };
  return JSON.stringify(line);
}

/** Every entry of the store as JSON lines, in key order. */
export async function* backupLines(kv: Deno.Kv): AsyncGenerator<string> {
  for await (const entry of kv.list({ prefix: [] })) yield encodeEntry(entry);
}

/**
 * Writes the backup to `path` through a temporary file renamed at the end, so an interrupted run
 * never leaves something that looks like a complete backup. Returns how many entries it holds.
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
  } finally {
    kv.close();
  }
}

if (import.meta.main) await main(Deno.args);
