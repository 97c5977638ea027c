/**
 * The development admin password, kept in the data folder so that restarts (every save under
 * `deno task dev`) do not change it. Production never comes here: it requires ADMIN_PASSWORD.
 */

import { isRemoteKvPath } from "../kv/open.ts";

/** The kept file's name, in the folder of the KV file. */
export const ADMIN_PASSWORD_FILE = "admin_password";

/** Shorter than this is no password the shop accepts (ADMIN_PASSWORD's own minimum). */
const MIN_LENGTH = 8;

/**
 * The folder to keep the password in: the local KV file's (KV_PATH, default ./data/shop.kv), or
 * null when the store has no folder of the shop's own (`:memory:`, a KV Connect URL, or Deno
 * Deploy's managed KV, where the disk is not writable), and the password is made for the run.
 */
export function adminPasswordFolder(
  kvPath: string | undefined,
  where: { deployed: boolean },
): string | null {
  if (kvPath === undefined) return where.deployed ? null : "./data";
  if (kvPath === ":memory:" || isRemoteKvPath(kvPath)) return null;
  const slash = kvPath.lastIndexOf("/");
  if (slash < 0) return ".";
  return slash === 0 ? "/" : kvPath.slice(0, slash);
}

/**
 * The password kept in `dir`, or `generate()`'s, written there first (owner-only, 0600). A file
 * holding fewer than 8 characters is what a start cut off between creating and writing it leaves,
 * and is replaced; anything longer is the owner's (hand-written or kept) and is used as it is.
 */
export async function keptAdminPassword(dir: string, generate: () => string): Promise<string> {
  const file = `${dir.replace(/\/+$/, "")}/${ADMIN_PASSWORD_FILE}`;
  const kept = await readKept(file);
  if (kept !== null) return kept;
  await Deno.mkdir(dir, { recursive: true });
  const password = generate();
  // Written whole under a name of its own, then linked in place: a link fails when the name
  // exists, so of two first starts at once one wins and the other reads the winner's, never a
  // half-written file. A leftover too short to be a password is replaced.
  const draft = `${file}.${crypto.randomUUID()}`;
  await Deno.writeTextFile(draft, password + "\n", { mode: 0o600, createNew: true });
  try {
    if ((await Deno.stat(file).catch(() => null)) && (await readKept(file)) === null) {
      await Deno.remove(file).catch(() => {});
    }
    await Deno.link(draft, file);
    return password;
  } catch (err) {
    if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    return (await readKept(file)) ?? password;
  } finally {
    await Deno.remove(draft).catch(() => {});
  }
}

/** The password in `file`, or null when there is none or it is too short to be one. */
async function readKept(file: string): Promise<string | null> {
  try {
    const text = (await Deno.readTextFile(file)).trim();
    if (text.length < MIN_LENGTH) return null;
    // A file others may read (written by hand, or copied) is made the owner's alone.
    const mode = (await Deno.stat(file)).mode;
    if (Deno.build.os !== "windows" && mode !== null && (mode & 0o077) !== 0) {
      await Deno.chmod(file, 0o600);
    }
    return text;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}
