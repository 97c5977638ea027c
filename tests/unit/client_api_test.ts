/**
 * The client's fetch wrapper (client/app/api.ts) with a stubbed fetch: failures become ApiError
 * with the server's words, offline becomes a readable message, and the shopper's token goes only
 * where the server needs to know who is asking.
 */
import assert from "node:assert/strict";
import { api, ApiError, errorMessage } from "../../client/app/api.ts";
import { useStore } from "../../client/app/store/store.ts";
import { json, stubFetch, stubLocation } from "./client_stubs.ts";

/** Runs `fn` with a page origin and the given fetch, then puts both back. */
async function withFetch(
  answer: Parameters<typeof stubFetch>[0],
  fn: (requests: ReturnType<typeof stubFetch>["requests"]) => Promise<void>,
): Promise<void> {
  const restoreLocation = stubLocation();
  const { requests, restore } = stubFetch(answer);
  try {
    await fn(requests);
  } finally {
    restore();
    restoreLocation();
    useStore.setState({ token: null });
  }
}

Deno.test("api() answers the parsed JSON and sends a JSON body with its content type", async () => {
  await withFetch(() => json({ ok: true, n: 3 }), async (requests) => {
    const answer = await api<{ n: number }>("/api/promo/validate", {
      method: "POST",
      body: { code: "X" },
      query: { a: 1, skip: null },
    });
    assert.equal(answer.n, 3);
    assert.equal(requests[0].url, "http://shop.test/api/promo/validate?a=1");
    assert.equal(requests[0].method, "POST");
    assert.equal(requests[0].headers.get("Content-Type"), "application/json");
    assert.deepEqual(requests[0].body, { code: "X" });
  });
});

Deno.test("an { error } body becomes an ApiError with the status and the server's message", async () => {
  await withFetch(() => json({ error: "The promo code NOPE is not valid" }, 400), async () => {
    const err = await api("/api/promo/validate").catch((e) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 400);
    assert.equal(err.message, "The promo code NOPE is not valid");
    assert.deepEqual(err.body, { error: "The promo code NOPE is not valid" });
    // A refusal's words are meant for the shopper.
    assert.equal(errorMessage(err, "fallback"), "The promo code NOPE is not valid");
  });
});

Deno.test("a failure without { error } names its status, and a 5xx is not shown as is", async () => {
  await withFetch(() => new Response("<html>Bad gateway</html>", { status: 502 }), async () => {
    const err = await api("/api/products").catch((e) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 502);
    assert.equal(err.message, "HTTP error status 502");
    assert.equal(errorMessage(err, "Something went wrong"), "Something went wrong");
  });
});

Deno.test("a network failure becomes the readable 'Cannot reach the shop' error", async () => {
  await withFetch(() => {
    throw new TypeError("Failed to fetch");
  }, async () => {
    const err = await api("/api/products").catch((e) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 0);
    assert.match(err.message, /^Cannot reach the shop\. Check your connection/);
  });
});

Deno.test("an aborted call rejects with the AbortError, not a connection message", async () => {
  await withFetch(() => {
    throw new DOMException("The signal has been aborted", "AbortError");
  }, async () => {
    const err = await api("/api/products").then(() => null, (e: Error) => e);
    assert.equal(err?.name, "AbortError");
    assert.ok(!(err instanceof ApiError));
  });
});

Deno.test("the shopper's token goes only to the paths that need it", async () => {
  await withFetch(() => json({}), async (requests) => {
    useStore.setState({ token: "tok-123" });
    const paths = [
      "/api/cart/add",
      "/api/cart/add/tester",
      "/api/orders/create",
      "/api/stock-alerts",
      "/auth/orders",
      "/api/products",
      "/api/cart/abc",
      "/api/orders/ABC123",
      "/api/promo/validate",
    ];
    for (const path of paths) await api(path);
    const sent = requests.map((r) => [new URL(r.url).pathname, r.headers.get("Authorization")]);
    assert.deepEqual(sent, [
      ["/api/cart/add", "Bearer tok-123"],
      ["/api/cart/add/tester", "Bearer tok-123"],
      ["/api/orders/create", "Bearer tok-123"],
      ["/api/stock-alerts", "Bearer tok-123"],
      ["/auth/orders", "Bearer tok-123"],
      ["/api/products", null],
      ["/api/cart/abc", null],
      ["/api/orders/ABC123", null],
      ["/api/promo/validate", null],
    ]);
  });
});

Deno.test("signed out, no path gets an Authorization header; an explicit one wins", async () => {
  await withFetch(() => json({}), async (requests) => {
    await api("/auth/orders");
    assert.equal(requests[0].headers.get("Authorization"), null);
    useStore.setState({ token: "tok-123" });
    await api("/auth/orders", { headers: { Authorization: "Bearer other" } });
    assert.equal(requests[1].headers.get("Authorization"), "Bearer other");
  });
});

Deno.test("as: text and as: blob read a successful answer as asked; failures stay ApiError", async () => {
  await withFetch(
    (r) =>
      r.url.endsWith("/bad")
        ? json({ error: "Your admin session has ended" }, 401)
        : new Response("pong", { status: 200 }),
    async () => {
      assert.equal(await api<string>("/api/test/ping", { as: "text" }), "pong");
      const blob = await api<Blob>("/api/admin/orders/new/csv", { as: "blob" });
      assert.equal(await blob.text(), "pong");
      const err = await api("/bad", { as: "text" }).catch((e) => e);
      assert.ok(err instanceof ApiError);
      assert.equal(err.status, 401);
    },
  );
});
