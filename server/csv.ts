/**
 * CSV for spreadsheets: every field quoted, quotes doubled, and fields that a spreadsheet would run
 * as a formula (starting with = + - @ or a tab/carriage return) prefixed with an apostrophe.
 */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** Rows to CSV text with CRLF line ends (RFC 4180). */
export function toCsv(rows: readonly (readonly unknown[])[]): string {
  return rows.map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}
