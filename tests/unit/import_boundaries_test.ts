/**
 * Where code may import from, checked on the source: client features stay apart (shared client
 * code lives in client/app/), the browser never bundles server code, and shared/ depends on
 * neither side. A failing case names the file and the import that crosses the line.
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
