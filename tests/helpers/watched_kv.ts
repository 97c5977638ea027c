/**
 * A Deno KV that notes the key of every write committed through it (`set`, `delete`, and every
 * mutation of an atomic operation that commits), so a test can read again only what changed
 * instead of the whole store. Reads and everything else pass straight to the store.
 */
export interface WatchedKv {
  kv: Deno.Kv;
  /** Keys written since the last `take`, by their JSON. */
  take(): Deno.KvKey[];
}

/** Wraps `store`; only writes made through the answer's `kv` are noted. */
export function watchedKv(store: Deno.Kv): WatchedKv {
  let written = new Map<string, Deno.KvKey>();
  const note = (keys: Deno.KvKey[]) => {
    for (const key of keys) written.set(keyText(key), key);
  };
  const kv = new Proxy(store, {
    get(target, name) {
      if (name === "set") {
        return async (key: Deno.KvKey, value: unknown, options?: { expireIn?: number }) => {
          const result = await target.set(key, value, options);
          note([key]);
          return result;
        };
      }
      if (name === "delete") {
        return async (key: Deno.KvKey) => {
          await target.delete(key);
          note([key]);
        };
      }
      if (name === "atomic") return () => watchedAtomic(target.atomic(), note);
      const value = Reflect.get(target, name, target);
      // Deno.Kv's methods read private fields of the store itself, not of this proxy.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    kv,
    take() {
      const keys = [...written.values()];
      written = new Map();
      return keys;
    },
  };
}

/** One key's text, as a map's key (bigints and bytes included). */
export function keyText(key: Deno.KvKey): string {
  return JSON.stringify(key, (_k, v) => {
    if (typeof v === "bigint") return `${v}n`;
    if (v instanceof Uint8Array) return { bytes: [...v] };
    return v;
  });
}

function watchedAtomic(
  op: Deno.AtomicOperation,
  note: (keys: Deno.KvKey[]) => void,
): Deno.AtomicOperation {
  const keys: Deno.KvKey[] = [];
  const watched: Deno.AtomicOperation = new Proxy(op, {
    get(target, name) {
      if (name === "commit") {
        return async () => {
          const result = await target.commit();
          if (result.ok) note(keys);
          return result;
        };
      }
      if (name === "enqueue") {
        // Nothing to note: a message is not an entry (and the shop uses no queue).
        return (...args: Parameters<Deno.AtomicOperation["enqueue"]>) => {
          target.enqueue(...args);
          return watched;
        };
      }
      if (name === "mutate") {
        return (...mutations: Deno.KvMutation[]) => {
          target.mutate(...mutations);
          keys.push(...mutations.map((m) => m.key));
          return watched;
        };
      }
      if (["set", "delete", "sum", "min", "max"].includes(String(name))) {
        return (key: Deno.KvKey, ...rest: unknown[]) => {
          // deno-lint-ignore no-explicit-any
          (target as any)[name](key, ...rest);
          keys.push(key);
          return watched;
        };
      }
      if (name === "check") {
        return (...checks: Deno.AtomicCheck[]) => {
          target.check(...checks);
          return watched;
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return watched;
}
