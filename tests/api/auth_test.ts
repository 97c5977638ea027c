import assert from "node:assert/strict";
import { bearer, createTestApp, FEW_ITERATIONS, type TestApp } from "../helpers/test_app.ts";
import { PASSWORD_MESSAGE } from "../../shared/schemas.ts";
import { USER_IDLE_MS } from "../../server/accounts/users.ts";
import { keys } from "../../server/kv/keys.ts";
import type { User } from "../../server/accounts/users.ts";

const GOOD = { email: "dana@example.com", password: "Sw1tchesRule" };
// The first test signs up at the shop's own hash cost and asserts it; the others test answers,
// tokens and limits around the hash, at the test apps' FEW_ITERATIONS.

async function register(t: TestApp, body: Record<string, unknown> = GOOD) {
  return await t.request("/auth/register", { method: "POST", body });
}

async function login(t: TestApp, body: Record<string, unknown> = GOOD) {
  return await t.request("/auth/login", { method: "POST", body });
}

Deno.test("register, duplicate register (400), login success and failure", async () => {
  await using t = await createTestApp({ realHashCost: true });
  const created = await register(t, { ...GOOD, user_id: "guest-user-id-1234" });
  assert.equal(created.status, 201);
  assert.equal(created.json.userId, "guest-user-id-1234", "the browser's id is kept");
  const user = (await t.kv.get<User>(keys.user("guest-user-id-1234"))).value!;
  assert.notEqual(user.passwordHash, GOOD.password);
  assert.equal(user.iterations, 600_000);
  assert.doesNotMatch(JSON.stringify(user), /Sw1tchesRule/, "no plain password stored");

  const dup = await register(t, { ...GOOD, email: " DANA@example.com " });
  assert.equal(dup.status, 400);
  assert.match(dup.json.error, /already exists/);

  const ok = await login(t);
  assert.equal(ok.status, 200);
  assert.match(ok.json.token, /^[A-Za-z0-9_-]{43}$/, "a 256-bit token");
  assert.equal(ok.json.userId, "guest-user-id-1234");
  const again = await login(t);
  assert.notEqual(again.json.token, ok.json.token, "a new token at each login");

  const wrong = await login(t, { ...GOOD, password: "Wrong1234" });
  const unknown = await login(t, { email: "nobody@example.com", password: "Whatever123" });
  assert.equal(wrong.status, 401);
  assert.equal(unknown.status, 401);
  assert.equal(wrong.json.error, unknown.json.error, "the same answer either way");
});

Deno.test("validation the spec leaves unenforced is enforced, after stripping tags", async () => {
  await using t = await createTestApp();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...GOOD, email: "not-an-email" }, /Please enter a valid email address/],
    [{ ...GOOD, email: "<b>dana</b>" }, /Please enter a valid email address/],
    [{ ...GOOD, password: "short1A" }, new RegExp(PASSWORD_MESSAGE)],
    [{ ...GOOD, password: "alllowercase1" }, new RegExp(PASSWORD_MESSAGE)],
    [{ ...GOOD, password: "ALLUPPERCASE1" }, new RegExp(PASSWORD_MESSAGE)],
    [{ ...GOOD, password: "NoDigitsHere" }, new RegExp(PASSWORD_MESSAGE)],
    [{ ...GOOD, password: "<i>Ab1</i>" }, new RegExp(PASSWORD_MESSAGE)],
    [{ email: GOOD.email }, new RegExp(PASSWORD_MESSAGE)],
  ];
  for (const [body, message] of cases) {
    const res = await register(t, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.match(res.json.error, message);
  }
  const tagged = await register(t, { email: " <b>eve@example.com</b> ", password: " Passw0rdX " });
  assert.equal(tagged.status, 201, "tags stripped and trimmed as on sign-up");
  assert.equal((await login(t, { email: "eve@example.com", password: "Passw0rdX" })).status, 200);
});

Deno.test("the token is required and checked; logout and expiry end it", async () => {
  await using t = await createTestApp();
  await register(t);
  const { token } = (await login(t)).json;
  for (const path of ["/auth/orders", "/auth/me"]) {
    assert.equal((await t.request(path)).status, 401, `${path} without a token`);
    assert.equal((await t.request(path, { headers: bearer("forged") })).status, 401);
    assert.equal((await t.request(path, { headers: bearer(token) })).status, 200);
  }
  const noToken = await t.request("/auth/create-payment-intent", { method: "POST" });
  assert.equal(noToken.status, 401);
  const config = await t.request("/auth/create-payment-intent", {
    method: "POST",
    headers: bearer(token),
  });
  assert.equal(config.status, 200);
  assert.ok("publishableKey" in config.json);

  await t.request("/auth/logout", { method: "POST", headers: bearer(token) });
  assert.equal((await t.request("/auth/me", { headers: bearer(token) })).status, 401);

  const second = (await login(t)).json.token;
  t.clock.advance(USER_IDLE_MS + 1000);
  assert.equal((await t.request("/auth/me", { headers: bearer(second) })).status, 401, "idle");
});

Deno.test("login is rate limited per account and per client", async () => {
  await using t = await createTestApp();
  await register(t);
  for (let i = 0; i < 5; i++) {
    assert.equal((await login(t, { ...GOOD, password: `Wrong${i}abc` })).status, 401);
  }
  const locked = await login(t);
  assert.equal(locked.status, 429, "the account is locked for a while after 5 failures");
  t.clock.advance(15 * 60_000);
  assert.equal((await login(t)).status, 200);
  for (let i = 0; i < 19; i++) await login(t, { email: `x${i}@example.com`, password: "Abcdefg1" });
  assert.equal((await login(t)).status, 429, "20 attempts per client per 10 minutes");
});

Deno.test("register is rate limited per client", async () => {
  await using t = await createTestApp();
  for (let i = 0; i < 10; i++) {
    await register(t, { email: `u${i}@example.com`, password: "Abcdefg1" });
  }
  const res = await register(t, { email: "late@example.com", password: "Abcdefg1" });
  assert.equal(res.status, 429);
});

Deno.test("at login the guest cart joins the user's cart, found again on another device", async () => {
  await using t = await createTestApp();
  await register(t);
  // Device A, signed in: a Layout Tester in the account's cart.
  const a = (await login(t)).json;
  const addA = await t.request("/api/cart/add?itemId=1", {
    method: "POST",
    headers: bearer(a.token),
  });
  // Device B, as a guest: a pack and another Layout Tester.
  const guest = await t.request("/api/cart/add?itemId=384", { method: "POST" });
  await t.request(`/api/cart/add?itemId=1&cartId=${guest.json.id}`, { method: "POST" });
  const b = (await login(t, { ...GOOD, cartId: guest.json.id })).json;
  assert.equal(b.cartId, addA.json.id, "one cart is kept: the account's");
  const cart = (await t.request(`/api/cart/${b.cartId}`)).json;
  const qty = Object.fromEntries(
    cart.items.map((l: { item: { name: string }; quantity: number }) => [l.item.name, l.quantity]),
  );
  assert.deepEqual(qty, { "Layout Tester": 2, "Starter Pack": 1 }, "quantities added");
  // Device C, fresh: logging in finds the same cart.
  const c = (await login(t)).json;
  assert.equal(c.cartId, addA.json.id);
  const guestAfter = (await t.request(`/api/cart/${guest.json.id}`)).json;
  assert.equal(guestAfter.items.length, 0, "the guest lines moved, not copied");
});

Deno.test("a guest cart becomes the account's cart when the account has none", async () => {
  await using t = await createTestApp();
  await register(t);
  const guest = await t.request("/api/cart/add?itemId=384", { method: "POST" });
  const res = (await login(t, { ...GOOD, cartId: guest.json.id })).json;
  assert.equal(res.cartId, guest.json.id);
  assert.equal((await login(t)).json.cartId, guest.json.id, "found again at the next login");
});

Deno.test("a signed-in checkout records the user; /auth/orders lists it", async () => {
  await using t = await createTestApp();
  await register(t);
  const { token } = (await login(t)).json;
  const cart = await t.request("/api/cart/add?itemId=384", {
    method: "POST",
    headers: bearer(token),
  });
  const created = await t.request("/auth/create-payment-intent", {
    method: "POST",
    headers: bearer(token),
    body: {
      cart_data: { cartId: cart.json.id },
      email: GOOD.email,
      name: "Dana",
      address: "1 Main St",
      city: "Austin",
      zipcode: "73301",
    },
  });
  assert.equal(created.status, 200, created.text);
  assert.match(created.json.clientSecret, /_secret_/);
  await t.request(`/api/demo/payment-intents/${created.json.paymentIntentId}/confirm`, {
    method: "POST",
    body: { cardNumber: "4242424242424242" },
  });
  const orders = await t.request("/auth/orders", { headers: bearer(token) });
  assert.equal(orders.json.length, 1);
  assert.equal(orders.json[0].orderNumber, created.json.orderNumber);
  assert.equal(orders.json[0].status, "PAYMENT_RECEIVED");
  const bad = await t.request("/auth/create-payment-intent", {
    method: "POST",
    headers: bearer(token),
    body: {
      cart_data: { cartId: cart.json.id },
      email: "x",
      name: "",
      address: "",
      city: "",
      zipcode: "1",
    },
  });
  assert.equal(bad.status, 400);
});

Deno.test("an app given another hash cost makes new hashes with it; stored ones keep theirs", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    {
      await using shop = await createTestApp({ kv, realHashCost: true });
      assert.equal((await register(shop)).status, 201);
    }
    await using cheap = await createTestApp({ kv, seed: false });
    const other = { email: "lee@example.com", password: "Sw1tchesRule" };
    assert.equal((await register(cheap, other)).status, 201);
    const iterationsOf = async (email: string) => {
      const id = (await kv.get<string>(keys.userByEmail(email))).value!;
      return (await kv.get<User>(keys.user(id))).value!.iterations;
    };
    assert.equal(await iterationsOf(GOOD.email), 600_000, "the shop's own cost");
    assert.equal(await iterationsOf(other.email), FEW_ITERATIONS);
    // Each signs in against its own stored cost, and a wrong password is still refused.
    assert.equal((await login(cheap)).status, 200);
    assert.equal((await login(cheap, other)).status, 200);
    assert.equal((await login(cheap, { ...other, password: "Wrong1234" })).status, 401);
  } finally {
    kv.close();
  }
});
