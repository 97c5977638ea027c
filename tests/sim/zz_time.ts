import { runHistories } from "./history.ts";
const t0 = performance.now();
const r = await runHistories({ seed: 20261126, runs: Number(Deno.env.get("RUNS") ?? 100), length: { min: 40, max: 56 } });
const S = (globalThis as any).S;
console.log(r.ok, (performance.now() - t0).toFixed(0));
for (const [k, v] of Object.entries(S).sort((a: any, b: any) => b[1] - a[1])) console.log(Math.round(v as number), k);
