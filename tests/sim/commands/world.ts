/**
 * What the world does: time passes (sometimes past every hold), the due jobs run (sometimes
 * twice), the mail server and the payment provider fail and come back, a provider's event comes
 * again or late, processes die between two steps of a workflow and start again, two things happen
 * at once, and finally the world heals.
 */
import { demoEventId, type DemoPayment } from "../../../server/payments/demo/provider.ts";
import { receivePaymentEvent } from "../../../server/orders/payment.ts";
import type { PaymentEvent } from "../../../server/payments/provider.ts";
import type { Model } from "../model.ts";
import { checkSettled } from "../check.ts";
import { observePayments } from "../invariants/carts.ts";
import { readView } from "../view.ts";
import type { ProviderFaults } from "../sim_payments.ts";
import type { World } from "../world.ts";
import { nth, Step } from "./base.ts";

/** Time passes. */
export class Wait extends Step {
  constructor(readonly p: { seconds: number }) {
    super();
  }
  act(_model: Model, world: World) {
    world.clock.advance(this.p.seconds * 1000);
    return Promise.resolve();
  }
  toString() {
    return `${this.p.seconds} seconds pass`;
  }
}

/** The clock jumps past every hold a checkout has now. */
export class JumpPastHolds extends Step {
  constructor(readonly p: { minutes: number }) {
    super();
  }
  act(_model: Model, world: World) {
    world.faultsSeen.add("clock jumps past the holds");
    world.clock.advance((world.config.reservationMinutes + this.p.minutes) * 60_000);
    return Promise.resolve();
  }
  toString() {
    return `${this.p.minutes} minutes past every hold pass`;
  }
}

/** The due jobs run, from a given instance on; maybe each twice at once. */
export class Deliver extends Step {
  constructor(readonly p: { twice: boolean; at: number }) {
    super();
  }
  override get steps() {
    return ["record payment", "refund", "stop payment", "expire order"];
  }
  async act(_model: Model, world: World) {
    if (this.p.twice && world.instances.length > 1) {
      world.faultsSeen.add("job run twice");
    }
    await world.deliverDue({ twice: this.p.twice, start: this.p.at });
  }
  toString() {
    return `the due jobs run${
      this.p.twice ? ", each twice at once" : ""
    } (from instance ${this.p.at})`;
  }
}

/** The mail server goes down, or comes back. */
export class MailServer extends Step {
  constructor(readonly p: { down: boolean }) {
    super();
  }
  act(_model: Model, world: World) {
    if (this.p.down) world.faultsSeen.add("mail server down");
    world.mailer.down = this.p.down;
    return Promise.resolve();
  }
  toString() {
    return this.p.down ? "the mail server goes down" : "the mail server comes back";
  }
}

/** The payment provider refuses one kind of call from now on, or accepts it again. */
export class ProviderFault extends Step {
  constructor(readonly p: { call: keyof ProviderFaults; refuses: boolean }) {
    super();
  }
  act(_model: Model, world: World) {
    if (this.p.refuses) world.faultsSeen.add(`provider refuses to ${this.p.call}`);
    world.faults[this.p.call] = this.p.refuses;
    return Promise.resolve();
  }
  toString() {
    return `the payment provider ${this.p.refuses ? "refuses" : "accepts"} ${this.p.call} calls${
      this.p.refuses ? "" : " again"
    }`;
  }
}

/** The provider's paid event of a taken charge arrives again (a webhook sent twice, or late). */
export class Redeliver extends Step {
  constructor(readonly p: { which: number; at: number }) {
    super();
  }
  override get steps() {
    return ["record payment event", "record payment", "refund"];
  }
  async act(_model: Model, world: World) {
    const taken: DemoPayment[] = [];
    for await (const e of world.store.list<DemoPayment>({ prefix: ["demo"] })) {
      if (e.value.status === "succeeded" || e.value.status === "refunded") taken.push(e.value);
    }
    const payment = nth(taken.sort((a, b) => a.id.localeCompare(b.id)), this.p.which);
    if (!payment) return;
    world.faultsSeen.add("webhook delivered again");
    const event: PaymentEvent = {
      id: demoEventId(payment.id),
      type: "paid",
      orderNumber: payment.orderNumber,
      paymentId: payment.id,
      paymentKind: payment.kind === "checkout_session" ? "hosted" : "embedded",
      ...(payment.details ? { details: payment.details } : {}),
    };
    await world.within(this.p.at, (deps) => receivePaymentEvent(deps, event));
  }
  toString() {
    return `the provider sends the paid event of taken charge ${this.p.which} again (instance ${this.p.at})`;
  }
}

/** A process starts again (a deploy, a scale-up): a new instance with the start-up sweep. */
export class Restart extends Step {
  constructor(readonly p: { at: number }) {
    super();
  }
  async act(_model: Model, world: World) {
    world.faultsSeen.add("process restarted");
    await world.restart(this.p.at);
  }
  toString() {
    return `process ${this.p.at} starts again`;
  }
}

/** A step whose process can die, or wait, at a step boundary: it names its instance. */
export type TrappableStep = Step & { readonly p: { at: number } };

/**
 * A process dies right after a named step of what it is doing (if it gets there); it starts
 * again, and its answer is lost.
 */
export class CrashDuring extends Step {
  constructor(readonly p: { step: number; action: TrappableStep }) {
    super();
  }
  get stepName(): string {
    return nth(this.p.action.steps, this.p.step) ?? "none";
  }
  async act(model: Model, world: World) {
    world.crashAt(this.p.action.p.at, this.stepName);
    world.dying = true;
    try {
      await this.p.action.act(model, world);
    } catch (err) {
      if (world.crashed() === false) throw err;
    } finally {
      world.dying = false;
      world.crashed();
      await world.restartDead();
    }
  }
  toString() {
    return `${this.p.action} — its process dies after "${this.stepName}"`;
  }
}

/**
 * Two things at once: the first waits right after a named step of its workflow while the second
 * runs from start to end, then the first goes on.
 */
export class Interleave extends Step {
  constructor(readonly p: { step: number; first: TrappableStep; second: Step }) {
    super();
  }
  get stepName(): string {
    return nth(this.p.first.steps, this.p.step) ?? "none";
  }
  async act(model: Model, world: World) {
    const trap = world.pauseAt(this.p.first.p.at, this.stepName);
    const first = this.p.first.act(model, world);
    const reached = await Promise.race([
      trap.reached.then(() => true),
      first.then(() => false, () => false),
    ]);
    // A payment the first recorded before its pause (or before it ended, when it never reached
    // the step) took its lines out of the cart before the second begins: the model learns of it
    // then, in the order the shop saw, or a cart edit by the second would be judged as if it came
    // first.
    if (!reached) {
      trap.release();
      await first;
      observePayments(model, await readView(world, model));
      await this.p.second.act(model, world);
      return;
    }
    world.faultsSeen.add(`two at once at "${this.stepName}"`);
    observePayments(model, await readView(world, model));
    try {
      const second = this.p.second.act(model, world);
      // The second may need what the waiting first holds (a lock turn): it gets a while, then
      // the first goes on anyway.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        second.catch(() => {}),
        new Promise((resolve) => (timer = setTimeout(resolve, 2_000))),
      ]);
      clearTimeout(timer);
      trap.release();
      await second;
    } finally {
      trap.release();
      await first;
    }
  }
  toString() {
    return `${this.p.first}, waiting after "${this.stepName}" while ${this.p.second}`;
  }
}

/**
 * The world heals: the mail server and the provider come back, dead processes start again, the
 * queue runs dry, time passes beyond every hold and the queue runs dry again. Then every charge
 * must have ended, every hold must be released, every email owed must have gone out once.
 */
export class Heal extends Step {
  async act(model: Model, world: World) {
    await heal(model, world);
  }
  toString() {
    return "the world heals and settles";
  }
}

/** Heals the world and checks what must hold once it has (the end of every history too). */
export async function heal(model: Model, world: World): Promise<void> {
  await world.mend();
  await world.settle();
  world.clock.advance((world.config.reservationMinutes + 1) * 60_000);
  await world.settle();
  await checkSettled(model, world);
}
