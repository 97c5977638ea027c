import assert from "node:assert/strict";
import { kvAnswers } from "../../server/kv/probe.ts";
import { checkReadiness } from "../../server/ops/readiness.ts";
import { loadConfig } from "../../server/config.ts";

/** `kv` with some of its methods replaced. */
function withMethods(kv: Deno.Kv, methods: Record<string, unknown>): Deno.Kv {
  return new Proxy(kv, {
    get(target, prop) {
      if (typeof prop === "string" && prop in methods) return methods[prop];
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

Deno.test("kvAnswers: a store that reads and commits answers", async () => {
  using kv = await Deno.openKv(":memory:");
  assert.equal(await kvAnswers(kv), true);
});

Deno.test("kvAnswers: a failed read, a refused check or a store that never answers does not", async () => {
  using kv = await Deno.openKv(":memory:");
  const failedRead = withMethods(kv, { get: () => Promise.reject(new Error("gone")) });
  assert.equal(await kvAnswers(failedRead), false);
  const refused = withMethods(kv, {
    atomic: () => ({ check: () => ({ commit: () => Promise.resolve({ ok: false }) }) }),
  });
  assert.equal(await kvAnswers(refused), false);
  const hung = withMethods(kv, { get: () => new Promise(() => {}) });
  assert.equal(await kvAnswers(hung, 1), false);
});

Deno.test("checkReadiness names every check that failed in one sentence", async () => {
  using kv = await Deno.openKv(":memory:");
  const config = loadConfig({ ADMIN_PASSWORD: "a-long-admin-password", DIST_DIR: "/no-dist" });
  const result = await checkReadiness({ kv, config, queue: { running: () => false } });
  assert.deepEqual(result, {
    ready: false,
    checks: { kv: true, queue: false, client: false },
    error: "The shop is not ready: the job runner is not running; " +
      "the client is not built (run deno task build).",
  });
});
