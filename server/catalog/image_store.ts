/**
 * Uploaded images in KV, named by the SHA-256 of their bytes: identical uploads are one stored
 * image, and a name always means the same bytes, so the image is served as immutable. The bytes
 * are split in chunks (a KV value holds at most 64 KiB); the meta entry says how many.
 *
 * An image is kept while a record shows it and deleted, chunks and all, in the write that stops
 * the last one showing it. Every write that starts or stops a record showing an image also
 * rewrites (or deletes) the image's meta entry, checked against what it read, so two such writes
 * never both believe they are not the last: one of them is retried and sees the other.
 */
import type { ImageUpload, UploadType } from "../../shared/images.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched } from "../kv/kv_util.ts";
import { listPackEntries, listProductEntries, listSwitchEntries } from "./store.ts";

/** Bytes per chunk: under KV's 64 KiB value limit, with room for the key. */
export const CHUNK_BYTES = 60_000;

/**
 * Chunks per atomic write: KV refuses an atomic of more than 800 KiB in all, so a 1 MB image is
 * two writes, and the last one leaves room for the record that names the image.
 */
const CHUNKS_PER_WRITE = 12;

/** What is stored about an image besides its bytes. */
export interface ImageMeta {
  type: UploadType;
  size: number;
  chunks: number;
  /** Pixels, as read from the file when it was uploaded (absent: stored before they were read). */
  width?: number;
  height?: number;
}

/** The hex SHA-256 of the bytes: the image's name. */
export async function imageHash(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Prepares storing an image: writes what will not fit in one atomic with the record that names
 * it, and returns the upload and `into`, which adds the rest (the last chunks and the meta entry)
 * to that record's atomic write, so an image is only ever named once all of it is stored. An image
 * stored already is not written again. Chunks left by an upload that died before its record was
 * written are the same bytes a retry writes again (the name is their hash).
 */
export async function prepareImage(
  kv: Deno.Kv,
  bytes: Uint8Array<ArrayBuffer>,
  image: { type: UploadType; width: number; height: number },
): Promise<{ upload: ImageUpload; into: (op: Deno.AtomicOperation) => void }> {
  const { type, width, height } = image;
  const hash = await imageHash(bytes);
  const upload = { hash, type };
  const stored = await kv.get<ImageMeta>(keys.image(hash));
  // Rewritten, not only checked: a write releasing its last use at the same time then fails.
  if (stored.value) {
    return { upload, into: (op) => void op.check(stored).set(stored.key, stored.value) };
  }
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    chunks.push(bytes.subarray(at, at + CHUNK_BYTES));
  }
  const last = Math.max(0, chunks.length - CHUNKS_PER_WRITE);
  for (let from = 0; from < last; from += CHUNKS_PER_WRITE) {
    const op = kv.atomic();
    for (let i = from; i < Math.min(last, from + CHUNKS_PER_WRITE); i++) {
      op.set(keys.imageChunk(hash, i), chunks[i]);
    }
    await op.commit();
  }
  const meta: ImageMeta = { type, size: bytes.length, chunks: chunks.length, width, height };
  return {
    upload,
    into: (op) => {
      for (let i = last; i < chunks.length; i++) op.set(keys.imageChunk(hash, i), chunks[i]);
      op.set(keys.image(hash), meta);
    },
  };
}

/** A stored image's meta and bytes, or null when there is none by that name. */
export async function readImage(
  kv: Deno.Kv,
  hash: string,
): Promise<{ meta: ImageMeta; bytes: Uint8Array<ArrayBuffer> } | null> {
  const { value: meta } = await kv.get<ImageMeta>(keys.image(hash));
  if (!meta) return null;
  const entries = await getManyBatched<Uint8Array>(
    kv,
    Array.from({ length: meta.chunks }, (_, i) => keys.imageChunk(hash, i)),
  );
  const bytes = new Uint8Array(meta.size);
  let at = 0;
  for (const e of entries) {
    if (!e.value) return null;
    bytes.set(e.value, at);
    at += e.value.length;
  }
  return at === meta.size ? { meta, bytes } : null;
}

/** The records that show an uploaded image, as "switch:1", "pack:3", "product:7". */
async function imageUsers(kv: Deno.Kv): Promise<Map<string, string[]>> {
  const users = new Map<string, string[]>();
  const add = (hash: string | undefined, who: string) => {
    if (hash) users.set(hash, [...(users.get(hash) ?? []), who]);
  };
  for (const e of await listSwitchEntries(kv)) add(e.value.upload?.hash, `switch:${e.value.id}`);
  for (const e of await listPackEntries(kv)) add(e.value.upload?.hash, `pack:${e.value.id}`);
  for (const e of await listProductEntries(kv)) add(e.value.upload?.hash, `product:${e.value.id}`);
  return users;
}

/**
 * Prepares the records `releasing` (named as imageUsers names them) no longer showing the image
 * `hash`: answers what to add to their write: the image deleted with every chunk when no other
 * record shows it, else its meta rewritten (see the module's note). Read the meta first, then
 * the records: a record that starts showing it after that rewrites the meta, and this write fails.
 */
export async function prepareRelease(
  kv: Deno.Kv,
  hash: string,
  releasing: readonly string[],
): Promise<(op: Deno.AtomicOperation) => void> {
  const meta = await kv.get<ImageMeta>(keys.image(hash));
  if (!meta.value) return () => {};
  const others = ((await imageUsers(kv)).get(hash) ?? []).filter((u) => !releasing.includes(u));
  if (others.length > 0) return (op) => void op.check(meta).set(meta.key, meta.value);
  const chunks = await chunkKeys(kv, hash);
  return (op) => {
    op.check(meta).delete(meta.key);
    for (const key of chunks) op.delete(key);
  };
}

/** Every chunk stored under `hash`, those an interrupted upload left included. */
async function chunkKeys(kv: Deno.Kv, hash: string): Promise<Deno.KvKey[]> {
  const found: Deno.KvKey[] = [];
  for await (const e of kv.list({ prefix: keys.imageChunks(hash) })) found.push(e.key);
  return found;
}

/**
 * Deletes every stored image no record shows (left by code that kept replaced images), each in a
 * write checked against its meta as read before the records were: one that a record started
 * showing meanwhile stays. Answers how many went.
 */
export async function deleteUnusedImages(kv: Deno.Kv): Promise<number> {
  const metas: Deno.KvEntry<ImageMeta>[] = [];
  for await (const e of kv.list<ImageMeta>({ prefix: keys.images() })) metas.push(e);
  const users = await imageUsers(kv);
  let deleted = 0;
  for (const meta of metas) {
    const hash = String(meta.key[1]);
    if (users.has(hash)) continue;
    const op = kv.atomic().check(meta).delete(meta.key);
    for (const key of await chunkKeys(kv, hash)) op.delete(key);
    if ((await op.commit()).ok) deleted++;
  }
  return deleted;
}
