/**
 * `deno task db:reset`: deletes the local development store (KV_PATH, default ./data/shop.kv) so
 * the next start, or `deno task db:seed`, begins a fresh shop. It asks nothing, so it refuses
 * whatever may be someone's real shop: DENO_ENV=production, a remote store (KV Connect URL) and
 * Deno Deploy's managed KV. The development admin password beside the file is kept. Stop the shop
 * first: a running one keeps writing to the deleted file.
 */

import { isRemoteKvPath } from "../kv/open.ts";

/** The store used when KV_PATH is unset (server/kv/open.ts). */
const DEFAULT_PATH = "./data/shop.kv";

/** Why the store this environment names must not be deleted by db:reset, or null when it may. */
export function resetRefusal(env: Record<string, string | undefined>): string | null {
  // Empty counts as unset, as in server/config.ts.
  const kvPath = env.KV_PATH?.trim() || undefined;
  if (env.DENO_ENV === "production") {
    return "DENO_ENV=production; a production store is never reset by a task (restore a backup instead)";
  }
  if (kvPath !== undefined && isRemoteKvPath(kvPath)) {
    return `KV_PATH is a remote store (${
      new URL(kvPath).origin
    }); db:reset deletes only a local file`;
  }
  if (kvPath === undefined && env.DENO_DEPLOYMENT_ID) {
    return "this is Deno Deploy's managed KV; db:reset deletes only a local file";
  }
  if (kvPath === ":memory:") return "KV_PATH=:memory: is gone with its process; nothing to delete";
  return null;
}

/** What every SQLite file, and so every local Deno KV store, begins with. */
const SQLITE_HEADER = "SQLite format 3\0";

/**
 * Why the file at `path` must not be deleted as a store: it is not one (a KV_PATH naming another
 * file, which db:reset would otherwise delete with whatever sits beside it), or null.
 */
export async function notStoreRefusal(path: string): Promise<string | null> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  try {
    const head = new Uint8Array(SQLITE_HEADER.length);
    const read = await file.read(head);
    const text = new TextDecoder().decode(head.subarray(0, read ?? 0));
    return text === SQLITE_HEADER ? null : `${path} is not a Deno KV store; nothing was deleted`;
  } finally {
    file.close();
  }
}

/** The store's SQLite file and the files SQLite keeps beside it while it is open. */
export function storeFiles(kvPath: string | undefined): string[] {
  const path = kvPath?.trim() || DEFAULT_PATH;
  return [path, `${path}-wal`, `${path}-shm`, `${path}-journal`];
}

async function main(): Promise<void> {
  const env = Deno.env.toObject();
  const refusal = resetRefusal(env);
  if (refusal) {
    console.error(`db:reset refused: ${refusal}`);
    Deno.exit(1);
  }
  const [path, ...beside] = storeFiles(env.KV_PATH);
  const notStore = await notStoreRefusal(path);
  if (notStore) {
    console.error(`db:reset refused: ${notStore}`);
    Deno.exit(1);
  }
  const deleted: string[] = [];
  // The main file goes last: a reset cut off half-way still finds it and can be run again.
  for (const file of [...beside, path]) {
    try {
      await Deno.remove(file);
      deleted.push(file);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  if (!deleted.includes(path)) {
    console.log(`No store at ${path}: nothing to delete.`);
    return;
  }
  console.log(
    `Deleted ${path}. The next start, or deno task db:seed, seeds a fresh shop; the development admin password beside it is kept.`,
  );
}

if (import.meta.main) await main();
