/**
 * What a page or a link preview costs is what it is worth, not what its URL says: parameters no
 * page reads never make a new render, and one client asking for new renders faster than a
 * shopper would is served what is kept or the app for the browser to render (pages) or refused
 * with 429 (previews), while other clients and the health route still answer. Clients send from their own loopback addresses to a server on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/test_app.ts";
import { builtClient } from "../helpers/shop_process.ts";
import { gunzipSync } from "node:zlib";

/** How many pages (or previews) the server rendered, from its log. */
function renders(t: TestApp, msg = "page rendered"): number {
  return t.logs.filter((entry) => entry.msg === msg).length;
}

/** The app served on 127.0.0.1 port 0, with a client for each loopback address asked for. */
function served(t: TestApp) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => t.app.fetch(req, info),
  );
  const clients = new Map<string, Deno.HttpClient>();
  const base = `http://127.0.0.1:${server.addr.port}`;
  return {
    /** A GET from `address`, answered as status, headers and bytes. */
    async get(path: string, address: string) {
      let client = clients.get(address);
      if (!client) {
        client = Deno.createHttpClient({ localAddress: address });
        clients.set(address, client);
      }
      // Typed apart from the call: the DOM lib's fetch overload has no `client` for a literal.
      const init: RequestInit & { client: Deno.HttpClient } = { client };
      const res = await fetch(`${base}${path}`, init);
      return { status: res.status, headers: res.headers, bytes: await res.bytes() };
    },
    async [Symbol.asyncDispose]() {
      for (const client of clients.values()) client.close();
      await server.shutdown();
    },
  };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("parameters no page reads are served the kept page: the same bytes, no new render", async () => {
  await using t = await createTestApp({ env: { DIST_DIR: await builtClient() } });
  const first = await t.request("/testers/custom?u=1");
  assert.equal(first.status, 200);
  for (
    const url of ["/testers/custom?u=2", "/testers/custom?utm_source=x&u=3", "/testers/custom/"]
  ) {
    const res = await t.request(url);
    assert.equal(res.status, 200, url);
    assert.equal(res.text, first.text, `${url} is the page already made`);
  }
  assert.equal(renders(t), 1, "one render, none for parameters the page never reads");

  // A build link is read by the page: it is a page of its own, whatever the order of its
  // parameters or what else comes with them.
  const build = await t.request("/testers/custom?switches=1,2&keycaps=none&u=4");
  assert.notEqual(build.text, first.text);
  assert.equal(renders(t), 2);
  const reordered = await t.request("/testers/custom?keycaps=none&x=5&switches=1,2");
  assert.equal(reordered.text, build.text);
  assert.equal(renders(t), 2);

  // Any path the shop has no page for is the one not-found page.
  const missing = await t.request("/no-such-page-1");
  assert.equal(missing.status, 404);
  assert.equal((await t.request("/no-such-page-2?u=6")).text, missing.text);
  assert.equal(renders(t), 3);
});

Deno.test("a client past its render budget gets kept pages or the app unrendered, while others' pages and health answer", async () => {
  await using t = await createTestApp({
    env: { DIST_DIR: await builtClient(), PAGE_RENDERS_PER_MINUTE: "5" },
    queue: { running: () => true },
  });
  await using shop = served(t);
  const attacker = "127.0.0.2";
  const burst = await Promise.all(
    Array.from({ length: 12 }, (_, i) => shop.get(`/testers/fidget-cube?switches=${i}`, attacker)),
  );
  // Everyone behind the address (a carrier's NAT, an office) still gets a working page: past the
  // budget it is the app, which the browser renders, and the server renders nothing more.
  assert.deepEqual(burst.map((r) => r.status), Array(12).fill(200));
  assert.equal(renders(t), 5, "only the budget was rendered");
  const onServer = burst.filter((r) => /<div id="root"><[a-z]/.test(text(r.bytes)));
  const inBrowser = burst.filter((r) => /<div id="root"><\/div>/.test(text(r.bytes)));
  assert.equal(onServer.length, 5);
  assert.equal(inBrowser.length, 7);
  for (const shell of inBrowser) {
    assert.match(
      text(shell.bytes),
      /<script data-scripts="\/assets\/main-[^"]+\.js/,
      "its code loads",
    );
    assert.match(text(shell.bytes), /<title>Custom fidget cube \| /);
    assert.equal(shell.headers.get("retry-after"), null);
  }

  // What is kept is still served whole to the same client, past its budget.
  const kept = burst.findIndex((r) => /<div id="root"><[a-z]/.test(text(r.bytes)));
  const again = await shop.get(`/testers/fidget-cube?switches=${kept}`, attacker);
  assert.equal(again.status, 200);
  assert.equal(text(again.bytes), text(burst[kept].bytes));
  const past = await shop.get("/testers/fidget-cube?switches=99", attacker);
  assert.equal(past.status, 200);
  assert.match(text(past.bytes), /<div id="root"><\/div>/);
  assert.equal(renders(t), 5);

  // Another client renders a page of its own, and the health route answers.
  const shopper = await shop.get("/testers/fidget-cube?switches=99", "127.0.0.3");
  assert.equal(shopper.status, 200);
  assert.match(text(shopper.bytes), /Custom Fidget Cube/);
  assert.equal((await shop.get("/api/health", attacker)).status, 200);
  // Readiness is no page: a client past its page budget (a load balancer behind one address
  // with the shoppers) still gets the real answer.
  assert.equal((await shop.get("/api/ready", attacker)).status, 200);

  // The budget comes back with time.
  t.clock.advance(60_000);
  const later = await shop.get("/testers/fidget-cube?switches=100", attacker);
  assert.match(text(later.bytes), /<div id="root"><[a-z]/);
  assert.equal(renders(t), 7);
});

Deno.test("a HEAD renders nothing and spends no budget; a page is kept even if its reader left", async () => {
  await using t = await createTestApp({
    env: { DIST_DIR: await builtClient(), PAGE_RENDERS_PER_MINUTE: "3" },
  });
  for (let i = 0; i < 4; i++) {
    const head = await t.app.request("/faq", { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.match(head.headers.get("content-type") ?? "", /text\/html/);
    assert.equal(head.body, null);
  }
  assert.equal(renders(t), 0, "no HEAD rendered a page");
  const faq = await t.request("/faq");
  assert.equal(faq.status, 200);
  assert.match(faq.text, /<div id="root"><[a-z]/, "rendered: the budget was not spent by HEADs");
  assert.equal(renders(t), 1);
  assert.equal((await t.app.request("/faq", { method: "HEAD" })).status, 200);
  assert.equal((await t.app.request("/no-such-page", { method: "HEAD" })).status, 404);
  assert.equal(renders(t), 1);

  // A reader that leaves after the head: the page it made is still kept.
  const left = await t.app.request("/testers/custom?switches=6");
  const reader = left.body!.getReader();
  await reader.read();
  await reader.cancel();
  // Waits for the renderer (a worker) to finish its work, not for time to pass: bounded.
  for (let i = 0; i < 500 && renders(t) < 2; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(renders(t), 2, "the page was rendered and kept");
  const whole = await t.request("/testers/custom?switches=6");
  assert.match(whole.text, /<div id="root"><[a-z]/);
  assert.equal(renders(t), 2, "served from what was kept");
});

Deno.test("a client taking only brotli gets the kept page as it is, not compressed again", async () => {
  await using t = await createTestApp({ env: { DIST_DIR: await builtClient() } });
  const plain = await t.request("/faq");
  for (let i = 0; i < 3; i++) {
    const res = await t.app.request("/faq", { headers: { "Accept-Encoding": "br" } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-encoding"), null, "no brotli made per request");
    assert.equal(await res.text(), plain.text);
  }
  const gzip = await t.app.request("/faq", { headers: { "Accept-Encoding": "gzip, br" } });
  assert.equal(gzip.headers.get("content-encoding"), "gzip", "the kept bytes as they are");
  assert.equal(gunzipSync(await gzip.bytes()).toString(), plain.text);
  assert.equal(renders(t), 1);
});

Deno.test("a page path past 2 KB is refused with 414 before any page is looked up", async () => {
  await using t = await createTestApp({ env: { DIST_DIR: await builtClient() } });
  const slashes = await t.request(`/${"/".repeat(50_000)}x`);
  assert.equal(slashes.status, 414);
  assert.match(slashes.json.error, /too long/);
  const long = await t.request(`/order/track/${"A".repeat(3_000)}`, {
    headers: { Accept: "text/html" },
  });
  assert.equal(long.status, 414);
  assert.match(long.text, /<h1>Address too long<\/h1>/);
  assert.equal(renders(t), 0);
  assert.equal((await t.request(`/order/track/${"A".repeat(1_000)}`)).status, 200);
});

Deno.test("a build preview asked with parameters it does not read is the kept picture", async () => {
  await using t = await createTestApp();
  const first = await t.request("/images/build.png?kind=tester&size=10&switches=101,102,103&u=1");
  assert.equal(first.status, 200);
  assert.equal(renders(t, "preview rendered"), 1);
  for (
    const query of [
      "switches=101,102,103&kind=tester&size=10&u=2",
      "kind=tester&size=10&switches=101,102,103,999999&x=3",
      "kind=tester&switches=101,102,103&size=10&size=10",
    ]
  ) {
    const res = await t.request(`/images/build.png?${query}`);
    assert.equal(res.status, 200, query);
    assert.equal(res.text, first.text, query);
  }
  assert.equal(renders(t, "preview rendered"), 1, "one render for one build");
  const other = await t.request("/images/build.png?kind=tester&size=10&switches=101,102,104");
  assert.notEqual(other.text, first.text, "another build is another picture");
  assert.equal(renders(t, "preview rendered"), 2);
  await t.request("/images/build.png?kind=cube&body=white&u=1");
  await t.request("/images/build.png?kind=cube&u=2&body=white");
  assert.equal(renders(t, "preview rendered"), 3);
});

Deno.test("a client past its preview budget gets 429, while others' previews and health answer", async () => {
  await using t = await createTestApp({ env: { PREVIEW_RENDERS_PER_MINUTE: "3" } });
  await using shop = served(t);
  const attacker = "127.0.0.4";
  const burst = await Promise.all(
    Array.from(
      { length: 8 },
      (_, i) => shop.get(`/images/build.png?kind=tester&switches=${101 + i}`, attacker),
    ),
  );
  assert.deepEqual(burst.map((r) => r.status).sort(), [200, 200, 200, 429, 429, 429, 429, 429]);
  assert.equal(renders(t, "preview rendered"), 3);
  const refused = burst.find((r) => r.status === 429)!;
  assert.ok(Number(refused.headers.get("retry-after")) >= 1);
  assert.match(JSON.parse(text(refused.bytes)).error, /Too many new previews/);
  // A kept picture is still served to it; another client gets a new one; health answers.
  assert.equal(
    (await shop.get("/images/build.png?kind=tester&switches=101", attacker)).status,
    200,
  );
  const other = await shop.get("/images/build.png?kind=tester&switches=150", "127.0.0.5");
  assert.equal(other.status, 200);
  assert.equal(other.headers.get("content-type"), "image/png");
  assert.equal((await shop.get("/api/health", "127.0.0.5")).status, 200);
});

Deno.test("past the shop-wide render budget, a new page comes for the browser to render", async () => {
  await using t = await createTestApp({
    env: { DIST_DIR: await builtClient(), SHOP_PAGE_RENDERS_PER_MINUTE: "2" },
  });
  const answers = [];
  for (let i = 0; i < 3; i++) {
    answers.push(
      await t.request(`/testers/fidget-cube?switches=${i}`, { client: `203.0.113.${i}` }),
    );
  }
  assert.deepEqual(answers.map((a) => a.status), [200, 200, 200]);
  assert.equal(renders(t), 2);
  assert.match(answers[0].text, /<div id="root"><[a-z]/, "rendered on the server");
  assert.match(answers[2].text, /<div id="root"><\/div>/, "left to the browser: still the app");
  assert.match(answers[2].text, /<noscript>/);
  // A kept page is still sent whole.
  const kept = await t.request("/testers/fidget-cube?switches=0", { client: "203.0.113.9" });
  assert.equal(kept.text, answers[0].text);
});

Deno.test("past the shop-wide preview budget, a new preview is refused with 503 for a while", async () => {
  await using t = await createTestApp({ env: { SHOP_PREVIEW_RENDERS_PER_MINUTE: "2" } });
  const statuses = [];
  for (let i = 0; i < 3; i++) {
    const res = await t.request(`/images/build.png?kind=tester&switches=${101 + i}`, {
      client: `203.0.113.${i}`,
    });
    statuses.push(res.status);
    if (res.status === 503) assert.ok(Number(res.headers.get("retry-after")) >= 1);
  }
  assert.deepEqual(statuses, [200, 200, 503]);
  t.clock.advance(30_000);
  const later = await t.request("/images/build.png?kind=tester&switches=103", {
    client: "203.0.113.2",
  });
  assert.equal(later.status, 200);
});
