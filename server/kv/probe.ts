import { keys } from "./keys.ts";

/** How long the store may take to answer the probe before it counts as not answering. */
export const PROBE_TIMEOUT_MS = 2_000;

/**
 * Whether the store answers both a read and an atomic commit: a read of one fixed key, then an
 * atomic operation that checks the versionstamp read and mutates nothing. The commit is a round
 * trip on the write path (a remote KV's primary, a local file's write lock) that adds no entry
 * and changes none, so a load balancer asking every few seconds never grows the store. False
 * when either fails, the check is refused, or the two take longer than PROBE_TIMEOUT_MS.
 */
export async function kvAnswers(kv: Deno.Kv, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const probe = (async () => {
    const entry = await kv.get(keys.readyProbe());
    const result = await kv.atomic().check(entry).commit();
    return result.ok;
  })().catch(() => false);
  // A store that hangs (a remote KV whose network is gone) must not hang the probe with it.
  const late = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), timeoutMs));
  try {
    return await Promise.race([probe, late]);
  } finally {
    clearTimeout(timer);
  }
}
