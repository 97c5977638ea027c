/**
 * The world a simulated shop lives in: one store, one to three shop instances over it (each a
 * whole `createApp` with its own KV wrapper, as isolates on Deno Deploy), one clock the history
 * moves, the shop's stored jobs the history runs when due (on which instance, and how often), one
 * mail server and one payment provider the history breaks and mends, and processes that die at a
 * step boundary and start again.
 *
 * Nothing here decides what the shop should do; it only plays what shoppers, the owner and the
 * world do, and keeps the logs (stock writes, mail and provider attempts) the invariants read.
 */
import type { Hono } from "hono";
import { createApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { type Config } from "../../server/deps.ts";
import type { AppDeps } from "../../server/deps.ts";
import type { LogEntry } from "../../server/log.ts";
import { seedKv } from "../../server/ops/seed.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import { withLocksOf } from "../../server/kv/kv_util.ts";
import { runJob, runStoredJob, sweepAtStart } from "../../server/queue.ts";
import { dueJobs, type StoredJob } from "../../server/kv/jobs.ts";
import { keys } from "../../server/kv/keys.ts";
import { backupLines } from "../../server/ops/backup.ts";
import { restoreLines } from "../../server/ops/restore.ts";
import type { StockKey } from "../../shared/bom.ts";
import {
  FEW_ITERATIONS,
  fixedClock,
  sendTo,
  TEST_ADMIN_PASSWORD,
  type TestRequest,
} from "../helpers/test_app.ts";
import { SimCrash, SimKv } from "./sim_kv.ts";
import type { Listed, StockRead } from "./view.ts";
import { type SimMailer, simMailer } from "./sim_mailer.ts";
import {
  type ProviderFaults,
  type ProviderLog,
  type ProviderMode,
  simPayments,
} from "./sim_payments.ts";

/** The shop's own address for emails in the simulation. */
export const SHOP_EMAIL = "owner@shop.test";

/** A broken rule: what the simulation exists to find. */
export class Violation extends Error {
  override name = "Violation";
}

/** A stock record as one commit wrote it. */
export interface StockWrite {
  /** Restores start a new store, whose versionstamps start again: the epoch orders them. */
  epoch: number;
  versionstamp: string;
  /** The history's step at which it was written. */
  step: number;
  key: StockKey;
  record: StockRecord;
}

/** One running shop process. */
export interface Instance {
  index: number;
  kv: SimKv;
  deps: AppDeps;
  app: Hono;
}

/** A response as the simulation reads it. */
export interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any
  json: any;
  text: string;
}

/** Where a process is made to die, or to wait. */
interface StepTrap {
  instance: number;
  step: string;
}

interface Pause extends StepTrap {
  reached(): void;
  gate: Promise<void>;
}

/** Settling stops with a violation past this much simulated time: something never ends. */
const SETTLE_HORIZON_MS = 10 * 86_400_000;

/** What a history is played with. */
export interface WorldOptions {
  instances: number;
  mode: ProviderMode;
}

/** Creates the world of one history: a seeded store and its instances. */
export async function createWorld(options: WorldOptions): Promise<World> {
  const world = new World(options, await Deno.openKv(":memory:"));
  await seedKv(world.store, world.clock);
  for (let i = 0; i < options.instances; i++) world.instances.push(world.newInstance(i));
  return world;
}

/** The world of one history. */
export class World {
  readonly clock = fixedClock();
  readonly config: Config;
  readonly mailer: SimMailer;
  readonly faults: ProviderFaults = { create: false, stop: false, refund: false };
  readonly providerLog: ProviderLog = { attempts: [] };
  readonly instances: Instance[] = [];
  readonly stockLog: StockWrite[] = [];
  /**
   * The store for writes the world makes itself (a drop the owner opens, a place in its line):
   * past every instance, never dying, its commits logged as the instances' are.
   */
  readonly own: SimKv = new SimKv(this);
  /** Every key a commit wrote, in the order the commits answered (what the view reads again). */
  readonly writeLog: Deno.KvKey[] = [];
  /** The stock as the last view read it, and the last listing of each prefix (view.ts). */
  stockRead?: StockRead;
  listed?: Listed;
  /** Log lines of every instance (the last ones are printed with a failure). */
  readonly logs: LogEntry[] = [];
  /** Fault kinds this history exercised, for the run's coverage count. */
  readonly faultsSeen = new Set<string>();
  /** Step names the shop reported, for the crash commands' coverage. */
  readonly stepsSeen = new Set<string>();
  store: Deno.Kv;
  epoch = 0;
  /** The history's current step number (commands count it up). */
  step = 0;
  /** Set while a step runs whose process is made to die: its answers are not judged. */
  dying = false;
  #crash: StepTrap | null = null;
  #pause: Pause | null = null;

  constructor(readonly options: WorldOptions, store: Deno.Kv) {
    this.store = store;
    this.config = loadConfig({
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      DENO_ENV: "test",
      DIST_DIR: "/nonexistent-dist",
      LOG_REQUESTS: "0",
      SHOP_EMAIL,
    });
    this.mailer = simMailer(this.clock);
  }

  /** A new process at `index`, over the current store. */
  newInstance(index: number): Instance {
    const kv = new SimKv(this);
    const payments = simPayments(
      kv,
      this.clock,
      this.options.mode,
      this.faults,
      this.providerLog,
    );
    const logger = (entry: LogEntry) => {
      this.logs.push({ ...entry, instance: index, at: this.clock.now() });
      if (this.logs.length > 400) this.logs.splice(0, 200);
    };
    const instance = { index, kv } as Instance;
    instance.deps = {
      kv,
      config: this.config,
      clock: this.clock,
      logger,
      mailer: this.mailer,
      payments,
      onStep: (step) => this.#onStep(instance, step),
      // Hashes at the tests' cheap cost, as every test app but the cost's own tests: at the shop's
      // 600,000 iterations the histories' sign-ups, sign-ins and resets were a sixth of the
      // simulation's CPU, and no invariant is about how long a hash takes (a stored hash keeps its
      // own count, so every check of it is the shop's own code either way).
      passwordIterations: FEW_ITERATIONS,
    };
    instance.app = createApp(instance.deps);
    return instance;
  }

  // --- the store's side (KvWorld) ---

  logStock(versionstamp: string, writes: [StockKey, StockRecord][]): void {
    for (const [key, record] of writes) {
      this.stockLog.push({ epoch: this.epoch, versionstamp, step: this.step, key, record });
    }
  }

  logWrites(keys: Deno.KvKey[]): void {
    this.writeLog.push(...keys);
  }

  // --- requests and jobs ---

  /** The instance a command names (its number modulo how many run). */
  instance(n: number): Instance {
    return this.instances[n % this.instances.length];
  }

  /** Sends a request to an instance, with that instance's own lock turns. */
  async request(n: number, path: string, init: TestRequest = {}): Promise<Answer> {
    const instance = this.instance(n);
    return await sendTo(
      instance.app,
      path,
      init,
      (call) => withLocksOf(instance.kv, call),
    );
  }

  /** Runs `fn` as the work of instance `n` (a call into the shop's modules, as its queue would). */
  async within<T>(n: number, fn: (deps: AppDeps) => Promise<T>): Promise<T> {
    const instance = this.instance(n);
    return await withLocksOf(instance.kv, () => fn(instance.deps));
  }

  /** Starts a new process in place of instance `n`, with the start-up sweep every process runs. */
  async restart(n: number): Promise<void> {
    const index = n % this.instances.length;
    const fresh = this.newInstance(index);
    this.instances[index] = fresh;
    await withLocksOf(fresh.kv, () => sweepAtStart(fresh.deps));
  }

  /** Restarts every instance whose process died. */
  async restartDead(): Promise<void> {
    for (const instance of this.instances) {
      if (instance.kv.dead) await this.restart(instance.index);
    }
  }

  /** Every job stored, due or not. */
  async jobs(): Promise<Deno.KvEntry<StoredJob>[]> {
    return await Array.fromAsync(this.store.list<StoredJob>({ prefix: keys.jobs() }));
  }

  /**
   * Runs every stored job due now, oldest first, each claimed by the next instance in turn, as
   * their runners would. With `twice`, another instance runs the same job at the same time without
   * claiming it: what at-least-once delivery allows (a lease that ran out under a slow job, a
   * process that died after the work but before deleting the job). A job whose handler throws is
   * put back by the runner; one whose process dies stays claimed until its lease ends.
   */
  async deliverDue(options: { twice?: boolean; start?: number } = {}): Promise<number> {
    let turn = options.start ?? 0;
    let delivered = 0;
    for (let round = 0; round < 500; round++) {
      const [due] = await dueJobs(this.store, this.clock.now(), 1);
      if (!due) return delivered;
      const runner = this.instance(turn);
      const work = [withLocksOf(runner.kv, () => runStoredJob(runner.deps, due))];
      if (options.twice && this.instances.length > 1) {
        const other = this.instance(turn + 1);
        work.push(withLocksOf(other.kv, () => runJob(other.deps, due.value.job)));
      }
      turn++;
      const results = await Promise.allSettled(work);
      delivered++;
      if (results.some((r) => r.status === "rejected")) await this.restartDead();
    }
    throw new Violation("the jobs keep coming due now (500 in one delivery)");
  }

  /**
   * Runs the jobs until none is left, moving the clock to each next one: what happens when the
   * world is left alone long enough.
   */
  async settle(): Promise<void> {
    const start = this.clock.now();
    for (let round = 0; round < 2_000; round++) {
      await this.deliverDue();
      const jobs = await this.jobs();
      if (jobs.length === 0) return;
      const next = Math.min(...jobs.map((j) => Number(j.key[1])));
      if (next - start > SETTLE_HORIZON_MS) {
        const waiting = jobs.map((j) => JSON.stringify(j.value.job)).slice(0, 5).join(", ");
        throw new Violation(`the jobs never settle; still waiting: ${waiting}`);
      }
      this.clock.set(Math.max(this.clock.now(), next));
    }
    throw new Violation("the jobs did not settle in 2,000 rounds");
  }

  /** Everything broken mends: the mail server, the provider and dead processes. */
  async mend(): Promise<void> {
    this.mailer.down = false;
    this.faults.create = this.faults.stop = this.faults.refund = false;
    await this.restartDead();
  }

  // --- faults at step boundaries ---

  /** The next time instance `instance` reports `step`, its process dies there. */
  crashAt(instance: number, step: string): void {
    this.#crash = { instance: instance % this.instances.length, step };
  }

  /** Whether the armed crash happened (and disarms it). */
  crashed(): boolean {
    const armed = this.#crash !== null;
    this.#crash = null;
    return !armed;
  }

  /**
   * The next time instance `instance` reports `step`, it waits until `release` is called;
   * `reached` settles when it does.
   */
  pauseAt(instance: number, step: string): { reached: Promise<void>; release(): void } {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.#pause = { instance: instance % this.instances.length, step, reached, gate };
    return {
      reached: reachedPromise,
      release: () => {
        this.#pause = null;
        release();
      },
    };
  }

  async #onStep(instance: Instance, step: string): Promise<void> {
    this.stepsSeen.add(step);
    if (instance.kv.dead) throw new SimCrash(`process ${instance.index} is dead`);
    const crash = this.#crash;
    if (crash && crash.step === step && crash.instance === instance.index) {
      this.#crash = null;
      instance.kv.dead = true;
      this.faultsSeen.add(`process died after "${step}"`);
      throw new SimCrash(`process ${instance.index} died after "${step}"`);
    }
    const pause = this.#pause;
    if (pause && pause.step === step && pause.instance === instance.index) {
      this.#pause = null;
      pause.reached();
      await pause.gate;
    }
  }

  /**
   * Once a step has ended (every request it sent has answered, every job it ran has returned),
   * waits until no store call of the live processes is on its way and none begins while queued
   * continuations run: a commit on its way at the step's end, or begun since, is a write outliving
   * the request or job that made it (what a backup, a stop or a frozen Deploy isolate would meet).
   * Reads may outlive an answer (a cache refreshed in the background); they are waited for, since
   * one may lead to a write. What this does not see: a late write that lands while a later request
   * of the same step runs, or after a retry's timer; the view's and the backup's comparisons may
   * still meet those.
   */
  async quiesce(): Promise<void> {
    const kvs = [...this.instances.map((i) => i.kv), this.own].filter((kv) => !kv.dead);
    const late = kvs.some((kv) => kv.commitsInFlight > 0);
    const begun = () => kvs.reduce((n, kv) => n + kv.commitsBegun, 0);
    const before = begun();
    for (;;) {
      const pending = kvs.flatMap((kv) => [...kv.inFlight]);
      if (pending.length > 0) {
        await Promise.allSettled(pending);
        continue;
      }
      // A write may begin a few continuations after the last call settled (a lock's turn): let
      // queued continuations run (no timer: a turn of the event loop costs a millisecond a step).
      for (let turn = 0; turn < 50; turn++) await null;
      if (kvs.every((kv) => kv.inFlight.size === 0)) break;
    }
    if (late || begun() !== before) {
      throw new Violation(
        "a store commit was on its way after the step's requests had answered",
      );
    }
  }

  // --- backups ---

  /**
   * Backs the store up and restores it into an empty store, which must hold the same entries,
   * value for value (the stored jobs too); the shop then runs on the restored store, every process
   * starting again.
   */
  async backupAndRestore(): Promise<void> {
    const lines: string[] = [];
    try {
      for await (const line of backupLines(this.store)) lines.push(line);
    } catch (err) {
      throw new Violation(`the backup failed: ${(err as Error).message}`);
    }
    const restored = await Deno.openKv(":memory:");
    await restoreLines(restored, lines);
    const before = await everyEntry(this.store);
    const after = await everyEntry(restored);
    for (const [key, value] of before) {
      if (after.get(key) !== value) {
        restored.close();
        throw new Violation(
          `the restored store differs at ${key}: ${value} before, ${after.get(key)} after`,
        );
      }
    }
    for (const key of after.keys()) {
      if (!before.has(key)) throw new Violation(`the restored store has an extra entry ${key}`);
    }
    const old = this.store;
    this.store = restored;
    this.epoch++;
    old.close();
    for (let i = 0; i < this.instances.length; i++) await this.restart(i);
  }

  close(): void {
    this.store.close();
  }
}

/** Every entry of a store as key JSON to value JSON (KV's own number kinds spelled out). */
async function everyEntry(kv: Deno.Kv): Promise<Map<string, string>> {
  const all = new Map<string, string>();
  for await (const e of kv.list({ prefix: [] })) {
    all.set(JSON.stringify(e.key), JSON.stringify(e.value, kvJson));
  }
  return all;
}

function kvJson(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return `${value}n`;
  if (value instanceof Deno.KvU64) return `${value.value}u64`;
  if (value instanceof Uint8Array) return { bytes: [...value] };
  return value;
}
