import assert from "node:assert/strict";
import { loadOnce } from "../../server/load_once.ts";

Deno.test("a load is started by the first call and shared by every call", async () => {
  let loads = 0;
  const load = loadOnce(() => Promise.resolve(++loads));
  assert.deepEqual(await Promise.all([load(), load(), load()]), [1, 1, 1]);
  assert.equal(await load(), 1);
});

Deno.test("a load that failed is asked again by the next call, and never left unhandled", async () => {
  let loads = 0;
  const load = loadOnce(() =>
    ++loads === 1 ? Promise.reject(new Error("gone")) : Promise.resolve(loads)
  );
  load(); // nobody awaits the failing first load: the test would fail on an unhandled rejection
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(await load(), 2);
});
