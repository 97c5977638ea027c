import assert from "node:assert/strict";
import { createTestApp } from "../helpers/test_app.ts";
import { builtClient } from "../helpers/shop_process.ts";
import { PAGES } from "../../shared/routes.ts";

Deno.test("the built client: pages get index.html, assets are immutable", async (t) => {
  const distDir = await builtClient();
  await using shop = await createTestApp({ env: { DIST_DIR: distDir } });

  await t.step("client routes answer the app, uncached, with their own title", async () => {
    for (const path of ["/", "/shop", "/testers/custom", "/tos"]) {
      const res = await shop.request(path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get("content-type") ?? "", /text\/html/);
      assert.equal(res.headers.get("cache-control"), "no-cache", path);
    }
    assert.match((await shop.request("/shop")).text, /<title>Shop \| Switch Tester Shop<\/title>/);
  });

  await t.step("one person's pages are never stored by any cache", async () => {
    // A tracking page shows a name, city and ZIP; the others a cart, an account, a payment or a
    // link's token: a shared cache (or the browser's, on a shared computer) must not keep them.
    for (
      const path of [
        "/order/track/abc",
        "/order-success",
        "/account/orders",
        "/checkout",
        "/cart",
        "/completion",
        "/demo-checkout/abc",
        "/restore-password?token=abc",
        "/login",
        "/admin",
      ]
    ) {
      const res = await shop.request(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get("cache-control"), "no-store", path);
    }
    const unsubscribe = await shop.request("/stock-alerts/unsubscribe?token=abcdefghijkl");
    assert.equal(unsubscribe.status, 200);
    assert.equal(unsubscribe.headers.get("cache-control"), "no-store", "the unsubscribe page");
    const done = await shop.request("/stock-alerts/unsubscribe?token=abcdefghijkl", {
      method: "POST",
    });
    assert.equal(done.headers.get("cache-control"), "no-store", "its answer");
  });

  await t.step("public pages arrive rendered; signed-in ones are left to the browser", async () => {
    const home = (await shop.request("/")).text;
    assert.match(home, /<div id="root"><a href="#main" class="skip-link">/);
    assert.match(home, /<h1 id="home-title">/);
    assert.doesNotMatch(home, /<noscript>/);
    for (const path of ["/checkout", "/admin", "/login"]) {
      const html = (await shop.request(path)).text;
      assert.match(html, /<div id="root"><\/div>/, path);
      assert.match(html, /<noscript>This page needs JavaScript to run.<\/noscript>/, path);
    }
  });

  await t.step("an unknown page answers 404 with the not-found page rendered", async () => {
    const res = await shop.request("/definitely/not/here");
    assert.equal(res.status, 404);
    assert.match(res.text, /<div id="root"><a href="#main"/);
    assert.match(res.text, /<title>Page not found \| Switch Tester Shop<\/title>/);
  });

  await t.step("hashed assets carry the immutable cache header", async () => {
    const index = (await shop.request("/")).text;
    const script = index.match(/"(\/assets\/main-[A-Z0-9]+\.js)[" ]/)?.[1];
    assert.ok(script, "index.html references a hashed entry");
    const res = await shop.request(script);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.match(res.headers.get("content-type") ?? "", /javascript/);
    assert.equal((await shop.request("/assets/nope-123.js")).status, 404);
  });

  await t.step("each page's HTML preloads the chunks of its own module", async () => {
    const manifest = JSON.parse(await Deno.readTextFile(`${distDir}/preload.json`));
    for (const page of PAGES) {
      assert.ok(manifest[page.module], `${page.path}: the router lazily loads ${page.module}`);
    }
    // A rendered page asks for them once it has painted (server/ssr/app_loader.ts).
    const shopHtml = (await shop.request("/shop")).text;
    const scripts = shopHtml.match(/<script data-scripts="([^"]+)">/)![1].split(" ");
    for (const file of manifest["catalog/shop_page.tsx"]) {
      assert.ok(scripts.includes(`/assets/${file}`), file);
    }
    assert.match(scripts[0], /^\/assets\/main-[A-Z0-9]+\.js$/, "the entry comes first");
    assert.doesNotMatch(shopHtml, /<link rel="modulepreload"/);
    const checkoutHtml = (await shop.request("/checkout")).text;
    assert.match(checkoutHtml, /<script type="module" src="\/assets\/main-[A-Z0-9]+\.js"/);
    const home = (await shop.request("/")).text;
    assert.doesNotMatch(home, new RegExp(manifest["catalog/shop_page.tsx"][0]));
  });

  await t.step("robots.txt and sitemap.xml list the public pages", async () => {
    const robots = await shop.request("/robots.txt");
    assert.match(robots.text, /Sitemap: .*\/sitemap\.xml/);
    assert.match(robots.text, /Disallow: \/admin/);
    const sitemap = await shop.request("/sitemap.xml");
    assert.match(sitemap.text, /<loc>[^<]*\/shop<\/loc>/);
    assert.doesNotMatch(sitemap.text, /\/admin/);
  });
});
