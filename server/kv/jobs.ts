/**
 * Stored jobs: the shop's work owed later, kept as KV entries instead of Deno KV's queue, which
 * Deno Deploy and KV Connect stores do not offer. A job is written in the same atomic operation as
 * the change that owes it (so a change and its job commit together or not at all), and claimed by
 * moving it to a lease further on: a process that dies mid-job leaves it to come due again when
 * the lease ends. Delivery is at least once, as it was on the queue; every job is idempotent.
 * Plumbing only: what a job does is the queue runner's business (server/queue.ts).
 */
import { keys } from "./keys.ts";

/** Any job: a `type` and its own fields. */
export type Job = { type: string };

/** A job as it is stored: the job, and how often it was tried and failed. */
export interface StoredJob<J extends Job = Job> {
  job: J;
  tries: number;
}

/** When a job is due, and an optional fixed id (the same job written twice stays one entry). */
export interface JobTiming {
  at: number;
  id?: string;
}

/** Adds `job` to `op`, due at `timing.at` (now or later). */
export function jobInto<J extends Job>(
  op: Deno.AtomicOperation,
  job: J,
  timing: JobTiming,
): Deno.AtomicOperation {
  // A time that is not a number would sort where no runner looks: the job would never come due.
  if (!Number.isFinite(timing.at)) throw new TypeError(`a ${job.type} job needs a due time`);
  const stored: StoredJob = { job, tries: 0 };
  return op.set(keys.job(Math.floor(timing.at), timing.id ?? crypto.randomUUID()), stored);
}

/** Stores `job` on its own (no change owes it in the same write), due at `timing.at`. */
export async function putJob<J extends Job>(kv: Deno.Kv, job: J, timing: JobTiming): Promise<void> {
  const result = await jobInto(kv.atomic(), job, timing).commit();
  if (!result.ok) throw new Error("storing a job failed");
}

/** Jobs due by `now`, oldest first, at most `limit`. */
export async function dueJobs(
  kv: Deno.Kv,
  now: number,
  limit: number,
): Promise<Deno.KvEntry<StoredJob>[]> {
  const due: Deno.KvEntry<StoredJob>[] = [];
  const entries = kv.list<StoredJob>({ start: keys.jobs(), end: keys.jobsDueBy(now) }, { limit });
  for await (const entry of entries) due.push(entry);
  return due;
}

/** Every stored job of one type, due or not (the start's sweep checks what is already owed). */
export async function jobsOfType<J extends Job>(kv: Deno.Kv, type: J["type"]): Promise<J[]> {
  const jobs: J[] = [];
  for await (const { value } of kv.list<StoredJob>({ prefix: keys.jobs() })) {
    if (value.job.type === type) jobs.push(value.job as J);
  }
  return jobs;
}

/** A job this process holds until `until`, as `claimJob` answers it. */
export interface ClaimedJob {
  key: Deno.KvKey;
  versionstamp: string;
  stored: StoredJob;
}

/**
 * Claims a due job: moves it to its lease's end, checked against the entry as read, so of two
 * processes finding it due only one claims it. Null when another got there first.
 */
export async function claimJob(
  kv: Deno.Kv,
  entry: Deno.KvEntry<StoredJob>,
  until: number,
): Promise<ClaimedJob | null> {
  const id = String(entry.key[2]);
  const key = keys.job(Math.floor(until), id);
  const result = await kv.atomic().check(entry).delete(entry.key).set(key, entry.value).commit();
  return result.ok ? { key, versionstamp: result.versionstamp, stored: entry.value } : null;
}

/** Deletes a job that was done, unless another process claimed it again meanwhile. */
export async function finishJob(kv: Deno.Kv, claimed: ClaimedJob): Promise<void> {
  await kv.atomic().check(claimed).delete(claimed.key).commit();
}

/** Puts a job that failed back, due at `at`, with its failure counted. */
export async function retryJob(kv: Deno.Kv, claimed: ClaimedJob, at: number): Promise<void> {
  const id = String(claimed.key[2]);
  const stored: StoredJob = { job: claimed.stored.job, tries: claimed.stored.tries + 1 };
  await kv.atomic().check(claimed).delete(claimed.key).set(keys.job(Math.floor(at), id), stored)
    .commit();
}
