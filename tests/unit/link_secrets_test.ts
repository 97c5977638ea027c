import assert from "node:assert/strict";
import { hideLinkSecrets } from "../../server/email/link_secrets.ts";

Deno.test("every link's token is hidden; the rest of the link and the text stay", () => {
  const cases: [string, string][] = [
    [
      "Reset: https://shop.example/restore-password?token=abc_DEF-123 (an hour)",
      "Reset: https://shop.example/restore-password?token=[hidden] (an hour)",
    ],
    [
      "/stock-alerts/unsubscribe?token=x1&switch=4#top",
      "/stock-alerts/unsubscribe?token=[hidden]&switch=4#top",
    ],
    [
      '<a href="/stock-alerts/confirm?a=1&TOKEN=s3cr3t">',
      '<a href="/stock-alerts/confirm?a=1&TOKEN=[hidden]">',
    ],
    ["two: ?token=a and ?token=b", "two: ?token=[hidden] and ?token=[hidden]"],
    ["no link here, token=plain words", "no link here, token=plain words"],
    ["?mytoken=keep", "?mytoken=keep"],
  ];
  for (const [text, shown] of cases) assert.equal(hideLinkSecrets(text), shown);
});
