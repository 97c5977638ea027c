/**
 * The URL a page is rendered and kept for (shared/page_url.ts): its path and the parameters it
 * reads, sorted, each once; and the list of what each page reads is checked against the pages'
 * own code, so a page that starts reading a new parameter cannot be served a page kept for
 * another value of it.
 */
import assert from "node:assert/strict";
import { NOT_FOUND_URL, pageUrl } from "../../shared/page_url.ts";
import { findPage, PAGES } from "../../shared/routes.ts";
import { BUILD_LINK_PARAMS } from "../../shared/build_link.ts";

Deno.test("parameters no page reads are dropped, the rest sorted and kept once", () => {
  assert.equal(pageUrl("/testers/custom", "?u=1&utm_source=mail"), "/testers/custom");
  assert.equal(pageUrl("/testers/custom", ""), "/testers/custom");
  assert.equal(
    pageUrl("/testers/custom", "?switches=1,2&u=9&size=15&keycaps=none"),
    "/testers/custom?keycaps=none&size=15&switches=1%2C2",
  );
  assert.equal(
    pageUrl("/testers/custom", "?size=15&size=20"),
    "/testers/custom?size=15",
    "the first value, as the page reads it",
  );
  assert.equal(pageUrl("/testers/custom", "?switches="), "/testers/custom?switches=");
  assert.equal(pageUrl("/shop", "?switches=1"), "/shop", "the shop page reads no build");
  assert.equal(pageUrl("/faq", "?a=1&b=2"), "/faq");
});

Deno.test("a path is the page's: trailing slashes dropped, its own part kept", () => {
  assert.equal(pageUrl("/shop/", ""), "/shop");
  assert.equal(pageUrl("/shop///", "?x=1"), "/shop");
  assert.equal(pageUrl("/", "?x=1"), "/");
  assert.equal(pageUrl("/order/track/ABC-123/", "?order=X&u=1"), "/order/track/ABC-123?order=X");
});

Deno.test("a path of thousands of slashes is matched in one pass, not backtracked over", () => {
  const slashes = "/".repeat(50_000);
  for (const path of [`${slashes}x`, `/shop${slashes}x`, `/shop${slashes}`]) {
    // A generous bound for a pure function: trimming by a backtracking pattern took seconds.
    const started = performance.now();
    findPage(path);
    pageUrl(path, "");
    const ms = performance.now() - started;
    assert.ok(ms < 100, `${ms} ms for ${path.length} characters`);
  }
  assert.equal(pageUrl(`${slashes}x`, ""), NOT_FOUND_URL);
  assert.equal(pageUrl(`/shop${slashes}`, ""), "/shop");
});

Deno.test("the browser router's variants of a page's path are that page, written the shop's way", () => {
  // The browser's router matches paths ignoring case and after decoding them: the server must
  // see the same page, under the one URL the shop writes for it.
  assert.equal(pageUrl("/SHOP", ""), "/shop");
  assert.equal(pageUrl("/Testers/Custom", "?switches=1&u=2"), "/testers/custom?switches=1");
  assert.equal(pageUrl("/te%73ters/%63ustom", ""), "/testers/custom");
  assert.equal(findPage("/te%73ters/%63ustom")?.path, "/testers/custom");
  assert.equal(findPage("/FAQ/")?.path, "/faq");
  assert.equal(pageUrl("/ORDER/Track/AbC-1", ""), "/order/track/AbC-1", "a number keeps its case");
  assert.equal(pageUrl("/order/track/A%20B", ""), "/order/track/A%20B", "and its encoding");
  assert.equal(pageUrl("/%E0%A4%A", ""), NOT_FOUND_URL, "a malformed escape is no page");
  assert.equal(pageUrl("/shop%2Fx", ""), NOT_FOUND_URL, "an encoded slash joins no segments");
});

Deno.test("every path without a page is one not-found page", () => {
  assert.equal(pageUrl("/no-such-page", "?x=1"), NOT_FOUND_URL);
  assert.equal(pageUrl("/testers/custom/extra", ""), NOT_FOUND_URL);
  assert.equal(findPage(NOT_FOUND_URL), undefined, "it is no page of the shop's");
});

/** The query parameters a client file reads by name. */
function paramsRead(source: string): string[] {
  const names = [...source.matchAll(/\b\w*[pP]arams\.(?:get|has|getAll)\(\s*"([^"]+)"/g)]
    .map((m) => m[1]);
  if (/\breadBuildLink\(/.test(source)) names.push(...BUILD_LINK_PARAMS);
  return names;
}

async function clientFiles(dir: URL, found: string[] = []): Promise<string[]> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) await clientFiles(url, found);
    else if (/\.tsx?$/.test(entry.name)) found.push(url.pathname);
  }
  return found;
}

Deno.test("every parameter a page's code reads is on its page's list", async () => {
  const root = new URL("../../client/", import.meta.url);
  const readers: string[] = [];
  for (const path of await clientFiles(root)) {
    const relative = path.slice(root.pathname.length);
    // How pages compare their URL, and how the API client writes one: neither reads a page's.
    if (relative === "app/page_data.ts" || relative === "app/api.ts") continue;
    const source = await Deno.readTextFile(path);
    if (!/useSearchParams|location\.search|searchParams/.test(source)) continue;
    readers.push(relative);
    const module = relative.replace(/^features\//, "");
    const pages = PAGES.filter((p) => p.module === module);
    assert.ok(
      pages.length > 0,
      `${relative} reads the query but is no page's module: read it in the page and list it`,
    );
    for (const page of pages) {
      for (const name of paramsRead(source)) {
        assert.ok(
          page.query?.includes(name),
          `${page.path} reads "${name}" (${relative}): add it to its query in shared/routes.ts`,
        );
      }
    }
  }
  // The check sees the pages that do read their query (so it is not looking at nothing).
  for (const known of ["configurator/custom_tester_page.tsx", "orders/order_page.tsx"]) {
    assert.ok(readers.includes(`features/${known}`), known);
  }
});
