/**
 * A store whose queue is kept by the test (as the simulation keeps it): what the shop enqueues,
 * with its delay, is held here instead of Deno KV's own queue (whose delays are real time), and
 * `runDue` runs the jobs the test's clock has reached, in time order, through the queue's own
 * handler. So retries on the shop's schedules can be followed in minutes of fake time.
 */
import type { AppDeps } from "../../server/deps.ts";
import type { Clock } from "../../server/clock.ts";
import { runJob } from "../../server/queue.ts";
import { SimKv } from "../sim/sim_kv.ts";

/** A job the shop queued, and when it is due. */
export interface KeptJob {
  job: { type: string } & Record<string, unknown>;
  at: number;
}

/** A KV over `store` whose queue messages are kept in `jobs`, due by `clock`. */
export function keptQueue(store: Deno.Kv, clock: () => Clock) {
  const jobs: KeptJob[] = [];
  const kv = new SimKv({
    store,
    schedule: (job, delay) => jobs.push({ job: job as KeptJob["job"], at: clock().now() + delay }),
    logStock() {},
  });
  return {
    kv,
    jobs,
    /** The kept jobs of one type. */
    ofType: (type: string) => jobs.filter((j) => j.job.type === type),
    /** Runs every job due by now, in time order (the ones they queue too, once due). */
    async runDue(deps: AppDeps): Promise<void> {
      for (;;) {
        const now = deps.clock.now();
        const due = jobs.filter((j) => j.at <= now).sort((a, b) => a.at - b.at)[0];
        if (!due) return;
        jobs.splice(jobs.indexOf(due), 1);
        await runJob(deps, due.job);
      }
    },
  };
}
