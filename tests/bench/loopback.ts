/**
 * The bench's simulated shoppers, each on a loopback source address of its own (127.0.X.Y), so a
 * server that keys its limits by the connection's remote address sees distinct shoppers.
 */

/** The `i`th loopback source address: 127.0.1.1, 127.0.1.2, ... 127.0.1.254, 127.0.2.1, ... */
export function loopbackAddress(i: number): string {
  // Never .0 or .255 in either place, so never 127.0.0.1 (the server, autocannon, the setup).
  if (!Number.isInteger(i) || i < 0 || i >= 254 * 254) {
    throw new RangeError(`No loopback address number ${i}`);
  }
  return `127.0.${1 + Math.floor(i / 254)}.${1 + (i % 254)}`;
}

/**
 * One Deno HttpClient per simulated shopper, bound to its own loopback source address, so the
 * server (which keys limits by the connection's remote address) sees distinct shoppers. Linux
 * routes all of 127.0.0.0/8 to loopback. Address numbers start at `base`; clients are made on
 * first use and closed by `close`, or all at once when the `using` holding this ends.
 */
export class LoopbackClients {
  readonly #clients = new Map<number, Deno.HttpClient>();
  readonly #made = new Set<number>();

  constructor(readonly base: number) {}

  /** The client of shopper `i` (address number base + i). */
  get(i: number): Deno.HttpClient {
    let client = this.#clients.get(i);
    if (!client) {
      client = Deno.createHttpClient({ localAddress: loopbackAddress(this.base + i) });
      this.#clients.set(i, client);
      this.#made.add(i);
    }
    return client;
  }

  /** Closes shopper `i`'s client (and its connections); a later `get` makes a new one. */
  close(i: number): void {
    this.#clients.get(i)?.close();
    this.#clients.delete(i);
  }

  /** How many distinct addresses were used. */
  get used(): number {
    return this.#made.size;
  }

  [Symbol.dispose](): void {
    for (const i of [...this.#clients.keys()]) this.close(i);
  }
}
