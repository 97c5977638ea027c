import assert from "node:assert/strict";
import { builtClientResult } from "../helpers/shop_process.ts";

/**
 * The JavaScript a shopper may download for the home page, gzip (React alone is about 69 KB).
 * 100 KB until the drops' waiting room: the route table every page loads names each page, and
 * that page's entry and route (about 80 bytes) did not fit in the 27 bytes left.
 */
const HOME_BUDGET_GZIP = 101 * 1024;

const { result } = await builtClientResult();
const outputs = result.metafile.outputs;
const gzipOf = new Map(result.sizes.map((s) => [s.file, s.gzipBytes]));
const fileOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

function outputFor(entry: string): string {
  const found = Object.entries(outputs).find(([, o]) => o.entryPoint?.endsWith(entry));
  assert.ok(found, `the build has an output for ${entry}`);
  return found[0];
}

/** An output and everything it statically imports: what loading it downloads. */
function closure(output: string, seen = new Set<string>()): Set<string> {
  if (seen.has(output)) return seen;
  seen.add(output);
  for (const imp of outputs[output].imports) {
    if (imp.kind === "import-statement" && !imp.external) closure(imp.path, seen);
  }
  return seen;
}

function inputsOf(files: Set<string>): string[] {
  return [...files].flatMap((f) => Object.keys(outputs[f].inputs));
}

const main = closure(outputFor("client/main.tsx"));
const home = closure(outputFor("client/features/content/home_page.tsx"));
const homeFiles = new Set([...main, ...home].filter((f) => f.endsWith(".js")));

Deno.test(`the home page downloads at most ${HOME_BUDGET_GZIP / 1024} KB of JavaScript (gzip)`, () => {
  const total = [...homeFiles].reduce((sum, f) => sum + (gzipOf.get(fileOf(f)) ?? 0), 0);
  console.log(
    `home page JavaScript: ${(total / 1024).toFixed(1)} KB gzip in ${homeFiles.size} files`,
  );
  assert.ok(total <= HOME_BUDGET_GZIP, `${(total / 1024).toFixed(1)} KB is over the budget`);
});

Deno.test("recharts is only in the admin chunks, Stripe only in the checkout chunks", () => {
  const lazyEntries = Object.entries(outputs)
    .filter(([, o]) => o.entryPoint && !o.entryPoint.endsWith("client/main.tsx"));
  assert.ok(lazyEntries.length > 10, "pages are split into lazy chunks");
  for (const [file, out] of lazyEntries) {
    const inputs = inputsOf(closure(file));
    const entry = out.entryPoint!;
    if (!entry.includes("features/admin/")) {
      assert.ok(!inputs.some((i) => i.includes("recharts")), `${entry} must not pull recharts`);
    }
    if (!entry.includes("features/checkout/")) {
      assert.ok(!inputs.some((i) => /@stripe|stripe-js/.test(i)), `${entry} must not pull Stripe`);
    }
  }
  const shopper = inputsOf(main);
  assert.ok(!shopper.some((i) => /recharts|@stripe|\/zod@/.test(i)), "the entry has none of them");
});
