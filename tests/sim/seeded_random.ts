/**
 * The shop draws random ids (carts, orders, payments, tokens) from Web Crypto. In the simulation
 * they come from a generator seeded by the history, so a history replays exactly: the same ids,
 * the same key order in the store, the same outcome.
 */

const original = {
  getRandomValues: crypto.getRandomValues.bind(crypto),
  randomUUID: crypto.randomUUID.bind(crypto),
  mathRandom: Math.random,
};

/** mulberry32: small, fast and good enough for ids that need only be distinct and repeatable. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Makes every random draw of this process follow `seed` until `restoreRandom`. */
export function seedRandom(seed: number): void {
  const next = generator(seed);
  crypto.getRandomValues = (<T extends ArrayBufferView | null>(array: T): T => {
    if (array) {
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
    }
    return array;
  }) as typeof crypto.getRandomValues;
  crypto.randomUUID = () => {
    const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16)).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${
      hex.slice(20)
    }` as `${string}-${string}-${string}-${string}-${string}`;
  };
  Math.random = next;
}

/** Gives the process its real randomness back. */
export function restoreRandom(): void {
  crypto.getRandomValues = original.getRandomValues;
  crypto.randomUUID = original.randomUUID;
  Math.random = original.mathRandom;
}
