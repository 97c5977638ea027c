/**
 * What search engines, link previews and visitors without JavaScript get from the server: the
 * pack page's switches, price and Product data in the HTML itself, structured data on the home
 * and configurator pages, preview tags with a real 1200×630 PNG on every public page, the data
 * the page was rendered with (safely embedded), and a CSP that allows the one inline script.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { builtClient } from "../helpers/shop_process.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { PAGES } from "../../shared/routes.ts";
import { CUBE_BASE_CENTS, formatCents, TESTER_BASE_CENTS } from "../../shared/pricing.ts";

const STARTER = PACKS.find((p) => p.slug === "starter-pack")!;

/** The text of some HTML, as a reader sees it (tags dropped, entities decoded). */
function textOf(html: string): string {
  return html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'").replace(/&quot;|&#34;/g, '"').replace(/&lt;|&#60;/g, "<")
    .replace(/&gt;|&#62;/g, ">").replace(/&amp;|&#38;/g, "&").replace(/\s+/g, " ");
}

/** The parts of schema.org's types the tests read. */
interface Thing {
  "@context"?: string;
  "@type": string;
  name: string;
  offers: { "@type": string; price: string; priceCurrency: string; availability: string };
  additionalProperty: { value: string }[];
  itemListElement: { item: Thing }[];
}

/** The page's JSON-LD objects, parsed. */
function structuredData(html: string): Thing[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
    .map((m) => JSON.parse(m[1]));
}

function meta(html: string, key: string): string | undefined {
  return html.match(new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`))?.[1];
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): [number, number] {
  const signature = [137, 80, 78, 71, 13, 10, 26, 10];
  assert.deepEqual([...bytes.slice(0, 8)], signature, "a PNG");
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return [view.getUint32(16), view.getUint32(20)];
}

async function shopWithClient(): Promise<TestApp> {
  return await createTestApp({ env: { DIST_DIR: await builtClient() } });
}

Deno.test("a pack page's HTML holds its ten switches, its price and its Product data", async () => {
  await using t = await shopWithClient();
  const res = await t.request("/testers/starter-pack");
  assert.equal(res.status, 200);
  const main = textOf(res.text.match(/<main[\s\S]*<\/main>/)![0]);
  const pack = (await t.request("/api/packs/starter-pack")).json;
  assert.equal(STARTER.switchIds.length, 10);
  for (const id of STARTER.switchIds) {
    const sw = SWITCHES.find((s) => s.id === id)!;
    assert.ok(main.includes(sw.name), `the page names ${sw.name}`);
  }
  assert.ok(main.includes(formatCents(pack.basePriceCents)), "the page shows the price");

  const [product] = structuredData(res.text);
  assert.equal(product["@context"], "https://schema.org");
  assert.equal(product["@type"], "Product");
  assert.equal(product.name, pack.title);
  assert.equal(product.offers["@type"], "Offer");
  assert.equal(product.offers.price, (pack.basePriceCents / 100).toFixed(2));
  assert.equal(product.offers.priceCurrency, "USD");
  assert.equal(product.offers.availability, "https://schema.org/InStock");
  assert.deepEqual(
    product.additionalProperty.map((p) => p.value).sort(),
    pack.switches.map((s: { brand: string; name: string }) => `${s.brand} ${s.name}`).sort(),
  );

  // Live: the owner's price and the shelf are read on every request.
  const cookie = await adminCookie(t);
  const version = (await t.request("/api/admin/catalog/packs", { headers: { Cookie: cookie } }))
    .json.find((p: { slug: string }) => p.slug === "starter-pack").version;
  const edit = await t.request(`/api/admin/catalog/packs/${STARTER.id}`, {
    method: "PATCH",
    body: { price: 12.5, version },
    headers: { Cookie: cookie },
  });
  assert.equal(edit.status, 200, edit.text);
  const stocked = await t.request(`/api/admin/inventory/switches/${STARTER.switchIds[0]}`, {
    method: "PUT",
    body: { stock: 0 },
    headers: { Cookie: cookie },
  });
  assert.equal(stocked.status, 200, stocked.text);
  const after = await t.request("/testers/starter-pack");
  const [now] = structuredData(after.text);
  assert.equal(now.offers.price, "12.50");
  assert.equal(now.offers.availability, "https://schema.org/OutOfStock");
  assert.ok(textOf(after.text).includes("$12.50"));
});

Deno.test("the API reads of a rendered page are logged under the page's request id", async () => {
  await using t = await shopWithClient();
  const res = await t.request("/testers/starter-pack");
  const pageId = res.headers.get("x-request-id");
  assert.ok(pageId, "the page answers with its request id");
  const reads = t.logs.filter((l) => l.msg === "request")
    .map((l) => ({ path: String(l.path), requestId: String(l.requestId) }));
  assert.deepEqual(
    reads.map((l) => l.path).sort(),
    [
      // The pack's drop: none here, and the page carries that answer too.
      `/api/drops/for/pack/${STARTER.id}`,
      "/api/notice",
      "/api/packs/starter-pack",
      `/api/testers/${STARTER.id}/availability`,
      "/testers/starter-pack",
    ],
  );
  assert.ok(reads.every((l) => l.requestId === pageId), JSON.stringify(reads));
});

Deno.test("an unknown order's tracking page says so from the server, and the browser asks no more", async () => {
  await using t = await shopWithClient();
  const res = await t.request("/order/track/NOSUCHORDER123");
  assert.ok(textOf(res.text).includes("Order Not Found"), "rendered as not found");
  const data = res.text.match(
    /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/,
  );
  const refused = JSON.parse(data![1]).answers["/api/orders/NOSUCHORDER123"];
  assert.equal(refused.$refused.status, 404, "the refusal travels with the page");
});

Deno.test("the home, shop and configurator pages carry their structured data", async () => {
  await using t = await shopWithClient();
  const home = structuredData((await t.request("/")).text);
  assert.deepEqual(home.map((thing) => thing["@type"]).sort(), ["Organization", "WebSite"]);
  assert.equal(home.find((thing) => thing["@type"] === "WebSite")!.name, "Switch Tester Shop");

  const starting = {
    "/testers/custom": TESTER_BASE_CENTS[10],
    "/testers/fidget-cube": CUBE_BASE_CENTS,
  };
  for (const [path, cents] of Object.entries(starting)) {
    const [product] = structuredData((await t.request(path)).text);
    assert.equal(product["@type"], "Product", path);
    assert.equal(product.offers.price, (cents / 100).toFixed(2), path);
    assert.equal(product.offers.priceCurrency, "USD");
    assert.equal(product.offers.availability, "https://schema.org/InStock");
  }
  // No cube bodies on the shelf: the cube cannot be made, and its offer says so.
  const cookie = await adminCookie(t);
  const out = await t.request("/api/admin/inventory/components/CUBE_BODY", {
    method: "PUT",
    body: { stock: 0 },
    headers: { Cookie: cookie },
  });
  assert.equal(out.status, 200, out.text);
  const [cube] = structuredData((await t.request("/testers/fidget-cube")).text);
  assert.equal(cube.offers.availability, "https://schema.org/OutOfStock");

  const [list] = structuredData((await t.request("/shop")).text);
  assert.equal(list["@type"], "ItemList");
  const names = list.itemListElement.map((e) => e.item.name);
  assert.ok(names.includes("Starter Pack"), names.join(", "));
  assert.ok(list.itemListElement.every((e) => e.item.offers.priceCurrency === "USD"));
});

Deno.test("every public page has its canonical URL and preview tags with a 1200×630 PNG", async () => {
  await using t = await shopWithClient();
  const images = new Set<string>();
  for (const page of PAGES.filter((p) => p.public)) {
    const html = (await t.request(page.path)).text;
    const canonical = html.match(/<link rel="canonical" href="([^"]+)">/)?.[1];
    assert.equal(new URL(canonical!).pathname, page.path, `${page.path}: canonical`);
    assert.equal(meta(html, "og:url"), canonical, page.path);
    assert.equal(meta(html, "og:title"), meta(html, "twitter:title"), page.path);
    assert.equal(meta(html, "og:description"), page.description, page.path);
    assert.equal(meta(html, "twitter:card"), "summary_large_image", page.path);
    assert.equal(meta(html, "og:image"), meta(html, "twitter:image"), page.path);
    images.add(meta(html, "og:image")!);
  }
  assert.ok(images.size >= 8, "packs and configurators have pictures of their own");
  for (const image of images) {
    const res = await t.app.request(new URL(image).pathname);
    assert.equal(res.status, 200, image);
    assert.equal(res.headers.get("content-type"), "image/png");
    assert.deepEqual(pngSize(new Uint8Array(await res.arrayBuffer())), [1200, 630], image);
  }
  assert.equal((await t.request("/images/previews/nothing.png")).status, 404);
});

Deno.test("the page's data is embedded safely, and only the theme script is allowed inline", async () => {
  await using t = await shopWithClient();
  const cookie = await adminCookie(t);
  // Rendered (and kept) before the notice changes: the next view still shows the new one.
  const before = await t.request("/faq");
  assert.equal(before.text, (await t.request("/faq")).text, "the same page while nothing changed");
  const hostile = "Closed today </script><script>alert(1)</script>";
  const set = await t.request("/api/admin/notice", {
    method: "PUT",
    body: { text: hostile, active: true },
    headers: { Cookie: cookie },
  });
  assert.equal(set.status, 200, set.text);
  const res = await t.request("/faq");
  const data = res.text.match(
    /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/,
  );
  assert.ok(data, "the page data is there");
  const embedded = JSON.parse(data[1]);
  assert.equal(embedded.url, "/faq");
  assert.equal(embedded.answers["/api/notice"].text, hostile);
  assert.ok(textOf(res.text).includes(hostile), "the banner is rendered, as text");
  assert.equal(res.text.match(/<script>alert/g), null, "nothing the owner typed became markup");

  // Scripts that run and are not files: the theme and the app loader, each allowed by its hash.
  const inline = [...res.text.matchAll(/<script((?: [a-z-]+="[^"]*")*)>([\s\S]*?)<\/script>/g)]
    .filter((m) => !/ (src|type)=/.test(m[1])).map((m) => m[2]);
  assert.equal(inline.length, 2, "the theme script and the app loader");
  const csp = res.headers.get("content-security-policy") ?? "";
  for (const script of inline) {
    const hash = createHash("sha256").update(script).digest("base64");
    assert.ok(csp.includes(`'sha256-${hash}'`), csp);
  }
  assert.doesNotMatch(csp, /unsafe-inline[^;]*;[^;]*script|script-src[^;]*unsafe-inline/);
});

Deno.test("a page's path in another case or encoding is sent to the page, and never poisons the not-found page", async () => {
  await using t = await shopWithClient();
  const title = (html: string) => html.match(/<title>(.*?)<\/title>/)?.[1];
  // The browser's router shows these pages (it ignores case and decodes): the server sends the
  // browser to the page's own path, where it renders the same page, with the query kept.
  for (
    const [asked, canonical] of [
      ["/te%73ters/%63ustom?switches=1,2", "/testers/custom?switches=1,2"],
      ["/SHOP", "/shop"],
      ["/Testers/Custom/?u=1", "/testers/custom?u=1"],
      ["/ORDER/track/AbC-1", "/order/track/AbC-1"],
    ]
  ) {
    const res = await t.request(asked);
    assert.equal(res.status, 301, asked);
    assert.equal(res.headers.get("location"), canonical, asked);
  }
  const head = await t.app.request("/SHOP", { method: "HEAD" });
  assert.equal(head.status, 301);
  assert.equal(head.headers.get("location"), "/shop");

  // Whatever was asked before, a missing page is the not-found page, framed as one.
  await t.request("/te%73ters/%63ustom");
  const missing = await t.request("/no-such-page");
  assert.equal(missing.status, 404);
  assert.equal(title(missing.text), "Page not found | Switch Tester Shop");
  assert.match(textOf(missing.text), /not found/i);
  // The page itself, as the browser test read it before (moved here: the server renders it).
  assert.equal(
    textOf(missing.text.match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1] ?? "").trim(),
    "Page not found",
  );
  assert.match(missing.text, /<a[^>]* href="\/shop"[^>]*>Browse the shop<\/a>/);
  assert.doesNotMatch(missing.text, /Custom switch tester/);
  const shop = await t.request("/shop");
  assert.equal(shop.status, 200);
  assert.equal(title(shop.text), "Shop | Switch Tester Shop");
});
