/**
 * The API's answers are declared once (shared/api_types.ts) and the server builds them with
 * `satisfies`: a route whose answer drifts from the declared shape fails the type check, before
 * any client reads it. Proved on a copy of a real route with one field renamed.
 */
import assert from "node:assert/strict";

/** The demo provider's routes (its session view is the probe's subject). */
const ROUTES = new URL("../../server/payments/demo/", import.meta.url);

/**
 * Type-checks each source as a module beside the real route (so its relative imports resolve), in
 * one `deno check` (the type checker's start is most of a check's 2.5 s of CPU); answers the output
 * and the probe file each source was written to. The probes are removed whatever happens.
 */
async function typeCheck(
  sources: string[],
): Promise<{ ok: boolean; output: string; files: string[] }> {
  const probes = sources.map(() => new URL(`contract_probe_${crypto.randomUUID()}.ts`, ROUTES));
  try {
    for (const [i, probe] of probes.entries()) await Deno.writeTextFile(probe, sources[i]);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", ...probes.map((p) => p.pathname)],
      cwd: new URL("../../", import.meta.url).pathname,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const output = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return { ok: out.success, output, files: probes.map((p) => p.pathname) };
  } finally {
    for (const probe of probes) await Deno.remove(probe).catch(() => {});
  }
}

Deno.test("a route answering a shape other than the declared one fails the type check", async () => {
  const route = await Deno.readTextFile(new URL("routes.ts", ROUTES));
  assert.match(route, /status: payment\.status,/, "the probe edits this line");
  const drifted = route.replace("status: payment.status,", "state: payment.status,");
  const { ok, output, files: [unchangedFile, driftedFile] } = await typeCheck([route, drifted]);
  assert.equal(ok, false, "a renamed field must not type-check");
  assert.match(output, /DemoSessionView/);
  // The checker reports every file's errors where they are: each is in the drifted copy, so the
  // copy left as it is (and everything both import) type-checks.
  const places = [...output.matchAll(/at file:\/\/(\S+?):\d+:\d+/g)].map((m) => m[1]);
  assert.ok(places.length > 0, output);
  assert.deepEqual(places.filter((p) => p !== driftedFile), [], output);
  assert.ok(!output.includes(unchangedFile), output);
});
