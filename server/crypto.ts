/** Hashing and comparison helpers for secrets (passwords, tokens). */

/** Hex SHA-256 of a string. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Compares two secrets in constant time. Both are hashed first, so neither the length nor the
 * position of the first difference shows in the timing.
 */
export async function secretsEqual(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([sha256Hex(a), sha256Hex(b)]);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x.charCodeAt(i) ^ y.charCodeAt(i);
  return diff === 0;
}

/** Random id of `bytes` random bytes, base64url without padding. */
export function randomId(bytes = 16): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A random token of 256 bits, base64url. */
export function newToken(): string {
  return randomId(32);
}
