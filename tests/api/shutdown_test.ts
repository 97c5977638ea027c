import assert from "node:assert/strict";
import { builtClient, startShop, tempDir } from "../helpers/shop_process.ts";

/**
 * Bytes of the download held open while the shop stops: more than the loopback's socket buffers
 * take (4 MB sent, 128 KB received before the reader reads), so the server is still writing it
 * until the test reads.
 */
const BIG_BYTES = 24 * 1024 * 1024;
const BIG_ASSET = "big-TEST.js";

/** The built client with one more, large asset, in a folder removed after the test. */
async function distWithBigAsset() {
  const dir = await tempDir("shop-dist-big-");
  const built = await builtClient();
  await Deno.mkdir(`${dir.path}/assets`);
  for (const name of ["index.html", "preload.json"]) {
    await Deno.copyFile(`${built}/${name}`, `${dir.path}/${name}`);
  }
  for await (const entry of Deno.readDir(`${built}/assets`)) {
    await Deno.copyFile(`${built}/assets/${entry.name}`, `${dir.path}/assets/${entry.name}`);
  }
  await Deno.writeFile(`${dir.path}/assets/${BIG_ASSET}`, new Uint8Array(BIG_BYTES).fill(59));
  return dir;
}

/** Parsed JSON log lines the server printed. */
function logLines(output: string[]): Record<string, unknown>[] {
  return output.flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

/** Starts a download of the big asset from its own address; answers once its headers came. */
function download(url: string, client: Deno.HttpClient): Promise<Response> {
  // Typed apart from the call: the DOM lib's fetch overload has no `client` for a literal.
  const init: RequestInit & { client: Deno.HttpClient } = {
    client,
    headers: { "Accept-Encoding": "identity" },
  };
  return fetch(`${url}/assets/${BIG_ASSET}`, init);
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.test(`${signal}: the shop stops accepting, finishes the download in flight, exits 0 saying so`, async () => {
    await using dist = await distWithBigAsset();
    const shop = await startShop({ env: { DIST_DIR: dist.path } });
    const client = Deno.createHttpClient({ localAddress: "127.0.0.2" });
    const late = Deno.createHttpClient({ localAddress: "127.0.0.3" });
    try {
      const res = await download(shop.url, client);
      assert.equal(res.status, 200);
      shop.signal(signal);
      await shop.waitFor(/"msg":"shop stopping"/);
      // Still writing the download, the shop takes no new connection.
      await assert.rejects(() => fetch(`${shop.url}/api/health`, { client: late } as RequestInit));
      assert.equal((await res.bytes()).length, BIG_BYTES, "the download in flight is whole");

      const status = await shop.exited;
      assert.equal(status.code, 0, shop.output.join("\n"));
      const lines = logLines(shop.output);
      const messages = lines.map((l) => l.msg);
      const stopping = messages.indexOf("shop stopping");
      assert.ok(messages.indexOf("shop stopped") > stopping, shop.output.join("\n"));
      assert.equal(lines[stopping].signal, signal);
      const downloads = lines.filter((l) =>
        l.msg === "request" && l.path === `/assets/${BIG_ASSET}`
      );
      assert.equal(downloads.length, 1, "the download was logged once");
    } finally {
      client.close();
      late.close();
      await shop.kill("SIGKILL");
      await shop.stop();
    }
  });
}

Deno.test("a second signal stops the shop at once, even with a download in flight", async () => {
  await using dist = await distWithBigAsset();
  const shop = await startShop({ env: { DIST_DIR: dist.path } });
  const client = Deno.createHttpClient({ localAddress: "127.0.0.4" });
  try {
    const res = await download(shop.url, client);
    assert.equal(res.status, 200);
    shop.signal("SIGTERM");
    await shop.waitFor(/"msg":"shop stopping"/);
    shop.signal("SIGTERM");
    // The download is never read, so only the second signal can end the process.
    const status = await shop.exited;
    assert.equal(status.code, 1, shop.output.join("\n"));
    assert.ok(shop.output.some((l) => l.includes('"msg":"shop stopped at once"')));
    await res.body?.cancel().catch(() => {});
  } finally {
    client.close();
    await shop.kill("SIGKILL");
    await shop.stop();
  }
});
