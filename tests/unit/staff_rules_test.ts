/**
 * The staff wing's pure rules: what a session's device reads as, who may see and end a session,
 * and the owner-only refusal that names the role needed.
 */
import assert from "node:assert/strict";
import { deviceName } from "../../server/accounts/device_name.ts";
import { maySeeSession } from "../../server/staff/staff_sessions.ts";
import { requireOwnerRole } from "../../server/staff/owner_only.ts";
import type { Actor } from "../../server/audit/actor.ts";
import { Forbidden } from "../../server/errors.ts";

Deno.test("a device reads as its browser and system, the look-alikes told apart", () => {
  const cases: [string | undefined, string][] = [
    ["Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox on Linux"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
      "Chrome on macOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Safari on iOS",
    ],
    ["curl/8.5.0", "curl"],
    ["", "Unknown device"],
    [undefined, "Unknown device"],
  ];
  for (const [ua, name] of cases) assert.equal(deviceName(ua), name, String(ua));
});

const from = "127.0.0.1";
const owner: Actor = { kind: "owner", id: "owner", name: "Owner", role: "owner", from };
const helper: Actor = { kind: "staff", id: "m1", name: "h@example.com", role: "staff", from };
const promoted: Actor = { ...helper, id: "m2", role: "owner" };

Deno.test("an account sees its own sessions; the owner role sees everyone's", () => {
  assert.equal(maySeeSession(helper, { accountId: "m1" }), true);
  assert.equal(maySeeSession(helper, { accountId: "owner" }), false);
  assert.equal(maySeeSession(helper, { accountId: "m2" }), false);
  assert.equal(maySeeSession(owner, { accountId: "m1" }), true);
  assert.equal(maySeeSession(promoted, { accountId: "m1" }), true);
});

Deno.test("the owner's actions refuse other roles with a 403 naming the owner role", () => {
  requireOwnerRole(owner, "Managing staff");
  requireOwnerRole(promoted, "Managing staff");
  assert.throws(
    () => requireOwnerRole(helper, "Managing staff"),
    (err) => err instanceof Forbidden && /Managing staff needs the Owner role/.test(err.message),
  );
});
