/** Named steps: the order workflows read top to bottom as the steps they take. */
import type { AppDeps } from "../deps.ts";

/** Dependencies every order workflow takes. */
export type OrderDeps = Pick<AppDeps, "kv" | "clock" | "config" | "payments" | "logger" | "onStep">;

/**
 * Runs one step, then reports its name as a boundary. Every step leaves KV consistent on its
 * own, so the workflow may stop after any of them (a crash) and recovery still ends it right.
 */
export async function step<T>(deps: OrderDeps, name: string, run: () => Promise<T>): Promise<T> {
  const result = await run();
  await deps.onStep?.(name);
  return result;
}
