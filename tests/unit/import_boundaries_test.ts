/**
 * Where code may import from, checked on the source: client features stay apart (shared client
 * code lives in client/app/), the browser never bundles server code, shared/ depends on neither
 * side, and the server's rooms stand in layers that import only downwards (docs/architecture.md).
 * A failing case names the file and the import that crosses the line.
 */
import assert from "node:assert/strict";
import { dirname, relative, resolve } from "node:path";

const ROOT = resolve(new URL("../../", import.meta.url).pathname);

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sourceFiles(path);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield path;
  }
}

/** Every relative import of a file, resolved to a path from `root`. */
async function importsOf(root: string, file: string): Promise<string[]> {
  const source = await Deno.readTextFile(file);
  const specifiers = [
    ...source.matchAll(/(?:import|export)[^"';]*?from\s*["']([^"']+)["']/g),
    ...source.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g),
  ].map((m) => m[1]);
  return specifiers.filter((s) => s.startsWith("."))
    .map((s) => relative(root, resolve(dirname(file), s)));
}

/** `file imports target` for every import of a file under `dir` that `forbidden` rejects. */
async function crossings(
  dir: string,
  forbidden: (from: string, to: string) => boolean,
  root = ROOT,
): Promise<string[]> {
  const found: string[] = [];
  for await (const file of sourceFiles(`${root}/${dir}`)) {
    const from = relative(root, file);
    for (const to of await importsOf(root, file)) {
      if (forbidden(from, to)) found.push(`${from} imports ${to}`);
    }
  }
  return found;
}

function featureOf(path: string): string | null {
  return path.match(/^client\/features\/([^/]+)\//)?.[1] ?? null;
}

Deno.test("a client feature imports no other feature (shared client code lives in client/app)", async () => {
  const found = await crossings("client", (from, to) => {
    const [source, target] = [featureOf(from), featureOf(to)];
    // client/app (the router) composes the features; a feature must not reach into another.
    return source !== null && target !== null && target !== source;
  });
  assert.deepEqual(found, []);
});

Deno.test("the browser's code imports nothing from server/", async () => {
  const found = await crossings(
    "client",
    (from, to) => from !== "client/build.ts" && to.startsWith("server/"),
  );
  assert.deepEqual(found, []);
});

Deno.test("shared/ imports neither the server nor the client", async () => {
  const found = await crossings(
    "shared",
    (_from, to) => to.startsWith("server/") || to.startsWith("client/"),
  );
  assert.deepEqual(found, []);
});

Deno.test("the server imports no client code but the app it renders (server/ssr) and the dev loop", async () => {
  const found = await crossings(
    "server",
    (from, to) =>
      to.startsWith("client/") && from !== "server/dev.ts" &&
      !(from.startsWith("server/ssr/") && to.startsWith("client/app/")),
  );
  assert.deepEqual(found, []);
});

/**
 * The server's rooms (a folder, or a file at the top of server/), lowest first. A room imports only
 * from rooms of lower layers: rooms of one layer do not import each other, and nothing imports
 * back up. A new room must be placed here before it can import or be imported.
 */
const SERVER_LAYERS: readonly (readonly string[])[] = [
  // Ground: errors, time, logs, ids, CSV fields, addresses, generated images, telemetry, loading
  // a library when first needed.
  [
    "errors.ts",
    "clock.ts",
    "log.ts",
    "crypto.ts",
    "csv.ts",
    "net",
    "images",
    "telemetry.ts",
    "load_once.ts",
  ],
  // Plumbing, no rule: KV keys and helpers, request validation, the admin password's hashing.
  ["kv", "http", "password_gate.ts"],
  // The audit log: every wing's admin writes add their entry to their own atomic write.
  ["audit"],
  // The catalogue's records (read by every wing) and the email outbox.
  ["catalog", "email"],
  // Stock: every stock record is built here. Contact messages.
  ["stock", "contact"],
  // Drops: a limited run through a waiting room; the cart's gate and the checkout's limit read it.
  ["drops"],
  // Carts; the catalogue as shoppers see it (with availability) and as the owner edits it.
  ["cart", "listings"],
  ["promos"],
  // Payment providers and their registry; a provider's pages reach orders only through a desk.
  ["payments"],
  ["deps.ts"],
  // The order workflows; reading the environment.
  ["orders", "config.ts"],
  ["accounts", "reports", "ops", "queue.ts"],
  // The dashboard's people and scripts: staff accounts, second factors, API keys.
  ["staff"],
  ["middleware"],
  ["ssr"],
  ["routes", "dev_reload.ts"],
  ["app.ts", "dev.ts"],
  ["main.ts"],
];

/** The room of a server path: its top folder under server/, or the file itself. */
function roomOf(path: string): string | null {
  const m = path.match(/^server\/([^/]+)(\/)?/);
  return m ? m[1] : null;
}

function layerOf(room: string): number {
  return SERVER_LAYERS.findIndex((rooms) => rooms.includes(room));
}

/** An import between two server rooms that does not run downwards, or names an unplaced room. */
function runsUpward(from: string, to: string): boolean {
  const [source, target] = [roomOf(from), roomOf(to)];
  if (source === null || target === null || source === target) return false;
  const [a, b] = [layerOf(source), layerOf(target)];
  return a < 0 || b < 0 || b >= a;
}

Deno.test("the server's rooms import only from lower layers", async () => {
  assert.deepEqual(await crossings("server", runsUpward), []);
});

Deno.test("every room of server/ has its place in the layers", async () => {
  const rooms = new Set<string>();
  for await (const file of sourceFiles(`${ROOT}/server`)) rooms.add(roomOf(relative(ROOT, file))!);
  const unplaced = [...rooms].filter((room) => layerOf(room) < 0);
  assert.deepEqual(unplaced, []);
});

Deno.test("only the stock wing reads or writes stock records", async () => {
  const found: string[] = [];
  for await (const file of sourceFiles(`${ROOT}/server`)) {
    const path = relative(ROOT, file);
    if (path.startsWith("server/stock/")) continue;
    const source = await Deno.readTextFile(file);
    if (/keys\.stocks?\(/.test(source)) found.push(path);
  }
  assert.deepEqual(found, []);
});

Deno.test("the layer check sees a back-up import: stock importing the orders is found", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/server/stock`, { recursive: true });
    await Deno.mkdir(`${root}/server/orders`, { recursive: true });
    await Deno.writeTextFile(
      `${root}/server/stock/store.ts`,
      'import type { Order } from "../orders/order.ts";\nimport { keys } from "../kv/keys.ts";\n',
    );
    await Deno.writeTextFile(
      `${root}/server/orders/order.ts`,
      'import { freeUnits } from "../stock/store.ts";\n',
    );
    const found = await crossings("server", runsUpward, root);
    assert.deepEqual(found, ["server/stock/store.ts imports server/orders/order.ts"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the checks see imports: a crossing in a fixture file is found", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/client/features/orders`, { recursive: true });
    await Deno.writeTextFile(
      `${root}/client/features/orders/x.ts`,
      'import { a } from "../cart/cart_page.tsx";\n',
    );
    const found = await crossings("client", (from, to) => {
      const [source, target] = [featureOf(from), featureOf(to)];
      return source !== null && target !== null && target !== source;
    }, root);
    assert.equal(found.length, 1);
    assert.match(found[0], /imports client\/features\/cart\/cart_page\.tsx$/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
