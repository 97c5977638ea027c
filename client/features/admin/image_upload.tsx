import { type ChangeEvent, useId, useState } from "react";
import { toast } from "react-hot-toast";
import {
  isUploadedImageUrl,
  MAX_UPLOAD_BYTES,
  sniffImageType,
  UPLOAD_TYPES,
} from "../../../shared/images.ts";
import { moveFocusWhenLost } from "../../app/move_focus.ts";
import { adminApi, adminErrorMessage } from "./admin_api.ts";

/** What can have an uploaded image, as the API's path names it. */
export type ImageKind = "switches" | "packs" | "items";

/** Sends a chosen file as the record's image; answers the record with its new imageUrl. */
function uploadImage<T>(kind: ImageKind, id: number, file: File): Promise<T> {
  return adminApi<T>(`/api/admin/catalog/${kind}/${id}/image`, { method: "PUT", body: file });
}

/** Takes the record's upload away (back to the generated illustration). */
function removeImage<T>(kind: ImageKind, id: number): Promise<T> {
  return adminApi<T>(`/api/admin/catalog/${kind}/${id}/image`, { method: "DELETE" });
}

/**
 * Why a file cannot be uploaded, or null. Checked by its first bytes as the server does, so a
 * photo.png that is a JPEG passes and a renamed document is refused before it is sent.
 */
async function fileProblem(file: File): Promise<string | null> {
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > MAX_UPLOAD_BYTES) {
    return `${file.name} is ${
      (file.size / 1024 / 1024).toFixed(1)
    } MB; images may be at most 1 MB.`;
  }
  const head = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  return sniffImageType(head) ? null : `${file.name} is not a PNG, JPEG or WebP image.`;
}

/**
 * The record's picture: the uploaded image or the generated illustration, a file input to upload
 * another, and "Remove upload" when there is one. Each change answers the record (with a new
 * version), which `onChange` hands back so the record's form does not think it stale.
 */
export function ImageUpload<T extends { imageUrl: string }>(
  { kind, id, imageUrl, label, onChange }: {
    kind: ImageKind;
    id: number;
    imageUrl: string;
    /** What the record is called, for the preview's alt text. */
    label: string;
    onChange: (record: T) => void;
  },
) {
  const inputId = useId();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const uploaded = isUploadedImageUrl(imageUrl);

  async function run(change: () => Promise<T>, done: string) {
    setBusy(true);
    setError(null);
    try {
      onChange(await change());
      toast.success(done);
    } catch (err) {
      setError(adminErrorMessage(err, "The image could not be changed", [400, 404, 413, 415]));
    } finally {
      setBusy(false);
    }
  }

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // Cleared, so choosing the same file again after a fix fires a change.
    input.value = "";
    if (!file) return;
    const problem = await fileProblem(file);
    if (problem) {
      setError(problem);
      return;
    }
    await run(() => uploadImage<T>(kind, id, file), `Image of ${label} uploaded`);
  }

  return (
    <div className="field admin-image-upload">
      <img
        src={imageUrl}
        alt={uploaded ? `Uploaded image of ${label}` : `Generated illustration of ${label}`}
        width={96}
        height={96}
        style={{ objectFit: "contain" }}
      />
      <label htmlFor={inputId}>{uploaded ? "Replace image" : "Upload image"}</label>
      <input
        id={inputId}
        type="file"
        accept={Object.keys(UPLOAD_TYPES).join(",")}
        // Not disabled while saving, which would drop the focus to the page: a click waits.
        aria-disabled={busy || undefined}
        onClick={(event) => {
          if (busy) event.preventDefault();
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${inputId}-hint${error ? ` ${inputId}-error` : ""}`}
        onChange={choose}
      />
      <span id={`${inputId}-hint`} className="muted small">
        PNG, JPEG or WebP, at most 1 MB.{" "}
        {uploaded ? "" : "Without one, the generated picture is shown."}
      </span>
      {uploaded && (
        <button
          type="button"
          className="button secondary"
          aria-disabled={busy || undefined}
          onClick={() => {
            if (busy) return;
            // The button goes with the upload: the focus moves to the file input beside it.
            moveFocusWhenLost(() => [document.getElementById(inputId)]);
            run(() => removeImage<T>(kind, id), `Image of ${label} removed`);
          }}
        >
          Remove upload
        </button>
      )}
      {busy && <span className="muted small" role="status">Saving image...</span>}
      {error && <p id={`${inputId}-error`} className="error-text small" role="alert">{error}</p>}
    </div>
  );
}
