/** Every invariant, after every step; the stronger ones once the world has healed. */
import type { Model } from "./model.ts";
import { readView, type View } from "./view.ts";
import { isDeepStrictEqual } from "node:util";
import { Violation, type World } from "./world.ts";
import { checkStock } from "./invariants/stock.ts";
import { checkMoney, checkMoneySettled } from "./invariants/money.ts";
import { checkCarts, observePayments } from "./invariants/carts.ts";
import { checkPromos } from "./invariants/promos.ts";
import { checkEmailsSettled, checkEmailsSoFar, stockNames } from "./invariants/emails.ts";
import { checkSettings } from "./invariants/settings.ts";
import { checkHolds } from "./invariants/holds.ts";
import { checkAudit } from "./invariants/audit.ts";
import { checkDrops } from "./invariants/drops.ts";

/** Checks what must hold after any step; answers the view it read. */
export async function checkStep(model: Model, world: World): Promise<View> {
  const view = await readView(world, model);
  observePayments(model, view);
  checkStock(model, view);
  checkMoney(view);
  checkCarts(model, view);
  checkPromos(model, view);
  checkSettings(model, view);
  checkAudit(view);
  checkDrops(view);
  checkHolds(model, view, world.config.holdExtensionMinutes * 60_000);
  checkEmailsSoFar(model, view, world, await stockNames(model, world));
  return view;
}

/** Checks what must hold once every fault is mended and the queue has run dry. */
export async function checkSettled(model: Model, world: World): Promise<View> {
  const view = await checkStep(model, world);
  // Each step's view reads again only what was written since the one before; the store, read
  // afresh here, must agree, or a write escaped the log and steps were judged on a stale view.
  const afresh = await readView(
    { store: world.store, epoch: 0, stockLog: [], writeLog: [] },
    model,
  );
  if (!isDeepStrictEqual(view.stock, afresh.stock)) {
    throw new Violation("the stock read step by step differs from the store read afresh");
  }
  if (!isDeepStrictEqual(view, afresh)) {
    throw new Violation("the view read step by step differs from the store read afresh");
  }
  checkMoneySettled(view, world.clock.now());
  checkEmailsSettled(model, view, world, await stockNames(model, world));
  for (const entry of view.outbox) {
    if (entry.status !== "sent") {
      throw new Violation(
        `email "${entry.email.subject}" is ${entry.status} after the mail server came back`,
      );
    }
  }
  return view;
}
