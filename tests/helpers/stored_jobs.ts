/**
 * The shop's stored jobs as a test reads and runs them: what the shop owes later is KV entries
 * (server/kv/jobs.ts), so a test on the injected clock lists them, and `runDue` runs the ones the
 * clock has reached through the shop's own runner, the jobs they store too once due. So retries on
 * the shop's schedules can be followed in minutes of fake time.
 */
import type { AppDeps } from "../../server/deps.ts";
import { keys } from "../../server/kv/keys.ts";
import type { StoredJob } from "../../server/kv/jobs.ts";
import { runDueJobs } from "../../server/queue.ts";

/** A job the shop stored, and when it is due. */
export interface KeptJob {
  job: { type: string } & Record<string, unknown>;
  at: number;
  tries: number;
  key: Deno.KvKey;
}

/** The jobs stored in `kv`. */
export function storedJobs(kv: Deno.Kv) {
  async function all(): Promise<KeptJob[]> {
    const jobs: KeptJob[] = [];
    for await (const entry of kv.list<StoredJob>({ prefix: keys.jobs() })) {
      const { job, tries } = entry.value;
      jobs.push({ job: job as KeptJob["job"], at: Number(entry.key[1]), tries, key: entry.key });
    }
    return jobs;
  }
  return {
    all,
    /** The stored jobs of one type, in the order they are due. */
    ofType: async (type: string) => (await all()).filter((j) => j.job.type === type),
    /** Deletes one stored job (as if it were never written). */
    remove: async (job: KeptJob) => await kv.delete(job.key),
    /** Deletes every stored job (a store restored from a backup made before jobs were stored). */
    clear: async () => {
      for (const job of await all()) await kv.delete(job.key);
    },
    /** Runs every job due by the clock's now, in time order, and the ones they store, once due. */
    async runDue(deps: AppDeps): Promise<void> {
      for (let round = 0; round < 200; round++) {
        if (await runDueJobs(deps) === 0) return;
      }
      throw new Error("jobs keep coming due: 200 rounds at one moment");
    },
  };
}
