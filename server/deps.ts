import type { Config } from "./config.ts";
import type { Mailer } from "./email/mailer.ts";
import type { PaymentProvider } from "./payments/provider.ts";

/** Source of the current time, so tests can fix it. */
export interface Clock {
  now(): number;
}

/** One structured log line. */
export type LogEntry = Record<string, unknown> & { msg: string };

/** Where log lines go; tests pass a silent one. */
export type Logger = (entry: LogEntry) => void;

/** Everything the app needs from outside, passed in so tests can swap any of it. */
export interface AppDeps {
  kv: Deno.Kv;
  config: Config;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  payments: PaymentProvider;
  /**
   * Called after each named step of the order workflows (`server/orders/steps.ts`). The shop
   * passes none; the crash tests throw here to stop a workflow at a step boundary, as a process
   * that dies there would.
   */
  onStep?: (step: string) => void | Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** Writes JSON lines to stdout, the format log collectors (and Deno Deploy) read best. */
export function jsonLogger(entry: LogEntry): void {
  console.log(JSON.stringify({ time: new Date().toISOString(), ...entry }));
}
