import assert from "node:assert/strict";
import { createTestApp, PRODUCTION } from "../helpers/test_app.ts";

Deno.test("GET /api/health answers ok as JSON with a request id", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/health");
  assert.equal(res.status, 200);
  assert.equal(res.json.ok, true);
  assert.ok(res.headers.get("x-request-id"));
});

Deno.test("an unknown /api path answers 404 JSON naming the route", async () => {
  await using t = await createTestApp();
  for (const [method, path] of [["GET", "/api/nope"], ["POST", "/api/cart/x/y/z/w"]]) {
    const res = await t.request(path, { method });
    assert.equal(res.status, 404);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    assert.equal(res.json.error, `No API route ${method} ${path}`);
  }
});

Deno.test("every response carries security headers with a strict CSP", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/health");
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /object-src 'none'/);
  assert.match(csp, /base-uri 'none'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp.match(/script-src[^;]*/)?.[0] ?? "", /unsafe-inline/);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  assert.equal(res.headers.get("strict-transport-security"), null, "no HSTS outside production");
});

Deno.test("production sends HSTS of at least a year", async () => {
  await using t = await createTestApp({ env: PRODUCTION });
  const res = await t.request("/api/health");
  const maxAge = Number(res.headers.get("strict-transport-security")?.match(/max-age=(\d+)/)?.[1]);
  assert.ok(maxAge >= 31536000);
});

Deno.test("a body over the limit is refused with 413 JSON", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/health", {
    method: "POST",
    body: JSON.stringify({ pad: "x".repeat(200_000) }),
    headers: { "Content-Type": "application/json" },
  });
  assert.equal(res.status, 413);
  assert.match(res.json.error, /larger than 64 KB/);
});

Deno.test("pages answer 503 with a hint when the client is not built", async () => {
  await using t = await createTestApp();
  const res = await t.request("/shop");
  assert.equal(res.status, 503);
  assert.match(res.text, /deno task build/);
});
