import assert from "node:assert/strict";
import { createTestApp, fakeDist, snapshot } from "../helpers/test_app.ts";
import { builtClient } from "../helpers/shop_process.ts";
import { startQueueWorker } from "../../server/queue.ts";

/** A job runner that runs, as the shop's own does once started. */
const RUNNING = { running: () => true };

/**
 * An in-memory KV that stops answering when `broken` is set: every read and atomic write fails,
 * as a remote KV whose server is unreachable does.
 */
async function breakableKv() {
  const real = await Deno.openKv(":memory:");
  const state = { broken: false };
  const kv = new Proxy(real, {
    get(target, prop) {
      if (state.broken && ["get", "getMany", "list"].includes(String(prop))) {
        return () => Promise.reject(new Error("KV unreachable"));
      }
      if (state.broken && prop === "atomic") {
        return () => {
          throw new Error("KV unreachable");
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv, state, [Symbol.dispose]: () => real.close() };
}

Deno.test("GET /api/health answers live without touching the store", async () => {
  using store = await breakableKv();
  await using t = await createTestApp({ kv: store.kv });
  store.state.broken = true;
  const res = await t.request("/api/health");
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.ok, true);
  assert.equal(res.headers.get("cache-control"), "no-store");
});

Deno.test("GET /api/ready answers 200 with every check when the shop can serve", async () => {
  await using t = await createTestApp({
    env: { DIST_DIR: await fakeDist() },
    queue: RUNNING,
  });
  const res = await t.request("/api/ready");
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.json, { ready: true, checks: { kv: true, queue: true, client: true } });
  assert.equal(res.headers.get("cache-control"), "no-store");
});

Deno.test("GET /api/ready leaves the store as it was, however often it is asked", async () => {
  await using t = await createTestApp({ env: { DIST_DIR: await fakeDist() }, queue: RUNNING });
  const before = await snapshot(t.kv);
  for (let i = 0; i < 5; i++) assert.equal((await t.request("/api/ready")).status, 200);
  assert.deepEqual(await snapshot(t.kv), before);
});

Deno.test("GET /api/ready answers 503 naming the store when KV does not answer", async () => {
  using store = await breakableKv();
  await using t = await createTestApp({
    kv: store.kv,
    env: { DIST_DIR: await fakeDist() },
    queue: RUNNING,
  });
  store.state.broken = true;
  const res = await t.request("/api/ready");
  assert.equal(res.status, 503, res.text);
  assert.equal(res.json.ready, false);
  assert.deepEqual(res.json.checks, { kv: false, queue: true, client: true });
  assert.match(res.json.error, /store/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  // The liveness check still answers: the process is up, only the store is not.
  assert.equal((await t.request("/api/health")).status, 200);
});

Deno.test("GET /api/ready answers 503 when the KV has been closed", async () => {
  const kv = await Deno.openKv(":memory:");
  await using t = await createTestApp({ kv, env: { DIST_DIR: await fakeDist() }, queue: RUNNING });
  kv.close();
  const res = await t.request("/api/ready");
  assert.equal(res.status, 503, res.text);
  assert.equal(res.json.checks.kv, false);
});

Deno.test("GET /api/ready answers 503 naming the client when dist has no index", async () => {
  await using t = await createTestApp({ env: { DIST_DIR: "/nonexistent-dist" }, queue: RUNNING });
  const res = await t.request("/api/ready");
  assert.equal(res.status, 503, res.text);
  assert.deepEqual(res.json.checks, { kv: true, queue: true, client: false });
  assert.match(res.json.error, /deno task build/);
});

Deno.test("GET /api/ready answers 503 while the job runner does not run", async () => {
  await using t = await createTestApp({ env: { DIST_DIR: await fakeDist() } });
  const res = await t.request("/api/ready");
  assert.equal(res.status, 503, res.text);
  assert.deepEqual(res.json.checks, { kv: true, queue: false, client: true });
  assert.match(res.json.error, /job runner/);
});

Deno.test("the queue worker says it runs from its start until it is stopped", async () => {
  await using t = await createTestApp();
  // A store of its own, since stopping the worker closes it.
  const kv = await Deno.openKv(":memory:");
  const worker = startQueueWorker({ ...t, kv });
  assert.equal(worker.running(), true);
  await worker.stop();
  assert.equal(worker.running(), false);
  await assert.rejects(() => kv.get(["x"]), "the store is closed");
});

Deno.test("every request is logged once with its request id: pages, assets, images and API", async () => {
  await using t = await createTestApp({ env: { DIST_DIR: await builtClient() } });
  const asset = (await t.request("/")).text.match(/\/assets\/[^"]+\.js/)?.[0];
  assert.ok(asset, "the page names its script");
  t.logs.length = 0;
  const paths = ["/shop", asset, "/assets/missing-XYZ.js", "/api/switches", "/images/nope.svg"];
  const answers = new Map<string, { status: number; id: string | null }>();
  for (const path of paths) {
    const res = await t.request(path);
    answers.set(path, { status: res.status, id: res.headers.get("x-request-id") });
  }
  for (const path of paths) {
    const lines = t.logs.filter((l) => l.msg === "request" && l.path === path);
    assert.equal(lines.length, 1, `${path}: ${JSON.stringify(lines)}`);
    const { status, id } = answers.get(path)!;
    assert.ok(id, `${path} answers with a request id`);
    assert.equal(lines[0].requestId, id, path);
    assert.equal(lines[0].status, status, path);
  }
  assert.equal(answers.get("/assets/missing-XYZ.js")!.status, 404);
});

Deno.test("LOG_REQUESTS=0 logs no request, pages included", async () => {
  await using t = await createTestApp({ env: { DIST_DIR: await fakeDist(), LOG_REQUESTS: "0" } });
  await t.request("/shop");
  await t.request("/assets/main-TEST.js");
  await t.request("/api/health");
  assert.deepEqual(t.logs.filter((l) => l.msg === "request"), []);
});

Deno.test("in dev, the API reads of a rendered page carry the page's request id", async () => {
  await using t = await createTestApp({
    env: { DIST_DIR: await builtClient(), SHOP_DEV_RELOAD: "1" },
  });
  const res = await t.request("/shop");
  const reads = t.logs.filter((l) => l.msg === "request" && String(l.path).startsWith("/api/"));
  assert.ok(reads.length > 0, "the page read the API");
  const page = t.logs.find((l) => l.msg === "request" && l.path === "/shop");
  for (const read of reads) assert.equal(read.requestId, page?.requestId, JSON.stringify(read));
  assert.equal(res.headers.get("x-request-id"), page?.requestId, "the page names its id");
});
