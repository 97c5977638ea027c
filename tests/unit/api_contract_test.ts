/**
 * The API's answers are declared once (shared/api_types.ts) and the server builds them with
 * `satisfies`: a route whose answer drifts from the declared shape fails the type check, before
 * any client reads it. Proved on a copy of a real route with one field renamed.
 */
import assert from "node:assert/strict";

/** The demo provider's routes (its session view is the probe's subject). */
const ROUTES = new URL("../../server/payments/demo/", import.meta.url);

async function typeCheck(source: string): Promise<{ ok: boolean; output: string }> {
  // Next to the real route, so its relative imports resolve; removed whatever happens.
  const probe = new URL(`contract_probe_${crypto.randomUUID()}.ts`, ROUTES);
  await Deno.writeTextFile(probe, source);
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", probe.pathname],
      cwd: new URL("../../", import.meta.url).pathname,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const output = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return { ok: out.success, output };
  } finally {
    await Deno.remove(probe);
  }
}

Deno.test("a route answering a shape other than the declared one fails the type check", async () => {
  const route = await Deno.readTextFile(new URL("routes.ts", ROUTES));
  assert.match(route, /status: payment\.status,/, "the probe edits this line");
  const unchanged = await typeCheck(route);
  assert.ok(unchanged.ok, unchanged.output);
  const drifted = await typeCheck(
    route.replace("status: payment.status,", "state: payment.status,"),
  );
  assert.equal(drifted.ok, false, "a renamed field must not type-check");
  assert.match(drifted.output, /DemoSessionView/);
});
