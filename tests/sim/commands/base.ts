/**
 * A step of a history: something a shopper, the owner or the world does. Each step acts on the
 * shop and the model, then every invariant is checked. Steps name what they act on by numbers
 * taken modulo what exists (the third shopper, the latest checkout), so a history shrunk by
 * dropping steps still reads as one.
 */
import type { AsyncCommand } from "fast-check";
import type { Model } from "../model.ts";
import { checkStep } from "../check.ts";
import { type Answer, Violation, type World } from "../world.ts";

/** Set by `deno task sim --trace`: each step is printed as it runs (for replaying a failure). */
export const trace = { on: false };

export abstract class Step implements AsyncCommand<Model, World, false> {
  check(_model: Readonly<Model>): boolean {
    return true;
  }

  async run(model: Model, world: World): Promise<void> {
    world.step++;
    if (trace.on && !this.quiet) console.log(`  step ${world.step}: ${this}`);
    await this.act(model, world);
    await world.quiesce();
    await checkStep(model, world);
  }

  /** Does what the step does, without the checks (a composite step runs several). */
  abstract act(model: Model, world: World): Promise<void>;

  abstract toString(): string;

  /** Workflow steps this action goes through, at which its process can die or wait. */
  get steps(): readonly string[] {
    return [];
  }

  /** Steps that do nothing are left out of a printed history. */
  get quiet(): boolean {
    return false;
  }
}

/** A step that does nothing: what shrinking turns the steps a failure does not need into. */
export class Nothing extends Step {
  act(): Promise<void> {
    return Promise.resolve();
  }
  override async run(): Promise<void> {}
  toString(): string {
    return "nothing";
  }
  override get quiet(): boolean {
    return true;
  }
}

/**
 * Checks an answer: never a 500 (unless the step's process was made to die), and only the
 * statuses the step allows; answers it.
 */
export function expectAnswer(
  world: World,
  answer: Answer,
  allowed: number[],
  what: string,
): Answer {
  if (world.dying) return answer;
  if (answer.status >= 500 && !allowed.includes(answer.status)) {
    throw new Violation(`${what} failed with ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
  if (!allowed.includes(answer.status)) {
    throw new Violation(`${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
  if (answer.status >= 400 && typeof answer.json?.error !== "string") {
    throw new Violation(
      `${what} refused without an { error } sentence: ${answer.text.slice(0, 200)}`,
    );
  }
  return answer;
}

/** The n-th of a list, counting modulo its length; undefined for an empty list. */
export function nth<T>(list: readonly T[], n: number): T | undefined {
  return list.length === 0 ? undefined : list[n % list.length];
}
