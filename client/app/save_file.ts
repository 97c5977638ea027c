/** Saves a Blob as a file through a temporary link (downloads the shop hands to the browser). */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; the URL is freed a little later to be safe.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
