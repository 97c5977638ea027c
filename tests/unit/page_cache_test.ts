/**
 * Rendered pages kept (server/ssr/page_cache.ts): gzipped once, served for the same answers, and
 * never more bytes than the bound, however many distinct pages are asked for.
 */
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { createPageCache } from "../../server/ssr/page_cache.ts";

/** A page of about 60 KB that compresses about as badly as a real one can. */
function page(n: number): string {
  let html = `<!doctype html><p>page ${n}</p>`;
  for (let i = 0; html.length < 60_000; i++) html += `<li>${(n * 7919 + i * 104729) % 99991}</li>`;
  return html;
}

Deno.test("a kept page is found by the answers it was made from, gzipped", async () => {
  const cache = createPageCache(1024 * 1024);
  const answers: Record<string, unknown> = { "/api/a": { price: 1 } };
  const answer = (path: string) => Promise.resolve(answers[path]);
  assert.equal(await cache.keyFor("o", "/x", answer), null, "never rendered");
  cache.remember("o", "/x", ["/api/a"], [answers["/api/a"]], page(1));
  const key = (await cache.keyFor("o", "/x", answer))!;
  assert.equal(gunzipSync(cache.get(key)!).toString(), page(1));
  answers["/api/a"] = { price: 2 };
  const changed = (await cache.keyFor("o", "/x", answer))!;
  assert.equal(cache.get(changed), null, "a changed answer is a page not made yet");
});

Deno.test("the kept bytes stay under their bound after many distinct pages", async () => {
  const bound = 256 * 1024;
  const cache = createPageCache(bound);
  const none = () => Promise.resolve(undefined);
  for (let n = 0; n < 300; n++) {
    cache.remember("o", `/p${n}`, [], [], page(n));
    assert.ok(cache.bytes() <= bound, `${cache.bytes()} bytes after ${n + 1} pages`);
  }
  assert.ok(cache.bytes() > bound / 2, "the bound is used, not left empty");
  const last = cache.get((await cache.keyFor("o", "/p299", none))!);
  assert.equal(gunzipSync(last!).toString(), page(299), "the newest page is kept");
  assert.equal(cache.get((await cache.keyFor("o", "/p0", none))!), null, "the oldest went");
});

Deno.test("the URLs and reads remembered count against the bound, and a URL past 2 KB is not kept", async () => {
  const bound = 256 * 1024;
  const cache = createPageCache(bound);
  const none = () => Promise.resolve(undefined);
  const long = "9,".repeat(1_000);
  const url = (n: number) => `/testers/custom?switches=${n},${long}`;
  const read = (n: number) => `/api/builds?switches=${n},${long}`;
  const count = 2_000;
  for (let n = 0; n < count; n++) {
    cache.remember("o", url(n), [read(n)], [n], `<p>${n}</p>`);
    assert.ok(cache.bytes() <= bound, `${cache.bytes()} bytes after ${n + 1} URLs`);
  }
  let remembered = 0;
  for (let n = 0; n < count; n++) {
    if (await cache.keyFor("o", url(n), none) !== null) remembered++;
  }
  const each = url(0).length + read(0).length;
  assert.ok(remembered > 0, "the newest are remembered");
  assert.ok(
    remembered * each <= bound,
    `${remembered} URLs of ${each} characters remembered, beyond a bound of ${bound} bytes`,
  );

  const tooLong = `/testers/custom?switches=${"1,".repeat(1_100)}`;
  cache.remember("o", tooLong, [], [], page(1));
  assert.equal(await cache.keyFor("o", tooLong, none), null, "served once, never kept");
});
