/**
 * Random histories of the shop, played by fast-check (model-based: `asyncModelRun` over a list of
 * steps, shrunk on failure). A history is its setting (how many instances, how payments are
 * reached, the first shelf counts and levels, the seed of the shop's random ids) and 40 to 60
 * steps of shoppers, the owner and the world; it always ends by healing the world and checking
 * what must hold then. Shrinking keeps at least 40 steps but turns those a failure does not need
 * into "nothing", which a printed history leaves out.
 */
import fc from "fast-check";
import type { StockKey } from "../../shared/bom.ts";
import { keys } from "../../server/kv/keys.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import { commitStockChange } from "../../server/kv/version.ts";
import { createWorld, type World } from "./world.ts";
import { LIMITED_CODE, type Model, newModel, PER_PERSON_CODE } from "./model.ts";
import { ADMIN, PLAY_KEYS, STAFF_KEY_NAME } from "./play.ts";
import { restoreRandom, seedRandom } from "./seeded_random.ts";
import { checkOwnerViews } from "./invariants/owner_views.ts";
import { readView } from "./view.ts";
import { Nothing, type Step } from "./commands/base.ts";
import {
  AddProduct,
  AddTester,
  Checkout,
  ConfirmReset,
  ConfirmStockAlert,
  Contact,
  CustomerCancel,
  ExtendHold,
  NotifyMe,
  Pay,
  ResetPassword,
  SetQuantity,
  SignUp,
} from "./commands/shopper.ts";
import {
  AddSwitch,
  BackupRestore,
  CountShort,
  EditPromo,
  OwnerLooks,
  OwnerMove,
  RetireSwitch,
  SetPrice,
  SetShelf,
  type StaffAct,
  StaffActs,
} from "./commands/owner.ts";
import {
  CrashDuring,
  Deliver,
  Heal,
  heal,
  Interleave,
  JumpPastHolds,
  MailServer,
  ProviderFault,
  Redeliver,
  Restart,
  Wait,
} from "./commands/world.ts";
import { BuyFromDrop, CallOffDrop, ScheduleDrop } from "./commands/drops.ts";
import type { ProviderMode } from "./sim_payments.ts";
import type { TrappableStep } from "./commands/world.ts";

/** Shoppers in every history: few, so that they share carts' shelves and codes. */
const SHOPPERS = 4;

/** How a history is set up. */
export interface Setting {
  instances: number;
  mode: ProviderMode;
  /** Seed of the shop's random ids. */
  random: number;
  /** The first shelf count of each key in play (the owner's opening count). */
  shelves: number[];
  /** Low-stock levels the owner sets at the start (null: the default). */
  levels: (number | null)[];
  limit: number;
}

const settingArb: fc.Arbitrary<Setting> = fc.record({
  instances: fc.integer({ min: 1, max: 3 }),
  mode: fc.constantFrom<ProviderMode>("inline", "remote"),
  random: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  shelves: fc.array(fc.integer({ min: 0, max: 40 }), {
    minLength: PLAY_KEYS.length,
    maxLength: PLAY_KEYS.length,
  }),
  levels: fc.array(fc.option(fc.integer({ min: 0, max: 20 }), { freq: 3 }), {
    minLength: PLAY_KEYS.length,
    maxLength: PLAY_KEYS.length,
  }),
  limit: fc.integer({ min: 1, max: 4 }),
});

const at = fc.nat({ max: 2 });
const shopper = fc.nat({ max: SHOPPERS - 1 });
const mostlyFalse = fc.oneof(
  { weight: 4, arbitrary: fc.constant(false) },
  { weight: 1, arbitrary: fc.constant(true) },
);
/** Which of a shopper's checkouts: mostly the latest, sometimes a replaced one. */
const which = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, {
  weight: 1,
  arbitrary: fc.nat({ max: 3 }),
});

function addProduct(s = shopper) {
  return fc.record({
    shopper: s,
    product: fc.nat({ max: 4 }),
    quantity: fc.integer({ min: 1, max: 3 }),
    at,
  }).map((p) => new AddProduct(p));
}
function checkout(s = shopper) {
  return fc.record({
    shopper: s,
    kind: fc.nat({ max: 2 }),
    code: fc.nat({ max: 3 }),
    spelling: fc.nat({ max: 3 }),
    at,
  }).map((p) => new Checkout(p));
}
function pay(s = shopper) {
  return fc.record({
    shopper: s,
    which,
    declined: mostlyFalse,
    spelling: fc.nat({ max: 3 }),
    code: fc.nat({ max: 3 }),
    at,
  }).map((p) => new Pay(p));
}
function setQuantity(s = shopper) {
  return fc.record({
    shopper: s,
    line: fc.nat({ max: 3 }),
    quantity: fc.integer({ min: 0, max: 4 }),
    at,
  }).map((p) => new SetQuantity(p));
}
function extendHold(s = shopper) {
  return fc.record({ shopper: s, which, at }).map((p) => new ExtendHold(p));
}
function customerCancel(s = shopper) {
  return fc.record({ shopper: s, which, at }).map((p) => new CustomerCancel(p));
}
const ownerMove = fc.record({
  move: fc.constantFrom<"cancel" | "track" | "ship" | "deliver">(
    "cancel",
    "track",
    "ship",
    "deliver",
  ),
  which: fc.nat({ max: 20 }),
  at,
}).map((p) => new OwnerMove(p));
const ownerCancel = fc.record({
  move: fc.constant<"cancel">("cancel"),
  which: fc.nat({ max: 20 }),
  at,
})
  .map((p) => new OwnerMove(p));
const staffActs = fc.record({
  act: fc.constantFrom<StaffAct>("track", "ship", "deliver", "cancel", "price", "promo"),
  which: fc.nat({ max: 20 }),
  at,
}).map((p) => new StaffActs(p));
const setShelf = fc.record({
  key: fc.nat({ max: PLAY_KEYS.length - 1 }),
  stock: fc.option(fc.integer({ min: 0, max: 30 }), { freq: 4 }),
  level: fc.option(fc.integer({ min: 0, max: 20 }), { freq: 2 }),
  at,
}).map((p) => new SetShelf(p));
const editPromo = fc.record({ perPerson: fc.boolean(), limit: fc.integer({ min: 1, max: 4 }), at })
  .map((p) => new EditPromo(p));
const deliver = fc.record({ twice: mostlyFalse, at }).map((p) => new Deliver(p));
const redeliver = fc.record({ which: fc.nat({ max: 10 }), at }).map((p) => new Redeliver(p));

/** What a process can be doing when it dies, or when something else happens at once. */
function trappable(s = shopper): fc.Arbitrary<TrappableStep> {
  return fc.oneof(
    { weight: 3, arbitrary: checkout(s) },
    { weight: 4, arbitrary: pay(s) },
    { weight: 1, arbitrary: customerCancel(s) },
    { weight: 1, arbitrary: extendHold(s) },
    { weight: 1, arbitrary: ownerCancel },
    { weight: 3, arbitrary: deliver },
    { weight: 1, arbitrary: redeliver },
  );
}

/** What happens at once with a waiting action: mostly the same shopper's doing. */
function alongside(s: fc.Arbitrary<number>): fc.Arbitrary<Step> {
  return fc.oneof(
    { weight: 3, arbitrary: pay(s) },
    { weight: 3, arbitrary: checkout(s) },
    { weight: 2, arbitrary: addProduct(s) },
    { weight: 1, arbitrary: setQuantity(s) },
    { weight: 1, arbitrary: extendHold(s) },
    { weight: 1, arbitrary: ownerMove },
    { weight: 1, arbitrary: setShelf },
    { weight: 1, arbitrary: editPromo },
    { weight: 1, arbitrary: deliver },
  );
}

const crash = fc.record({ step: fc.nat({ max: 3 }), action: trappable() })
  .map((p) => new CrashDuring(p));
const interleave = shopper.chain((s) =>
  fc.record({
    step: fc.nat({ max: 3 }),
    first: trappable(fc.constant(s)),
    second: alongside(
      fc.oneof({ weight: 3, arbitrary: fc.constant(s) }, { weight: 1, arbitrary: shopper }),
    ),
  })
).map((p) => new Interleave(p));
/**
 * Two things at once on one cart, where features meet: a checkout or a payment waits after one
 * of its steps while its shopper pays, checks out again or changes the cart.
 */
const sameCart = shopper.chain((n) => {
  const s = fc.constant(n);
  return fc.record({
    // Mostly right after the first step (pricing the cart, taking the charge): the widest seams.
    step: fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, {
      weight: 1,
      arbitrary: fc.nat({ max: 3 }),
    }),
    first: fc.oneof(checkout(s), pay(s)),
    second: fc.oneof(pay(s), checkout(s), addProduct(s), setQuantity(s)),
  });
}).map((p) => new Interleave(p));

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { withCrossShrink: true },
  { weight: 1, arbitrary: fc.constant(new Nothing()) },
  { weight: 24, arbitrary: addProduct() },
  {
    weight: 5,
    arbitrary: fc.record({ shopper, pick: fc.nat({ max: 12 }), at }).map((p) => new AddTester(p)),
  },
  { weight: 6, arbitrary: setQuantity() },
  { weight: 18, arbitrary: checkout() },
  { weight: 22, arbitrary: pay() },
  { weight: 3, arbitrary: customerCancel() },
  { weight: 6, arbitrary: extendHold() },
  // Sign-ups hash a password (PBKDF2, 600,000 rounds): few, to keep the budget's time.
  { weight: 1, arbitrary: fc.record({ shopper, at }).map((p) => new SignUp(p)) },
  { weight: 3, arbitrary: fc.record({ shopper, at }).map((p) => new ResetPassword(p)) },
  { weight: 1, arbitrary: fc.record({ shopper, at }).map((p) => new ConfirmReset(p)) },
  {
    weight: 3,
    arbitrary: fc.record({ shopper, switch: fc.nat({ max: 21 }), at }).map((p) => new NotifyMe(p)),
  },
  { weight: 3, arbitrary: fc.record({ shopper, at }).map((p) => new ConfirmStockAlert(p)) },
  { weight: 2, arbitrary: fc.record({ shopper, at }).map((p) => new Contact(p)) },
  { weight: 9, arbitrary: setShelf },
  {
    weight: 3,
    arbitrary: fc.record({ which: fc.nat({ max: 5 }), short: fc.integer({ min: 1, max: 3 }), at })
      .map((p) => new CountShort(p)),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      product: fc.nat({ max: 2 }),
      cents: fc.integer({ min: 500, max: 2_500 }),
      at,
    })
      .map((p) => new SetPrice(p)),
  },
  {
    weight: 2,
    arbitrary: fc.record({ switch: fc.nat({ max: 2 }), retired: fc.boolean(), at }).map((p) =>
      new RetireSwitch(p)
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({ stock: fc.integer({ min: 0, max: 20 }), at }).map((p) =>
      new AddSwitch(p)
    ),
  },
  { weight: 4, arbitrary: editPromo },
  { weight: 10, arbitrary: ownerMove },
  { weight: 4, arbitrary: staffActs },
  { weight: 2, arbitrary: fc.record({ at }).map((p) => new OwnerLooks(p)) },
  { weight: 2, arbitrary: fc.constant(new BackupRestore()) },
  {
    weight: 8,
    arbitrary: fc.record({ seconds: fc.integer({ min: 1, max: 900 }) }).map((p) => new Wait(p)),
  },
  {
    weight: 5,
    arbitrary: fc.record({ minutes: fc.integer({ min: 1, max: 30 }) }).map((p) =>
      new JumpPastHolds(p)
    ),
  },
  { weight: 12, arbitrary: deliver },
  { weight: 6, arbitrary: fc.record({ down: fc.boolean() }).map((p) => new MailServer(p)) },
  {
    weight: 5,
    arbitrary: fc.record({
      call: fc.constantFrom<"create" | "stop" | "refund">("create", "stop", "refund"),
      refuses: fc.boolean(),
    }).map((p) => new ProviderFault(p)),
  },
  { weight: 3, arbitrary: redeliver },
  { weight: 2, arbitrary: fc.record({ at }).map((p) => new Restart(p)) },
  { weight: 10, arbitrary: crash },
  { weight: 5, arbitrary: interleave },
  { weight: 12, arbitrary: sameCart },
  { weight: 2, arbitrary: fc.constant(new Heal()) },
  {
    weight: 2,
    arbitrary: fc.record({
      target: fc.nat({ max: 2 }),
      units: fc.integer({ min: 1, max: 6 }),
      limit: fc.integer({ min: 1, max: 3 }),
      // Past the shop's 10 minutes of extension too, which a longer drop hold is extended by.
      holdMinutes: fc.integer({ min: 2, max: 15 }),
    }).map((p) => new ScheduleDrop(p)),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      shopper,
      drop: fc.nat({ max: 2 }),
      admitted: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, {
        weight: 1,
        arbitrary: fc.constant(false),
      }),
      quantity: fc.integer({ min: 1, max: 3 }),
      at,
    }).map((p) => new BuyFromDrop(p)),
  },
  {
    weight: 1,
    arbitrary: fc.record({ drop: fc.nat({ max: 2 }), at }).map((p) => new CallOffDrop(p)),
  },
);

/** How many steps histories have. */
export interface Length {
  min: number;
  max: number;
}

function historyArb(length: Length): fc.Arbitrary<Step[]> {
  return fc.array(stepArb, { minLength: length.min, maxLength: length.max });
}

/** Sets the shop up as the setting says, through the owner's own calls. */
async function setUp(setting: Setting, world: World): Promise<Model> {
  const request = async (path: string, method: string, body: unknown) => {
    const answer = await world.request(0, path, { ...ADMIN, method, body });
    if (answer.status >= 300) throw new Error(`setting up: ${path} answered ${answer.text}`);
  };
  await request("/api/admin/promos", "POST", {
    code: LIMITED_CODE,
    percentOff: 10,
    maxUses: setting.limit,
  });
  await request("/api/admin/promos", "POST", {
    code: PER_PERSON_CODE,
    percentOff: 20,
    maxUsesPerEmail: 1,
  });
  // The opening shelves, as a seed writes them (one write; the owner's first counts).
  const op = world.store.atomic();
  for (const [i, key] of PLAY_KEYS.entries()) {
    const level = setting.levels[i];
    const record: StockRecord = { stock: setting.shelves[i], reserved: 0, used: 0 };
    if (level !== null) record.lowStockAt = level;
    op.set(keys.stock(key), record);
  }
  if (!await commitStockChange(world.store, op, world.clock.now())) {
    throw new Error("setting up: the opening shelves were not written");
  }
  const stock = new Map<StockKey, number>();
  for (const [key, record] of (await readView(world, newModel(0, new Map()))).stock) {
    stock.set(key, record.stock + record.used);
  }
  const model = newModel(SHOPPERS, stock);
  // The packing script's staff key: the owner makes it as the API Keys tab does.
  const made = await world.request(0, "/api/admin/api-keys", {
    ...ADMIN,
    method: "POST",
    body: { name: STAFF_KEY_NAME, role: "staff" },
  });
  if (made.status !== 201) throw new Error(`setting up: the staff key answered ${made.text}`);
  model.staffKey = made.json.key;
  for (const [i, key] of PLAY_KEYS.entries()) {
    const level = setting.levels[i];
    if (level !== null) model.levels.set(key, [{ step: 0, level }]);
  }
  model.promos.set(LIMITED_CODE, {
    code: LIMITED_CODE,
    percentOff: 10,
    maxUses: setting.limit,
    maxUsesPerEmail: null,
    uses: 0,
    usesByPerson: new Map(),
  });
  model.promos.set(PER_PERSON_CODE, {
    code: PER_PERSON_CODE,
    percentOff: 20,
    maxUses: null,
    maxUsesPerEmail: 1,
    uses: 0,
    usesByPerson: new Map(),
  });
  return model;
}

/** What one history did, for the run's totals. */
export interface Played {
  steps: number;
  faults: Set<string>;
  instances: number;
  mode: ProviderMode;
}

/** Plays one history: set up, every step with its checks, then heal and check what must hold. */
export async function play(setting: Setting, steps: Step[]): Promise<Played> {
  seedRandom(setting.random);
  const world = await createWorld({ instances: setting.instances, mode: setting.mode });
  try {
    const model = await setUp(setting, world);
    await fc.asyncModelRun(() => ({ model, real: world }), steps);
    world.step++;
    await heal(model, world);
    await checkOwnerViews(model, await readView(world, model), world, 0, ADMIN);
    return {
      steps: steps.filter((s) => !s.quiet).length,
      faults: world.faultsSeen,
      instances: setting.instances,
      mode: setting.mode,
    };
  } catch (err) {
    Object.assign(err as object, { logs: world.logs.slice(-12), world });
    throw err;
  } finally {
    world.close();
    restoreRandom();
  }
}

/** Options of a run. */
export interface RunOptions {
  seed: number;
  runs: number;
  length: Length;
  /** A failure's path, to replay exactly that (shrunk) history. */
  path?: string;
  /** Called after each history that passed. */
  onPlayed?(played: Played): void;
}

/** What a run found. */
export interface RunReport {
  ok: boolean;
  histories: number;
  seed: number;
  path?: string;
  /** The failing history, shrunk, as readable steps; and what broke. */
  history?: string[];
  setting?: Setting;
  /** The shrunk history's steps themselves, to play it again. */
  steps?: Step[];
  error?: string;
  logs?: unknown[];
}

/** Plays `runs` histories from `seed` (or replays one by its path). */
export async function runHistories(options: RunOptions): Promise<RunReport> {
  let histories = 0;
  const property = fc.asyncProperty(
    settingArb,
    historyArb(options.length),
    async (setting, steps) => {
      const played = await play(setting, steps);
      histories++;
      options.onPlayed?.(played);
    },
  );
  const details = await fc.check(property, {
    seed: options.seed,
    numRuns: options.runs,
    path: options.path,
    endOnFailure: options.path !== undefined,
  });
  if (!details.failed) return { ok: true, histories, seed: details.seed };
  const [setting, steps] = details.counterexample!;
  const error = details.errorInstance as Error & { logs?: unknown[] };
  return {
    ok: false,
    // The histories played before the first failure (shrinking replays more).
    histories: details.numRuns - 1,
    seed: details.seed,
    path: details.counterexamplePath ?? undefined,
    setting,
    steps,
    history: steps.filter((s) => !s.quiet).map((s) => String(s)),
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    logs: error?.logs,
  };
}
