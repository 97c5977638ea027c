/**
 * Images the owner uploads for a switch, pack or item, in place of its generated illustration.
 * The type is read from the bytes, never from a name or header, and the file is decoded before it
 * is kept (server/images/decode_upload.ts). The record names its upload in one atomic write with
 * the history entry and the stock version, so every catalogue answer, cart and page shows the new
 * image at once; the image it showed before goes in that write when nothing else shows it.
 */
import {
  type ImageUpload,
  MAX_UPLOAD_BYTES,
  sniffImageType,
  UPLOAD_TYPES,
  uploadedImageUrl,
} from "../../shared/images.ts";
import type { AdminItemView, AdminPackView, AdminSwitchView } from "../../shared/api_types.ts";
import { DomainError, InvalidInput, NotFound } from "../errors.ts";
import { recordEditInto } from "../catalog/history.ts";
import type { Actor } from "../audit/actor.ts";
import {
  getPackEntry,
  getProductEntries,
  getSwitchEntry,
  writePackInto,
  writeProductInto,
  writeSwitchInto,
} from "../catalog/store.ts";
import { prepareImage, prepareRelease } from "../catalog/image_store.ts";
import { type DecodedImage, decodeUpload } from "../images/decode_upload.ts";
import { CONFLICT, withRetries } from "../kv/kv_util.ts";
import { commitStockChange } from "../kv/version.ts";
import { type CatalogDeps, getAdminSwitch } from "./switches.ts";
import { getAdminPack } from "./packs.ts";
import { getAdminItem, itemEntry } from "./items.ts";

/** What can have an image, as the route's path names it. */
export type ImageOwner = "switches" | "packs" | "items";

/** The record as read for an image change: its current upload and how to write a new one. */
interface Loaded {
  label: string;
  upload: ImageUpload | null;
  /** The records the write changes, as the image store names them (see prepareRelease). */
  records: string[];
  write(op: Deno.AtomicOperation, upload: ImageUpload | null, now: number): void;
}

interface Owner {
  /** Its name in the history and in lock keys. */
  name: "switch" | "pack" | "item";
  load(kv: Deno.Kv, id: number): Promise<Loaded>;
  view(deps: CatalogDeps, id: number): Promise<AdminSwitchView | AdminPackView | AdminItemView>;
}

const OWNERS: Record<ImageOwner, Owner> = {
  switches: {
    name: "switch",
    async load(kv, id) {
      const entry = await getSwitchEntry(kv, id);
      if (!entry.value) throw new NotFound(`There is no switch with id ${id}`);
      const s = entry.value;
      return {
        label: `${s.brand} ${s.name}`,
        upload: s.upload ?? null,
        records: [`switch:${id}`],
        write: (op, upload) => writeSwitchInto(op, entry, { ...s, upload }),
      };
    },
    view: getAdminSwitch,
  },
  packs: {
    name: "pack",
    async load(kv, id) {
      const entry = await getPackEntry(kv, id);
      if (!entry.value) {
        throw new NotFound(
          `There is no tester pack with id ${id}; packs are edited by their id without keycaps`,
        );
      }
      const pack = entry.value;
      const products = await getProductEntries(kv, [pack.id, pack.idWithKeycaps]);
      return {
        label: pack.title,
        upload: pack.upload ?? null,
        records: [`pack:${id}`, ...products.map((p) => `product:${String(p.key[2])}`)],
        // Its two products carry the image too: product lists and cart lines read products.
        write: (op, upload, now) => {
          writePackInto(op, entry, { ...pack, upload, updatedAt: now });
          for (const p of products) if (p.value) writeProductInto(op, p, { ...p.value, upload });
        },
      };
    },
    view: getAdminPack,
  },
  items: {
    name: "item",
    async load(kv, id) {
      const entry = await itemEntry(kv, id);
      return {
        label: entry.value.name,
        upload: entry.value.upload ?? null,
        records: [`product:${id}`],
        write: (op, upload) => writeProductInto(op, entry, { ...entry.value, upload }),
      };
    },
    view: getAdminItem,
  },
};

/** How each type is called in a refusal. */
const FORMAT_NAMES: Record<keyof typeof UPLOAD_TYPES, string> = {
  "image/png": "PNG",
  "image/jpeg": "JPEG",
  "image/webp": "WebP",
};

/**
 * The upload decoded: its type from its bytes, its dimensions from its header. Refuses an empty,
 * too large or unknown file, and one that starts like an image but is not a whole one (400 saying
 * what is wrong).
 */
export async function checkUpload(bytes: Uint8Array): Promise<DecodedImage> {
  if (bytes.length === 0) throw new InvalidInput("The image is empty: send the file's bytes");
  if (bytes.length > MAX_UPLOAD_BYTES) throw tooLarge();
  const type = sniffImageType(bytes);
  if (!type) {
    throw new DomainError(
      "unsupported_type",
      "This file is not a PNG, JPEG or WebP image. Upload one of those (at most 1 MB).",
      { allowedTypes: Object.keys(UPLOAD_TYPES) },
    );
  }
  const decoded = await decodeUpload(bytes, type);
  if (!decoded.ok) {
    throw new InvalidInput(
      `This file starts like a ${
        FORMAT_NAMES[type]
      } image but is not one: ${decoded.problem}. Save it again from an image editor and upload that.`,
    );
  }
  return decoded.image;
}

/** The 413 of an image over the limit. */
export function tooLarge(): DomainError {
  return new DomainError(
    "too_large",
    `The image is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB. Make it smaller and try again.`,
  );
}

/**
 * Gives a switch, pack (by its id without keycaps) or item an uploaded image (`bytes`), or takes
 * it away (null: back to the generated illustration). Answers the record as its catalogue route
 * does.
 */
export async function setCatalogImage(
  deps: CatalogDeps,
  kind: ImageOwner,
  id: number,
  bytes: Uint8Array<ArrayBuffer> | null,
  actor: Actor,
): Promise<AdminSwitchView | AdminPackView | AdminItemView> {
  const { kv, clock } = deps;
  const owner = OWNERS[kind];
  const decoded = bytes ? await checkUpload(bytes) : null;
  // Read first, so an unknown id stores no bytes.
  await owner.load(kv, id);
  let upload: ImageUpload | null = null;
  await withRetries(
    async () => {
      // Prepared on each try: the image may have been deleted since (its last use released).
      const image = bytes && decoded ? await prepareImage(kv, bytes, decoded) : null;
      upload = image?.upload ?? null;
      const record = await owner.load(kv, id);
      if (record.upload?.hash === upload?.hash && record.upload?.type === upload?.type) {
        return null;
      }
      const old = record.upload?.hash;
      const release = old && old !== upload?.hash
        ? await prepareRelease(kv, old, record.records)
        : null;
      const now = clock.now();
      const op = kv.atomic();
      record.write(op, upload, now);
      image?.into(op);
      release?.(op);
      recordEditInto(op, actor, {
        at: now,
        kind: "image",
        target: `${owner.name}:${id}`,
        label: record.label,
        action: upload ? "uploaded" : "removed",
        changes: [{
          field: "image",
          from: record.upload ? uploadedImageUrl(record.upload) : null,
          to: upload ? uploadedImageUrl(upload) : null,
        }],
      });
      return await commitStockChange(kv, op, now) ? null : CONFLICT;
    },
    "change the image",
    `catalog:${owner.name}:${id}`,
  );
  return await owner.view(deps, id);
}
