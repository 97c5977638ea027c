/** Escapes text for safe use inside HTML, for server-made pages and emails. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
