/**
 * The promo code rules (server/promos/rules.ts): which codes a shopper may use, the refusal that
 * says why not, and a limited code's uses held by checkouts and counted by payments. Usage reads
 * are built by hand the way `readUsage` (server/promos/store.ts) returns them; only the tests of
 * what a write leaves in the store open an in-memory KV.
 */
import assert from "node:assert/strict";
import { discountCents } from "../../shared/policy.ts";
import { InvalidInput, Unavailable } from "../../server/errors.ts";
import { keys } from "../../server/kv/keys.ts";
import {
  checkTerms,
  countUse,
  discountOf,
  giveBackUse,
  holdUse,
  isLimited,
  ledgerOf,
  ledgerSize,
  type RedeemContext,
  usageClaims,
  usageWant,
  writeLedgerInto,
} from "../../server/promos/rules.ts";
import {
  type CodeUsage,
  type EmailUsage,
  type PromoRecord,
  promoRecord,
  readUsage,
  usageCounts,
  type UsageRead,
} from "../../server/promos/store.ts";

/** Noon UTC, November 15, 2026: the moment every check below happens. */
const NOW = Date.UTC(2026, 10, 15, 12);
const CTX: RedeemContext = { now: NOW, subtotalCents: 5000, typed: "spring" };
const STAMP = "00000000000000010000";

function spring(fields: Partial<PromoRecord> = {}): PromoRecord {
  return promoRecord({ code: "SPRING", percentOff: 10, ...fields }, Date.UTC(2026, 0, 1));
}

function entry<T>(key: Deno.KvKey, value: T | null): Deno.KvEntryMaybe<T> {
  return value === null
    ? { key, value: null, versionstamp: null }
    : { key, value, versionstamp: STAMP };
}

/** A code's usage as a write reads it: its record (null: unknown), paid uses, holding orders. */
function codeUsage(
  code: string,
  promo: PromoRecord | null,
  { uses = 0, holds = [] }: { uses?: number; holds?: string[] } = {},
): CodeUsage {
  return {
    code,
    promo: entry(keys.promo(code), promo),
    uses: entry(keys.promoUses(code), uses ? new Deno.KvU64(BigInt(uses)) : null),
    holds: entry(keys.promoHolds(code), holds.length ? holds : null),
  };
}

function emailUsage(
  code: string,
  email: string,
  { uses = 0, holds = [] }: { uses?: number; holds?: string[] } = {},
): EmailUsage {
  return {
    code,
    email,
    uses: entry(keys.promoEmailUses(code, email), uses ? new Deno.KvU64(BigInt(uses)) : null),
    holds: entry(keys.promoEmailHolds(code, email), holds.length ? holds : null),
  };
}

/** The message of the InvalidInput `act` throws (failing when it accepts). */
function refusal(act: () => unknown): string {
  try {
    act();
  } catch (e) {
    assert.ok(e instanceof InvalidInput, String(e));
    return e.message;
  }
  assert.fail("the code was accepted");
}

const RIGHT_NOW =
  "The promo code SPRING has no uses left right now: checkouts waiting for payment hold the last ones. Try again later, or check out without it.";

Deno.test("a code takes its percentage or its amount off the subtotal", () => {
  const percent = spring({ percentOff: 16 });
  assert.deepEqual(discountOf(percent), { percentOff: 16, amountOffCents: null });
  assert.equal(discountCents(10_000, discountOf(percent)), 1600);

  const amount = spring({ percentOff: null, amountOffCents: 500 });
  assert.deepEqual(discountOf(amount), { percentOff: null, amountOffCents: 500 });
  assert.equal(discountCents(10_000, discountOf(amount)), 500);
  assert.equal(discountCents(300, discountOf(amount)), 300, "never below $0");
});

Deno.test("a code is limited when it caps uses in total or per email", () => {
  assert.equal(isLimited(null), false);
  assert.equal(isLimited(spring()), false);
  assert.equal(isLimited(spring({ maxUses: 100 })), true);
  assert.equal(isLimited(spring({ maxUsesPerEmail: 1 })), true);
  // A limit of 0 (the owner stopped a code's uses) is a limit too.
  assert.equal(isLimited(spring({ maxUses: 0 })), true);
});

Deno.test("one shopper's uses are read under their mailbox however they write it", () => {
  // The spellings themselves are promo_mailbox_test.ts's; here: the want carries the mailbox.
  assert.deepEqual(usageWant("SPRING", " E.ve+shop@GoogleMail.com"), {
    code: "SPRING",
    email: "eve@gmail.com",
  });
  assert.deepEqual(usageWant("SPRING", "eve@gmail.com"), usageWant("SPRING", "EVE+2@gmail.com"));
  // No email yet: the per-email count cannot be read.
  assert.deepEqual(usageWant("SPRING", null), { code: "SPRING", email: null });
  assert.deepEqual(usageWant("SPRING", undefined), { code: "SPRING", email: null });
  assert.deepEqual(usageWant("SPRING", ""), { code: "SPRING", email: null });
});

Deno.test("an active code in its dates, at its minimum subtotal, is accepted", () => {
  const promo = spring({
    startsAt: NOW,
    endsAt: NOW + 1,
    minSubtotalCents: 2000,
  });
  assert.equal(checkTerms(promo, { ...CTX, subtotalCents: 2000 }), promo);
  // No cart given (a preview): the minimum waits for the checkout.
  assert.equal(checkTerms(promo, { ...CTX, subtotalCents: null }), promo);
});

Deno.test("an unknown or switched-off code is 'not valid', as the shopper typed it", () => {
  assert.equal(
    refusal(() => checkTerms(null, { ...CTX, typed: "  spring10 " })),
    "The promo code spring10 is not valid",
  );
  assert.equal(
    refusal(() => checkTerms(spring({ active: false }), { ...CTX, typed: "Spring" })),
    "The promo code Spring is not valid",
  );
});

Deno.test("a code used before it starts says the day it starts", () => {
  assert.equal(
    refusal(() => checkTerms(spring({ startsAt: Date.UTC(2026, 11, 1) }), CTX)),
    "The promo code SPRING starts on December 1, 2026",
  );
  assert.equal(
    refusal(() => checkTerms(spring({ startsAt: Date.UTC(2026, 10, 15, 12, 30) }), CTX)),
    "The promo code SPRING starts on November 15, 2026 at 12:30 UTC",
  );
});

Deno.test("a code used at or after its end says the day it ended", () => {
  assert.equal(
    refusal(() => checkTerms(spring({ endsAt: NOW }), CTX)),
    "The promo code SPRING ended on November 15, 2026 at 12:00 UTC",
  );
  assert.equal(
    refusal(() => checkTerms(spring({ endsAt: Date.UTC(2026, 10, 1) }), CTX)),
    "The promo code SPRING ended on November 1, 2026",
  );
});

Deno.test("a subtotal below the code's minimum says the minimum", () => {
  assert.equal(
    refusal(() => checkTerms(spring({ minSubtotalCents: 2000 }), { ...CTX, subtotalCents: 1999 })),
    "The promo code SPRING needs a subtotal of at least $20.00",
  );
});

Deno.test("the last use held by one checkout is refused to another until it is given back", () => {
  const read: UsageRead = {
    codes: [codeUsage("SPRING", spring({ maxUses: 3 }), { uses: 2 })],
    emails: [],
  };
  const want = usageWant("SPRING", null);
  const ledger = ledgerOf(read);
  assert.equal(holdUse(ledger, want, "A", CTX).code, "SPRING");
  assert.equal(refusal(() => holdUse(ledger, want, "B", CTX)), RIGHT_NOW);
  assert.equal(refusal(() => holdUse(ledger, want, null, CTX)), RIGHT_NOW, "a preview too");
  // The holder checking again does not compete with itself.
  assert.equal(holdUse(ledger, want, "A", CTX).code, "SPRING");

  giveBackUse(ledger, want, "A");
  assert.equal(holdUse(ledger, want, "B", CTX).code, "SPRING");
});

Deno.test("a hold read from the store keeps the use until that order gives it back", () => {
  const read: UsageRead = {
    codes: [codeUsage("SPRING", spring({ maxUses: 3 }), { uses: 2, holds: ["A"] })],
    emails: [],
  };
  const want = usageWant("SPRING", null);
  assert.equal(refusal(() => holdUse(ledgerOf(read), want, "B", CTX)), RIGHT_NOW);
  const ledger = ledgerOf(read);
  giveBackUse(ledger, want, "A");
  assert.equal(holdUse(ledger, want, "B", CTX).code, "SPRING");
  // A retried plan starts from what was read, not from the abandoned attempt's holds.
  const retried = ledgerOf(read);
  assert.equal(refusal(() => holdUse(retried, want, "C", CTX)), RIGHT_NOW);
  giveBackUse(retried, want, "A");
  assert.equal(holdUse(retried, want, "C", CTX).code, "SPRING");
});

Deno.test("a code whose uses are all counted has no uses left", () => {
  const read: UsageRead = {
    codes: [codeUsage("SPRING", spring({ maxUses: 3 }), { uses: 3 })],
    emails: [],
  };
  assert.equal(
    refusal(() => holdUse(ledgerOf(read), usageWant("SPRING", null), "A", CTX)),
    "The promo code SPRING has no uses left",
  );
});

Deno.test("a per-email limit counts one mailbox however its address is written", () => {
  const promo = spring({ maxUsesPerEmail: 1 });
  const read: UsageRead = {
    codes: [codeUsage("SPRING", promo)],
    emails: [
      emailUsage("SPRING", "eve@gmail.com", { uses: 1 }),
      emailUsage("SPRING", "ann@example.com", { holds: ["A"] }),
      emailUsage("SPRING", "bob@example.com"),
    ],
  };
  assert.equal(
    refusal(() => holdUse(ledgerOf(read), usageWant("SPRING", "E.ve+again@Gmail.com"), "B", CTX)),
    "The promo code SPRING can be used once per email address, and eve@gmail.com has used it already",
  );
  assert.equal(
    refusal(() => holdUse(ledgerOf(read), usageWant("SPRING", "Ann+2@example.com"), "B", CTX)),
    "The promo code SPRING can be used once per email address, and ann@example.com has a checkout waiting for payment with it",
  );
  assert.equal(holdUse(ledgerOf(read), usageWant("SPRING", "bob@example.com"), "B", CTX), promo);

  // Paying: Ann's held use counts; another order of her mailbox without a hold does not fit.
  const paying = ledgerOf(read);
  assert.equal(countUse(paying, usageWant("SPRING", "ann@example.com"), "C"), false);
  assert.equal(countUse(paying, usageWant("SPRING", "ANN@example.com"), "A"), true);
});

Deno.test("the per-email refusal says how many times a code can be used", () => {
  const read: UsageRead = {
    codes: [codeUsage("SPRING", spring({ maxUsesPerEmail: 2 }))],
    emails: [emailUsage("SPRING", "eve@gmail.com", { uses: 2 })],
  };
  assert.equal(
    refusal(() => holdUse(ledgerOf(read), usageWant("SPRING", "eve@gmail.com"), "A", CTX)),
    "The promo code SPRING can be used twice per email address, and eve@gmail.com has used it already",
  );
  const three: UsageRead = {
    codes: [codeUsage("SPRING", spring({ maxUsesPerEmail: 3 }))],
    emails: [emailUsage("SPRING", "eve@gmail.com", { uses: 3 })],
  };
  assert.match(
    refusal(() => holdUse(ledgerOf(three), usageWant("SPRING", "eve@gmail.com"), "A", CTX)),
    /can be used 3 times per email address/,
  );
});

Deno.test("a per-email code needs the email at checkout, but a preview may leave it for later", () => {
  const read: UsageRead = {
    codes: [codeUsage("SPRING", spring({ maxUsesPerEmail: 1 }))],
    emails: [],
  };
  const want = usageWant("SPRING", null);
  assert.equal(
    refusal(() => holdUse(ledgerOf(read), want, "A", CTX)),
    "Enter your email address to use the promo code SPRING: it can be used once per email address",
  );
  assert.equal(holdUse(ledgerOf(read), want, null, { ...CTX, emailLater: true }).code, "SPRING");
});

Deno.test("holding a use checks the code's terms first", () => {
  const read: UsageRead = {
    codes: [codeUsage("SPRING", spring({ maxUses: 3, endsAt: Date.UTC(2026, 10, 1) }))],
    emails: [],
  };
  assert.equal(
    refusal(() => holdUse(ledgerOf(read), usageWant("SPRING", null), "A", CTX)),
    "The promo code SPRING ended on November 1, 2026",
  );
});

Deno.test("so many waiting checkouts on one code ask the shopper to retry in a minute", () => {
  const holds = Array.from({ length: 2000 }, (_, i) => `H${i}`);
  const read: UsageRead = {
    codes: [codeUsage("SPRING", spring({ maxUses: 10_000 }), { holds })],
    emails: [],
  };
  assert.throws(
    () => holdUse(ledgerOf(read), usageWant("SPRING", null), "A", CTX),
    (e) => e instanceof Unavailable && e.retryAfterSeconds === 60,
  );
});

Deno.test("a payment counts its held use; without a hold it needs a use nobody holds", () => {
  const want = usageWant("SPRING", null);
  const read: UsageRead = {
    codes: [codeUsage("SPRING", spring({ maxUses: 3 }), { uses: 2, holds: ["A"] })],
    emails: [],
  };
  assert.equal(countUse(ledgerOf(read), want, "B"), false);
  assert.equal(countUse(ledgerOf(read), want, "A"), true);
  // The provider's own promotion code is not the shop's to count.
  const unknown: UsageRead = { codes: [codeUsage("STRIPE10", null)], emails: [] };
  assert.equal(countUse(ledgerOf(unknown), usageWant("STRIPE10", null), "A"), true);
});

Deno.test("a paid order's use is counted once however often its write counts it", async () => {
  using kv = await Deno.openKv(":memory:");
  await kv.atomic()
    .set(keys.promo("SPRING"), spring({ maxUses: 2 }))
    .set(keys.promoHolds("SPRING"), ["A", "B"])
    .commit();
  const want = usageWant("SPRING", null);
  const ledger = ledgerOf(await readUsage(kv, [want]));
  assert.equal(countUse(ledger, want, "A"), true);
  assert.equal(countUse(ledger, want, "A"), true);
  const op = kv.atomic();
  writeLedgerInto(op, ledger);
  assert.equal((await op.commit()).ok, true);
  // What the owner sees: one use, and B still holding the other.
  assert.deepEqual(await usageCounts(kv, ["SPRING"]), [{ uses: 1, held: 1 }]);
});

Deno.test("a limit lowered below the held uses lets only as many holders pay as it allows", () => {
  const want = usageWant("SPRING", null);
  // Three checkouts held when the limit was 3; the owner then lowered it to 1.
  const lowered = spring({ maxUses: 1 });
  const first: UsageRead = {
    codes: [codeUsage("SPRING", lowered, { holds: ["A", "B", "C"] })],
    emails: [],
  };
  assert.equal(countUse(ledgerOf(first), want, "A"), true);
  assert.equal(countUse(ledgerOf(first), want, "D"), false, "no hold, and none free");
  assert.equal(refusal(() => holdUse(ledgerOf(first), want, "D", CTX)), RIGHT_NOW);
  // After A's write: B's payment is refused, and a new checkout is told it has run out.
  const after: UsageRead = {
    codes: [codeUsage("SPRING", lowered, { uses: 1, holds: ["B", "C"] })],
    emails: [],
  };
  assert.equal(countUse(ledgerOf(after), want, "B"), false);
  assert.equal(
    refusal(() => holdUse(ledgerOf(after), want, "D", CTX)),
    "The promo code SPRING has no uses left",
  );
});

Deno.test("a payment refused for its per-email use takes nothing from the code", async () => {
  using kv = await Deno.openKv(":memory:");
  await kv.atomic()
    .set(keys.promo("SPRING"), spring({ maxUses: 5, maxUsesPerEmail: 1 }))
    .set(keys.promoEmailUses("SPRING", "eve@gmail.com"), new Deno.KvU64(1n))
    .commit();
  const want = usageWant("SPRING", "eve@gmail.com");
  const ledger = ledgerOf(await readUsage(kv, [want]));
  assert.equal(countUse(ledger, want, "A"), false);
  const op = kv.atomic();
  writeLedgerInto(op, ledger);
  assert.equal((await op.commit()).ok, true);
  assert.deepEqual(await usageCounts(kv, ["SPRING"]), [{ uses: 0, held: 0 }]);
});

Deno.test("limited codes and mailboxes make their writes take turns; unlimited ones do not", () => {
  const read: UsageRead = {
    codes: [
      codeUsage("CAPPED", spring({ code: "CAPPED", maxUses: 5 })),
      codeUsage("PEREMAIL", spring({ code: "PEREMAIL", maxUsesPerEmail: 1 })),
      codeUsage("OPEN", spring({ code: "OPEN" })),
      // The owner lifted the limit while checkouts still hold: they still take turns to give back.
      codeUsage("LIFTED", spring({ code: "LIFTED" }), { holds: ["A"] }),
      codeUsage("STRIPE10", null),
    ],
    emails: [
      emailUsage("PEREMAIL", "eve@gmail.com"),
      emailUsage("OPEN", "eve@gmail.com"),
      emailUsage("CAPPED", "ann@example.com", { holds: ["B"] }),
    ],
  };
  assert.deepEqual(usageClaims(read), [
    "promo:CAPPED",
    "promo:LIFTED",
    "promo:PEREMAIL:eve@gmail.com",
    "promo:CAPPED:ann@example.com",
  ]);
  assert.deepEqual(usageClaims({ codes: [], emails: [] }), []);
});

Deno.test("a ledger's size covers the busiest write it can make", () => {
  assert.deepEqual(ledgerSize(ledgerOf({ codes: [], emails: [] })), { checks: 0, mutations: 0 });
  const read: UsageRead = {
    codes: [codeUsage("SPRING", spring({ maxUses: 5, maxUsesPerEmail: 2 }), { holds: ["A", "B"] })],
    emails: [emailUsage("SPRING", "eve@gmail.com", { holds: ["A", "B"] })],
  };
  const ledger = ledgerOf(read);
  assert.deepEqual(ledgerSize(ledger), { checks: 5, mutations: 4 });

  // The busiest write: a held use counted, so both lines rewrite their holds and add a use.
  assert.equal(countUse(ledger, usageWant("SPRING", "eve@gmail.com"), "A"), true);
  let checks = 0;
  let mutations = 0;
  const op = {
    check(...entries: unknown[]) {
      checks += entries.length;
      return op;
    },
    set() {
      mutations++;
      return op;
    },
    delete() {
      mutations++;
      return op;
    },
    sum() {
      mutations++;
      return op;
    },
  };
  writeLedgerInto(op as unknown as Deno.AtomicOperation, ledger);
  assert.deepEqual({ checks, mutations }, { checks: 5, mutations: 4 });
});
