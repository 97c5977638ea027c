/** Named steps: the order workflows read top to bottom as the steps they take. */
import type { AppDeps } from "../deps.ts";
import { inSpan, ORDER_NUMBER } from "../telemetry.ts";

/** Dependencies every order workflow takes. */
export type OrderDeps = Pick<AppDeps, "kv" | "clock" | "config" | "payments" | "logger" | "onStep">;

/**
 * The order a step is about: its number, or how to read it from the step's result (a checkout's
 * reservation makes the number).
 */
export type StepOrder<T> = string | ((result: T) => string | undefined);

/**
 * Runs one step, then reports its name as a boundary. Every step leaves KV consistent on its
 * own, so the workflow may stop after any of them (a crash) and recovery still ends it right.
 * Each step is a span, "order: <name>", carrying the order's number: the one place the steps are
 * named is the one place they are traced.
 */
export async function step<T>(
  deps: OrderDeps,
  name: string,
  run: () => Promise<T>,
  order?: StepOrder<T>,
): Promise<T> {
  const known = typeof order === "string" ? { [ORDER_NUMBER]: order } : {};
  const fromResult = typeof order === "function"
    ? (result: T) => {
      const orderNumber = order(result);
      return orderNumber ? { [ORDER_NUMBER]: orderNumber } : {};
    }
    : undefined;
  const result = await inSpan(`order: ${name}`, { "shop.step": name, ...known }, run, fromResult);
  await deps.onStep?.(name);
  return result;
}
