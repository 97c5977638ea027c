/**
 * Several shop instances in one process over one KV store, as Deno Deploy runs many isolates
 * against one strongly consistent KV. Each instance is a whole `createApp` over its own KV object
 * (a pass-through `remoteKv` wrapper of the one store), so everything the shop keeps in memory per
 * KV object (the trusted stock version and the views built on it, the stock group commit) is kept
 * per instance, as each isolate keeps its own; each instance's requests and queue jobs also take
 * their in-process lock turns apart (`withLocksOf`), as isolates share no locks.
 *
 * The instances share one test clock: isolates read one wall clock, and the shop compares times
 * one isolate wrote with another's clock (a hold's expiry, a cart's age), so one clock is the
 * faithful model, and moving it moves every instance's trust window of the stock version too.
 * Clock skew between isolates is not modelled. Nor is what the shop keeps per process rather than
 * per KV object: the password hashing permits (server/password_gate.ts) are shared by the
 * instances here, where each isolate would have its own.
 *
 * The jobs: stored in the store, each claimed by whichever isolate finds it due (at least once),
 * and every isolate's start runs the same handlers over what is pending. `runJob` runs a job
 * through the runner's own handler (`server/queue.ts`) on one instance, `runJobEverywhere` on all
 * of them at once (a job run twice, or a start-up sweep meeting the runner), `runDue` claims and
 * runs what is due on one, and `startQueue` keeps running what comes due, each pass on the next
 * instance in turn.
 */
import { createApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { type Config } from "../../server/deps.ts";
import type { AppDeps } from "../../server/deps.ts";
import type { LogEntry } from "../../server/log.ts";
import { seedKv } from "../../server/ops/seed.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import { commitStockChange } from "../../server/kv/version.ts";
import { keys } from "../../server/kv/keys.ts";
import { withLocksOf } from "../../server/kv/kv_util.ts";
import type { StockKey } from "../../shared/bom.ts";
import { memoryMailer } from "../../server/email/mailer.ts";
import { deliverPending } from "../../server/email/outbox.ts";
import { demoPayments } from "../../server/payments/demo/provider.ts";
import { type QueueJob, runDueJobs, runJob } from "../../server/queue.ts";
import { type Latency, remoteKv } from "./remote_kv.ts";
import {
  fixedClock,
  sendTo,
  TEST_ADMIN_PASSWORD,
  type TestApp,
  type TestClock,
  type TestRequest,
} from "./test_app.ts";

/** Options of a set of instances. */
export interface MultiInstanceOptions {
  /** How many instances (at least 2; 3 by default). */
  instances?: number;
  env?: Record<string, string>;
  seed?: boolean;
  /** Delays of each instance's KV calls; none by default (a pure pass-through). */
  latency?: Partial<Latency>;
  /** Called after each named step of an instance's order workflows (see TestAppOptions). */
  onStep?: (instance: number, step: string) => void | Promise<void>;
}

/**
 * One instance: shaped as a `TestApp` (so the shop fixtures work on it), with its own KV object,
 * app, mailer and logs, and the shared clock.
 */
export type Instance = TestApp & {
  index: number;
  deps: AppDeps;
  mailer: ReturnType<typeof memoryMailer>;
  /** Handles one job here, as this isolate's job runner would once it claimed it. */
  runJob(job: QueueJob): Promise<void>;
  /** Claims and runs the stored jobs due now here, as this isolate's job runner would. */
  runDue(): Promise<number>;
};

/** Builds `instances` shop instances over one in-memory KV store (see the module comment). */
export async function createInstances(options: MultiInstanceOptions = {}) {
  const count = options.instances ?? 3;
  if (!Number.isInteger(count) || count < 2) throw new Error("at least 2 instances");
  const kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const config: Config = loadConfig({
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    DENO_ENV: "test",
    DIST_DIR: "/nonexistent-dist",
    ...options.env,
  });
  // Seeded straight into the store, as by an earlier deployment: no instance has seen a write.
  if (options.seed !== false) await seedKv(kv, clock);
  const latency = { readMs: 0, commitMs: 0, enqueueMs: 0, ...options.latency };
  const instances = Array.from(
    { length: count },
    (_, index) => newInstance(index, remoteKv(kv, latency), clock, config, options.onStep),
  );

  let turn = 0;
  /** The next instance in turn, so consecutive calls spread over all of them. */
  function next(): Instance {
    return instances[turn++ % count];
  }

  let polling: ReturnType<typeof setInterval> | undefined;
  let passes: Promise<unknown> = Promise.resolve();
  /** Runs the store's due jobs from now on, every few milliseconds on the next instance in turn. */
  function startQueue(): void {
    polling ??= setInterval(() => {
      passes = passes.then(() => next().runDue()).catch(() => {});
    }, 10);
  }

  return {
    /** The one store, for a test's own reads and assertions (it is no instance's). */
    kv,
    clock,
    config,
    instances,
    /** Sends a request to instance `i`. */
    request: (i: number, path: string, init?: TestRequest) => instances[i].request(path, init),
    /** Sends a request to the next instance in turn. */
    spread: (path: string, init?: TestRequest) => next().request(path, init),
    next,
    /** Handles a queue job on instance `i`. */
    runJob: (i: number, job: QueueJob) => instances[i].runJob(job),
    /** Handles one queue job on every instance at once, as a message delivered to each would be. */
    runJobEverywhere: async (job: QueueJob) => {
      await Promise.all(instances.map((instance) => instance.runJob(job)));
    },
    startQueue,
    async [Symbol.asyncDispose]() {
      clearInterval(polling);
      await passes;
      kv.close();
    },
  };
}

/** A set of instances as `createInstances` makes it. */
export type Instances = Awaited<ReturnType<typeof createInstances>>;

function newInstance(
  index: number,
  kv: Deno.Kv,
  clock: TestClock,
  config: Config,
  onStep: MultiInstanceOptions["onStep"],
): Instance {
  const logs: LogEntry[] = [];
  const logger = (entry: LogEntry) => logs.push({ ...entry, instance: index });
  const mailer = memoryMailer();
  const payments = demoPayments(kv);
  const deps: AppDeps = {
    kv,
    config,
    clock,
    logger,
    mailer,
    payments,
    onStep: onStep && ((step) => onStep(index, step)),
  };
  const app = createApp(deps);
  const here = <T>(fn: () => Promise<T>) => withLocksOf(kv, fn);

  const request = (path: string, init: TestRequest = {}) => sendTo(app, path, init, here);

  /** Sets one stock record as this instance's own stock writers do (with the version). */
  async function writeStock(key: StockKey, record: StockRecord): Promise<void> {
    const op = kv.atomic().set(keys.stock(key), record);
    if (!await here(() => commitStockChange(kv, op, clock.now()))) {
      throw new Error("stock write failed");
    }
  }

  return {
    index,
    app,
    kv,
    clock,
    config,
    logs,
    logger,
    mailer,
    payments,
    deps,
    deliverEmails: () => here(() => deliverPending({ kv, mailer, clock, logger, config })),
    request,
    writeStock,
    runJob: (job) => here(() => runJob(deps, job)),
    runDue: () => here(() => runDueJobs(deps)),
    // The store is the set's to close, not one instance's.
    [Symbol.asyncDispose]: () => Promise.resolve(),
  };
}
