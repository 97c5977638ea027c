/**
 * The development admin password, kept in the data folder so that restarts (every save under
 * `deno task dev`) do not change it. Production never comes here: it requires ADMIN_PASSWORD.
 */

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
  if (kvPath === ":memory:" || /^https?:\/\//.test(kvPath)) return null;
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
  try {
    // createNew when there is none: two starts at once then agree on the first one written.
    const exists = await Deno.stat(file).then(() => true, () => false);
    await Deno.writeTextFile(file, password + "\n", { mode: 0o600, createNew: !exists });
  } catch (err) {
    if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    return (await readKept(file)) ?? password;
  }
  // `mode` applies only to a file being created; a replaced one may have been wider.
  if (Deno.build.os !== "windows") await Deno.chmod(file, 0o600);
  return password;
}

/** The password in `file`, or null when there is none or it is too short to be one. */
async function readKept(file: string): Promise<string | null> {
  try {
    const text = (await Deno.readTextFile(file)).trim();
    return text.length >= MIN_LENGTH ? text : null;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}
