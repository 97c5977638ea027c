import assert from "node:assert/strict";
import { buildQuery, readBuildLink } from "../../shared/build_link.ts";

Deno.test("a build link round-trips size, keycaps, colour and switches", () => {
  const query = buildQuery({
    size: 15,
    keycaps: "transparent",
    bodyColor: "black",
    switchIds: [3, 1, 2],
  });
  assert.deepEqual(readBuildLink(new URLSearchParams(query), "tester"), {
    size: 15,
    keycaps: "transparent",
    bodyColor: "black",
    switchIds: [3, 1, 2],
    dropped: [],
  });
});

Deno.test("a bad link keeps what is valid and says what it dropped", () => {
  const ids = Array.from({ length: 25 }, (_, i) => i + 1).join(",");
  const link = readBuildLink(
    new URLSearchParams(`size=12&keycaps=gold&body=pink&switches=${ids},x,<b>,1`),
    "tester",
  );
  assert.equal(link.size, undefined);
  assert.equal(link.keycaps, undefined);
  assert.equal(link.bodyColor, undefined);
  assert.equal(link.switchIds.length, 20);
  assert.deepEqual(link.dropped, [
    'the size "12"',
    'the keycaps "gold"',
    'the body colour "pink"',
    "2 unreadable switch ids",
    "5 switches past 20",
  ]);
  assert.equal(readBuildLink(new URLSearchParams("keycaps=pastel"), "cube").keycaps, "pastel");
  assert.deepEqual(readBuildLink(new URLSearchParams("keycaps=pastel"), "tester").dropped, [
    'the keycaps "pastel"',
  ]);
});
