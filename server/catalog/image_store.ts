/**
 * Uploaded images in KV, named by the SHA-256 of their bytes: identical uploads are one stored
 * image, and a name always means the same bytes, so the image is served as immutable. The bytes
 * are split in chunks (a KV value holds at most 64 KiB); the meta entry says how many.
 */
import type { ImageUpload, UploadType } from "../../shared/images.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched } from "../kv/kv_util.ts";

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
  type: UploadType,
): Promise<{ upload: ImageUpload; into: (op: Deno.AtomicOperation) => void }> {
  const hash = await imageHash(bytes);
  const upload = { hash, type };
  const stored = await kv.get<ImageMeta>(keys.image(hash));
  if (stored.value) return { upload, into: (op) => void op.check(stored) };
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
  const meta: ImageMeta = { type, size: bytes.length, chunks: chunks.length };
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
