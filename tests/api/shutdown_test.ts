import assert from "node:assert/strict";
import { builtClient, startShop, tempDir } from "../helpers/shop_process.ts";
import { keys } from "../../server/kv/keys.ts";

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

/** How an upload's length is told: up front, or chunk by chunk (a streamed body). */
type Framing = "content-length" | "chunked";

/**
 * A message to the shop sent over a raw socket, its body in parts at the test's pace. It asks
 * `Expect: 100-continue` and resolves once the shop has said "100 Continue": the shop then holds
 * the request and is reading its body, so a signal sent next finds the upload mid-way.
 */
async function slowUpload(port: number, body: string, framing: Framing) {
  const encoder = new TextEncoder();
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const length = framing === "content-length"
    ? `Content-Length: ${encoder.encode(body).length}`
    : "Transfer-Encoding: chunked";
  await conn.write(encoder.encode(
    `POST /api/sendMessage HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
      `Content-Type: application/json\r\n${length}\r\nExpect: 100-continue\r\n\r\n`,
  ));
  const reader = conn.readable.getReader();
  let received = "";
  const decoder = new TextDecoder();
  async function readUntil(done: (text: string) => boolean): Promise<void> {
    while (!done(received)) {
      const { value, done: ended } = await reader.read();
      if (ended) return;
      received += decoder.decode(value, { stream: true });
    }
  }
  await readUntil((text) => text.includes("\r\n\r\n"));
  assert.match(received, /^HTTP\/1\.1 100 /, "the shop asks for the body");
  received = "";
  return {
    /** Sends the next part of the body; the shop may have closed the socket already. */
    async send(part: string, last = false): Promise<void> {
      const bytes = encoder.encode(part);
      const framed = framing === "content-length"
        ? bytes
        : encoder.encode(`${bytes.length.toString(16)}\r\n${part}\r\n${last ? "0\r\n\r\n" : ""}`);
      await conn.write(framed).catch(() => {});
    },
    /** The answer's status, headers and JSON body, read until the shop closes the socket. */
    async answer(): Promise<{ status: number; head: string; json: Record<string, unknown> }> {
      await readUntil(() => false).catch(() => {});
      const [head, ...rest] = received.split("\r\n\r\n");
      return { status: Number(head.split(" ")[1]), head, json: JSON.parse(rest.join("\r\n\r\n")) };
    },
    /** Closes the socket unless reading the answer to its end already did. */
    close() {
      try {
        conn.close();
      } catch { /* closed with the answer's end */ }
    },
  };
}

for (const framing of ["content-length", "chunked"] as const) {
  Deno.test(`SIGTERM mid-upload (${framing}): the message arrives whole and is answered, a newcomer is told to retry, the shop exits 0`, async () => {
    const shop = await startShop();
    const late = Deno.createHttpClient({ localAddress: "127.0.0.5" });
    const sent = { topic: "Restock?", message: "Any Box Jades soon? ".repeat(30), userEmail: "" };
    const body = JSON.stringify(sent);
    const upload = await slowUpload(Number(new URL(shop.url).port), body, framing);
    try {
      await upload.send(body.slice(0, 100));
      shop.signal("SIGTERM");
      await shop.waitFor(/"msg":"shop stopping"/);

      // Someone arriving while the upload is still under way is told plainly to come back.
      const newcomer = await fetch(`${shop.url}/api/health`, { client: late } as RequestInit);
      assert.equal(newcomer.status, 503);
      assert.equal(newcomer.headers.get("Retry-After"), "5");
      assert.deepEqual(await newcomer.json(), {
        error: "The shop is restarting; try again in a moment.",
      });

      await upload.send(body.slice(100), true);
      const answer = await upload.answer();
      assert.equal(answer.status, 200, JSON.stringify(answer.json));
      assert.equal(answer.json.ok, true);

      const status = await shop.exited;
      assert.equal(status.code, 0, shop.output.join("\n"));
      assert.ok(!shop.output.some((l) => l.includes("unhandled error")), shop.output.join("\n"));
      // The shop kept the message, whole.
      using kv = await Deno.openKv(shop.kvPath);
      const kept = await Array.fromAsync(kv.list<{ message: string }>({
        prefix: keys.contactMessages(),
      }));
      assert.equal(kept.length, 1);
      assert.equal(kept[0].value.message, sent.message.trim());
    } finally {
      upload.close();
      late.close();
      await shop.kill("SIGKILL");
      await shop.stop();
    }
  });
}
