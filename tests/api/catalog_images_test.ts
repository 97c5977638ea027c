/**
 * Images the owner uploads for a switch, pack or item (PUT/DELETE
 * /api/admin/catalog/{kind}/{id}/image): the type is read from the bytes, never the name or
 * Content-Type; anything but PNG, JPEG or WebP is a 415, more than 1 MB a 413; the bytes are
 * stored once per content hash in chunks and served back immutable; every answer that shows the
 * record's image points at the upload until it is removed.
 */
import assert from "node:assert/strict";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { newPackCart, STARTER } from "../helpers/shop_fixtures.ts";
import { MAX_UPLOAD_BYTES } from "../../shared/images.ts";
import { keys } from "../../server/kv/keys.ts";
import { CHUNK_BYTES } from "../../server/catalog/image_store.ts";
import { jpegFile, pngChunk, pngFile, webpFile } from "../helpers/image_files.ts";
import { migrate } from "../../server/ops/migrations.ts";

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff, 0xe0];
const WEBP = [..."RIFF"].map((ch) => ch.charCodeAt(0));
const ITEM_ID = 1;
const SWITCH_ID = STARTER.switchIds[0];

/** A file that starts with `head` and runs to `size` bytes (a pattern, so chunks differ). */
function file(head: number[], size = 64, seed = 0): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed) & 0xff;
  bytes.set(head);
  return bytes;
}

const cookies = new WeakMap<TestApp, Promise<string>>();

async function admin(t: TestApp, path: string, init: { method?: string; body?: unknown } = {}) {
  let cookie = cookies.get(t);
  if (!cookie) cookies.set(t, cookie = adminCookie(t));
  return await t.request(path, { ...init, headers: { Cookie: await cookie } });
}

async function upload(
  t: TestApp,
  kind: string,
  id: number,
  bytes: Uint8Array<ArrayBuffer>,
  contentType = "application/octet-stream",
) {
  const cookie = cookies.get(t) ?? adminCookie(t);
  cookies.set(t, cookie);
  return await t.request(`/api/admin/catalog/${kind}/${id}/image`, {
    method: "PUT",
    body: bytes,
    headers: { Cookie: await cookie, "Content-Type": contentType },
  });
}

function ok(res: Awaited<ReturnType<TestApp["request"]>>, status = 200) {
  assert.equal(res.status, status, res.text);
  return res.json;
}

async function countKeys(kv: Deno.Kv, prefix: Deno.KvKey): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix })) n++;
  return n;
}

/** The served bytes and headers of an image URL. */
async function fetchImage(t: TestApp, url: string, headers: Record<string, string> = {}) {
  const res = await t.app.request(url, { headers });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

Deno.test("PNG, JPEG and WebP are accepted by their bytes, whatever the name or type says", async () => {
  await using t = await createTestApp();
  const png = await pngFile();
  const sw = ok(await upload(t, "switches", SWITCH_ID, png, "image/png"));
  assert.equal(sw.id, SWITCH_ID);
  assert.match(sw.imageUrl, /^\/images\/uploads\/[0-9a-f]{64}\.png$/);
  assert.equal(typeof sw.version, "string");

  // A file called photo.png holding JPEG bytes is a JPEG.
  const jpeg = jpegFile();
  const item = ok(await upload(t, "items", ITEM_ID, jpeg, "image/png"));
  assert.match(item.imageUrl, /\.jpg$/);
  const served = await fetchImage(t, item.imageUrl);
  assert.equal(served.res.headers.get("Content-Type"), "image/jpeg");
  assert.deepEqual(served.bytes, jpeg);

  const pack = ok(await upload(t, "packs", STARTER.id, webpFile()));
  assert.match(pack.imageUrl, /\.webp$/);
  assert.deepEqual(pack.switchIds, STARTER.switchIds);
  assert.equal((await fetchImage(t, pack.imageUrl)).res.headers.get("Content-Type"), "image/webp");
});

Deno.test("text, HTML, empty and too large files are refused, and nothing is stored", async () => {
  await using t = await createTestApp();
  const text = new TextEncoder().encode("just some notes\n");
  const refusedText = await upload(t, "switches", SWITCH_ID, text, "image/png");
  assert.equal(refusedText.status, 415, refusedText.text);
  assert.match(refusedText.json.error, /PNG, JPEG or WebP/);
  assert.deepEqual(refusedText.json.allowedTypes, ["image/png", "image/jpeg", "image/webp"]);

  const html = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");
  assert.equal((await upload(t, "items", ITEM_ID, html, "image/jpeg")).status, 415);
  // RIFF without WEBP (a WAV file, say) is not an image.
  const wav = file(
    [...WEBP, 0, 0, 0, 0, ..."WAVE"].map((b) => typeof b === "string" ? b.charCodeAt(0) : b),
  );
  assert.equal((await upload(t, "items", ITEM_ID, wav)).status, 415);

  const empty = await upload(t, "items", ITEM_ID, new Uint8Array(0));
  assert.equal(empty.status, 400, empty.text);
  assert.match(empty.json.error, /empty/);

  const big = await upload(t, "switches", SWITCH_ID, file(PNG, MAX_UPLOAD_BYTES + 1));
  assert.equal(big.status, 413, big.text);
  assert.match(big.json.error, /1 MB/);

  assert.equal(await countKeys(t.kv, ["images"]), 0);
  assert.equal(await countKeys(t.kv, ["image_chunks"]), 0);
  const sw = ok(await admin(t, "/api/admin/catalog/switches"))
    .find((s: { id: number }) => s.id === SWITCH_ID);
  assert.match(sw.imageUrl, /\.svg$/);

  // Unknown records and kinds.
  const png = await pngFile();
  assert.equal((await upload(t, "switches", 99, png)).status, 404);
  assert.equal((await upload(t, "packs", STARTER.idWithKeycaps, png)).status, 404);
  assert.equal((await upload(t, "items", STARTER.id, png)).status, 404);
  assert.equal((await upload(t, "cubes", 1, png)).status, 400);
  assert.equal(await countKeys(t.kv, ["image_chunks"]), 0);
});

Deno.test("only the upload route takes more than 64 KB", async () => {
  await using t = await createTestApp();
  const res = await admin(t, `/api/admin/catalog/items/${ITEM_ID}`, {
    method: "PATCH",
    body: { name: "x".repeat(70 * 1024) },
  });
  assert.equal(res.status, 413, res.text);
  const image = await upload(t, "items", ITEM_ID, await pngFile(260, 260));
  assert.equal(image.status, 200, image.text);
});

Deno.test("a 900 KB image is stored in chunks once and served back byte for byte, immutable", async () => {
  await using t = await createTestApp();
  const bytes = await pngFile(640, 480, 7);
  const first = ok(await upload(t, "switches", SWITCH_ID, bytes));
  const hash = /uploads\/([0-9a-f]{64})\.png$/.exec(first.imageUrl)![1];
  const chunks = Math.ceil(bytes.length / CHUNK_BYTES);
  assert.equal(chunks, 16);
  assert.equal(await countKeys(t.kv, keys.imageChunks(hash)), chunks);
  assert.deepEqual((await t.kv.get(keys.image(hash))).value, {
    type: "image/png",
    size: bytes.length,
    chunks,
    width: 640,
    height: 480,
  });

  const { res, bytes: served } = await fetchImage(t, first.imageUrl);
  assert.equal(res.status, 200);
  assert.deepEqual(served, bytes);
  assert.equal(res.headers.get("Content-Type"), "image/png");
  assert.equal(res.headers.get("Cache-Control"), "public, max-age=31536000, immutable");
  assert.equal(res.headers.get("X-Content-Type-Options"), "nosniff");
  const etag = res.headers.get("ETag")!;
  assert.equal(etag, `"${hash}"`);
  assert.equal((await fetchImage(t, first.imageUrl, { "If-None-Match": etag })).res.status, 304);

  // The same bytes for an item and a pack: still one stored image.
  const item = ok(await upload(t, "items", ITEM_ID, bytes));
  const pack = ok(await upload(t, "packs", STARTER.id, bytes));
  assert.equal(item.imageUrl, first.imageUrl);
  assert.equal(pack.imageUrl, first.imageUrl);
  assert.equal(await countKeys(t.kv, ["images"]), 1);
  assert.equal(await countKeys(t.kv, ["image_chunks"]), chunks);

  // Unknown hashes, wrong extensions and odd names are 404 JSON.
  for (
    const path of [
      `/images/uploads/${"0".repeat(64)}.png`,
      `/images/uploads/${hash}.jpg`,
      `/images/uploads/${hash.slice(1)}.png`,
      `/images/uploads/${hash.toUpperCase()}.png`,
    ]
  ) {
    const miss = await t.request(path);
    assert.equal(miss.status, 404, path);
    assert.equal(typeof miss.json?.error, "string", path);
  }
  assert.equal((await t.request(`/images/uploads/../${hash}.png`)).status, 404);
});

Deno.test("the shop's answers show the upload until it is removed", async () => {
  await using t = await createTestApp();
  const sw = ok(await upload(t, "switches", SWITCH_ID, await pngFile(4, 4, 1)));
  const pack = ok(await upload(t, "packs", STARTER.id, jpegFile(4, 4, 64, 2)));
  const item = ok(await upload(t, "items", ITEM_ID, webpFile()));

  const listed = ok(await t.request("/api/switches"));
  assert.equal(listed.find((s: { id: number }) => s.id === SWITCH_ID).imageUrl, sw.imageUrl);
  // Switches without an upload keep the short shape: their URL is derived from `image`.
  assert.ok(
    listed.filter((s: { id: number }) => s.id !== SWITCH_ID).every((s: object) =>
      !("imageUrl" in s)
    ),
  );

  const page = ok(await t.request(`/api/packs/${STARTER.slug}`));
  assert.equal(page.imageUrl, pack.imageUrl);
  assert.equal(page.switches[0].imageUrl, sw.imageUrl);
  const packs = ok(await t.request("/api/packs"));
  assert.equal(packs.find((p: { id: number }) => p.id === STARTER.id).imageUrl, pack.imageUrl);
  const products = ok(await t.request("/api/products"));
  const byId = (id: number) => products.find((p: { id: number }) => p.id === id);
  assert.equal(byId(STARTER.id).imageUrl, pack.imageUrl);
  assert.equal(byId(STARTER.idWithKeycaps).imageUrl, pack.imageUrl);
  assert.equal(byId(ITEM_ID).imageUrl, item.imageUrl);

  const cartId = await newPackCart(t);
  ok(
    await t.request(`/api/cart/add/tester?cartId=${cartId}`, {
      method: "POST",
      body: {
        cartId,
        name: "Custom Switch Tester",
        size: 10,
        keycaps: "none",
        switches: STARTER.switchIds.map((id) => ({ id, quantity: 1 })),
      },
    }),
  );
  const cart = ok(await t.request(`/api/cart/${cartId}`));
  const packLine = cart.items.find((l: { item: { kind: string } }) => l.item.kind === "product");
  const testerLine = cart.items.find((l: { item: { kind: string } }) => l.item.kind === "custom");
  assert.equal(packLine.item.imageUrl, pack.imageUrl);
  assert.equal(testerLine.item.switches[0].imageUrl, sw.imageUrl);

  // Removed: back to the generated illustrations everywhere.
  const removed = ok(
    await admin(t, `/api/admin/catalog/switches/${SWITCH_ID}/image`, {
      method: "DELETE",
    }),
  );
  assert.match(removed.imageUrl, /^\/images\/switches\/.+-transparent\.svg$/);
  const packGone = ok(
    await admin(t, `/api/admin/catalog/packs/${STARTER.id}/image`, {
      method: "DELETE",
    }),
  );
  assert.match(packGone.imageUrl, /^\/images\/packs\/.+\.svg$/);
  const relisted = ok(await t.request("/api/switches"));
  assert.ok(relisted.every((s: object) => !("imageUrl" in s)));
  assert.match(ok(await t.request(`/api/packs/${STARTER.slug}`)).imageUrl, /\.svg$/);
  const recart = ok(await t.request(`/api/cart/${cartId}`));
  for (const line of recart.items) {
    assert.match(line.item.imageUrl, /\.svg$/);
    for (const s of line.item.switches) assert.match(s.imageUrl, /\.svg$/);
  }
  // The generated illustration is served again.
  assert.equal((await t.request(removed.imageUrl)).status, 200);
});

Deno.test("each change is in the history; no admin, no change", async () => {
  await using t = await createTestApp();
  const sw = ok(await upload(t, "switches", SWITCH_ID, await pngFile()));
  ok(await admin(t, `/api/admin/catalog/switches/${SWITCH_ID}/image`, { method: "DELETE" }));
  // Removing what is not there changes nothing, and records nothing.
  ok(await admin(t, `/api/admin/catalog/switches/${SWITCH_ID}/image`, { method: "DELETE" }));
  const history = ok(await admin(t, "/api/admin/catalog/history"));
  const images = history.filter((e: { kind: string }) => e.kind === "image");
  assert.equal(images.length, 2);
  // Both at the same (fixed) time: found by what they did, not by their order.
  const added = images.find((e: { action: string }) => e.action === "uploaded");
  const removal = images.find((e: { action: string }) => e.action === "removed");
  assert.equal(added.target, `switch:${SWITCH_ID}`);
  assert.equal(added.action, "uploaded");
  assert.deepEqual(added.changes, [{ field: "image", from: null, to: sw.imageUrl }]);
  assert.equal(removal.action, "removed");
  assert.deepEqual(removal.changes, [{ field: "image", from: sw.imageUrl, to: null }]);
  assert.equal(typeof added.label, "string");

  const put = await t.request(`/api/admin/catalog/switches/${SWITCH_ID}/image`, {
    method: "PUT",
    body: file(PNG),
  });
  assert.equal(put.status, 401, put.text);
  const del = await t.request(`/api/admin/catalog/items/${ITEM_ID}/image`, { method: "DELETE" });
  assert.equal(del.status, 401, del.text);
  // Not even a big body gets past the sign-in check into the store.
  const big = await t.request(`/api/admin/catalog/items/${ITEM_ID}/image`, {
    method: "PUT",
    body: file(PNG, 900 * 1024),
  });
  assert.equal(big.status, 401);
  // The upload was removed and no record names it, so its bytes went with it.
  assert.equal(await countKeys(t.kv, ["images"]), 0);
});

/** Every stored image's keys and the bytes of its chunks. */
async function storedImages(kv: Deno.Kv) {
  let chunkBytes = 0;
  for await (const e of kv.list<Uint8Array>({ prefix: ["image_chunks"] })) {
    chunkBytes += e.value.length;
  }
  return {
    images: await countKeys(kv, ["images"]),
    chunks: await countKeys(kv, ["image_chunks"]),
    chunkBytes,
  };
}

Deno.test("files that only start like an image, or carry something after it, are refused (400)", async () => {
  await using t = await createTestApp();
  const png = await pngFile();
  const html = new TextEncoder().encode("<!doctype html><script>alert(document.domain)</script>");
  const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...html]);
  const withBytes = (a: Uint8Array, b: Uint8Array) => {
    const out = new Uint8Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };
  // A PNG whose chunk was changed after its checksum was written.
  const tampered = png.slice();
  tampered[20] ^= 0xff;
  // A PNG whose image data is not deflated pixels (a page in its place, with a right checksum).
  const ihdr = png.subarray(8, 33);
  const fakeData = withBytes(
    withBytes(new Uint8Array(PNG), ihdr),
    withBytes(pngChunk("IDAT", html), pngChunk("IEND", new Uint8Array())),
  );
  // A header that promises more pixels than any shop photo has.
  const hugeHeader = new Uint8Array(13);
  new DataView(hugeHeader.buffer).setUint32(0, 60000);
  new DataView(hugeHeader.buffer).setUint32(4, 60000);
  hugeHeader.set([8, 2, 0, 0, 0], 8);
  const huge = withBytes(
    withBytes(new Uint8Array(PNG), pngChunk("IHDR", hugeHeader)),
    png.subarray(33),
  );
  const jpeg = jpegFile();
  const webp = webpFile();
  const cases: [string, Uint8Array<ArrayBuffer>, RegExp][] = [
    ["an 8-byte PNG", new Uint8Array(PNG), /PNG.*ends before/],
    ["a PNG signature before a page", withBytes(new Uint8Array(PNG), html), /PNG/],
    ["a PNG with a ZIP behind it", withBytes(png, zip), /PNG.*follows its IEND/],
    ["a PNG with a page behind it", withBytes(png, html), /PNG.*follows its IEND/],
    ["a damaged PNG", tampered, /PNG.*checksum/],
    ["a PNG whose data is a page", fakeData, /PNG.*decompress/],
    ["a PNG of 60000 × 60000 pixels", huge, /PNG.*60000 × 60000/],
    ["a JPEG signature before a page", withBytes(new Uint8Array(JPEG), html), /JPEG/],
    ["a 3-byte JPEG", new Uint8Array(JPEG.slice(0, 3)), /JPEG/],
    ["a JPEG with a ZIP behind it", withBytes(jpeg, zip), /JPEG.*follows its end marker/],
    ["a JPEG without a frame header", withBytes(jpeg.subarray(0, 2), jpeg.subarray(-2)), /JPEG/],
    ["a WebP with a page behind it", withBytes(webp, html), /WebP.*RIFF size/],
    [
      "RIFF WEBP and nothing else",
      new Uint8Array([...WEBP, 4, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]),
      /WebP/,
    ],
  ];
  for (const [what, bytes, message] of cases) {
    const res = await upload(t, "switches", SWITCH_ID, bytes);
    assert.equal(res.status, 400, `${what}: ${res.text}`);
    assert.match(res.json.error, message, what);
  }
  assert.deepEqual(await storedImages(t.kv), { images: 0, chunks: 0, chunkBytes: 0 });
  // What was read is kept with the image.
  const sw = ok(await upload(t, "switches", SWITCH_ID, await pngFile(12, 7)));
  const hash = /uploads\/([0-9a-f]{64})\.png$/.exec(sw.imageUrl)![1];
  const meta = (await t.kv.get<{ width: number; height: number }>(keys.image(hash))).value;
  assert.deepEqual([meta?.width, meta?.height], [12, 7]);
});

Deno.test("a replaced or removed image goes with its chunks once no record shows it", async () => {
  await using t = await createTestApp();
  const big = await pngFile(640, 480, 1);
  ok(await upload(t, "switches", SWITCH_ID, big));
  const before = await storedImages(t.kv);
  assert.equal(before.chunks, Math.ceil(big.length / CHUNK_BYTES));
  assert.equal(before.chunkBytes, big.length);

  // Replaced: only the new image is left.
  const small = await pngFile(8, 8, 2);
  ok(await upload(t, "switches", SWITCH_ID, small));
  assert.deepEqual(await storedImages(t.kv), { images: 1, chunks: 1, chunkBytes: small.length });

  // Shared with an item: removing it from the switch keeps it for the item.
  ok(await upload(t, "items", ITEM_ID, small));
  ok(await admin(t, `/api/admin/catalog/switches/${SWITCH_ID}/image`, { method: "DELETE" }));
  assert.deepEqual(await storedImages(t.kv), { images: 1, chunks: 1, chunkBytes: small.length });
  const item = ok(await admin(t, "/api/admin/catalog/items")).find((i: { id: number }) =>
    i.id === ITEM_ID
  );
  assert.equal((await fetchImage(t, item.imageUrl)).res.status, 200, "the item's image is served");
  ok(await admin(t, `/api/admin/catalog/items/${ITEM_ID}/image`, { method: "DELETE" }));
  assert.deepEqual(await storedImages(t.kv), { images: 0, chunks: 0, chunkBytes: 0 });

  // A pack's image (its two products carry it too) replaced many times leaves one image.
  for (let i = 0; i < 5; i++) {
    ok(await upload(t, "packs", STARTER.id, await pngFile(64, 64, 10 + i)));
  }
  const last = await pngFile(64, 64, 14);
  assert.deepEqual(await storedImages(t.kv), { images: 1, chunks: 1, chunkBytes: last.length });
});

Deno.test("images no record shows, left by the code before, are deleted once at start", async () => {
  await using t = await createTestApp();
  const kept = ok(await upload(t, "items", ITEM_ID, await pngFile(8, 8, 3)));
  // What replaced images left behind before they were deleted: a meta entry and its chunks.
  const orphan = "ab".repeat(32);
  await t.kv.atomic()
    .set(keys.image(orphan), { type: "image/png", size: 3, chunks: 2 })
    .set(keys.imageChunk(orphan, 0), new Uint8Array([1, 2]))
    .set(keys.imageChunk(orphan, 1), new Uint8Array([3]))
    .commit();
  for await (const e of t.kv.list({ prefix: ["meta", "migration"] })) {
    if (String(e.key[2]).endsWith("unused-images")) await t.kv.delete(e.key);
  }
  await migrate(t.kv, t.clock);
  assert.equal((await t.kv.get(keys.image(orphan))).value, null);
  assert.equal(await countKeys(t.kv, keys.imageChunks(orphan)), 0);
  assert.equal((await fetchImage(t, kept.imageUrl)).res.status, 200, "an image in use stays");
  assert.equal((await storedImages(t.kv)).images, 1);
});
