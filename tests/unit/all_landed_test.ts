/**
 * allLanded (server/kv/kv_util.ts): writes started together have all landed before the caller
 * answers, even when one of them refused.
 */
import assert from "node:assert/strict";
import { allLanded } from "../../server/kv/kv_util.ts";

/** Lets every queued continuation run (one turn of the event loop; no time passes). */
function turn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

Deno.test("a refusal is answered only once the other writes have landed", async () => {
  const refused = Promise.withResolvers<number>();
  const slow = Promise.withResolvers<number>();
  let answered = false;
  const all = allLanded([refused.promise, slow.promise]).finally(() => answered = true);
  all.catch(() => {});
  refused.reject(new Error("limit reached"));
  await turn();
  assert.equal(answered, false, "still waiting for the other write");
  slow.resolve(2);
  await assert.rejects(all, /limit reached/);
});

Deno.test("every value, in the order given, once all have landed", async () => {
  const first = Promise.withResolvers<string>();
  const second = Promise.withResolvers<string>();
  const all = allLanded([first.promise, second.promise]);
  second.resolve("b");
  first.resolve("a");
  assert.deepEqual(await all, ["a", "b"]);
});

Deno.test("of several refusals, the first in the order given is thrown", async () => {
  await assert.rejects(
    allLanded([
      Promise.resolve(1),
      Promise.reject(new Error("one")),
      Promise.reject(new Error("two")),
    ]),
    /one/,
  );
});
