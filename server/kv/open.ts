/**
 * Opens Deno KV from KV_PATH: a file path, ":memory:", or an http(s) URL of a KV Connect server.
 * Without KV_PATH it uses ./data/shop.kv locally and the managed store on Deno Deploy.
 */
/** Whether KV_PATH names a KV Connect server (any case of the scheme) rather than a file. */
export function isRemoteKvPath(kvPath: string): boolean {
  return /^https?:\/\//i.test(kvPath);
}

export async function openKv(kvPath: string | undefined): Promise<Deno.Kv> {
  if (kvPath === undefined && Deno.env.get("DENO_DEPLOYMENT_ID")) return await Deno.openKv();
  const path = kvPath ?? "./data/shop.kv";
  if (path !== ":memory:" && !isRemoteKvPath(path)) {
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
    await Deno.mkdir(dir || "/", { recursive: true });
  }
  return await Deno.openKv(path);
}
