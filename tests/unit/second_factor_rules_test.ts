import assert from "node:assert/strict";
import {
  acceptedTotpStep,
  looksLikeTotp,
  newTotpSecret,
  TOTP_STEP_MS,
  totpCode,
  totpUri,
} from "../../server/staff/totp.ts";
import {
  hashRecoveryCode,
  looksLikeRecoveryCode,
  newRecoveryCodes,
  normaliseRecoveryCode,
  RECOVERY_CODE_COUNT,
} from "../../server/staff/recovery_codes.ts";
import { enrolmentPath } from "../../server/staff/enrolment_gate.ts";
import { hasSecondFactor, methodsOf } from "../../server/staff/second_factors.ts";

const AT = Date.UTC(2026, 10, 21, 12, 0, 10);
const STEP = Math.floor(AT / TOTP_STEP_MS);

Deno.test("TOTP: the current step's code, and one step either side, are accepted", () => {
  const secret = newTotpSecret();
  assert.equal(acceptedTotpStep(secret, totpCode(secret, AT), AT, undefined), STEP);
  assert.equal(acceptedTotpStep(secret, totpCode(secret, AT - 30_000), AT, undefined), STEP - 1);
  assert.equal(acceptedTotpStep(secret, totpCode(secret, AT + 30_000), AT, undefined), STEP + 1);
  assert.equal(acceptedTotpStep(secret, totpCode(secret, AT - 60_000), AT, undefined), null);
});

Deno.test("TOTP: a step at or before the last used one is refused (no replay)", () => {
  const secret = newTotpSecret();
  const code = totpCode(secret, AT);
  assert.equal(acceptedTotpStep(secret, code, AT, STEP), null);
  assert.equal(acceptedTotpStep(secret, code, AT, STEP - 1), STEP);
  assert.equal(acceptedTotpStep(secret, totpCode(secret, AT - 30_000), AT, STEP - 1), null);
});

Deno.test("TOTP: spaces as apps show them are fine; other shapes are never compared", () => {
  const secret = newTotpSecret();
  const code = totpCode(secret, AT);
  assert.equal(
    acceptedTotpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, AT, undefined),
    STEP,
  );
  assert.equal(acceptedTotpStep(secret, `${code}0`, AT, undefined), null);
  assert.equal(looksLikeTotp("12a456"), false);
  assert.match(totpUri(secret, "Owner"), /^otpauth:\/\/totp\/.*secret=/);
});

Deno.test("recovery codes: ten different, typed in any case and with or without the dash", async () => {
  const codes = newRecoveryCodes();
  assert.equal(codes.length, RECOVERY_CODE_COUNT);
  assert.equal(new Set(codes).size, RECOVERY_CODE_COUNT);
  for (const code of codes) {
    assert.match(code, /^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
    assert.ok(looksLikeRecoveryCode(code.toLowerCase()));
  }
  assert.equal(normaliseRecoveryCode(" abcde-fghjk "), "ABCDEFGHJK");
  assert.equal(await hashRecoveryCode("abcde fghjk"), await hashRecoveryCode("ABCDE-FGHJK"));
  assert.equal(looksLikeRecoveryCode("123456"), false, "a TOTP code is never a recovery code");
});

Deno.test("factors: codes alone are no factor; methods follow what the account has", () => {
  const none = { passkeys: [], recoveryCodes: ["h"] };
  assert.equal(hasSecondFactor(none), false);
  const totp = { ...none, totp: { secret: "S", addedAt: 0 } };
  assert.equal(hasSecondFactor(totp), true);
  assert.deepEqual(methodsOf(totp), ["totp", "recovery_code"]);
});

Deno.test("enrolment: only the factor routes, the session view and sign-out stay open", () => {
  for (
    const open of [
      "/api/admin/factors",
      "/api/admin/factors/passkeys/abc",
      "/api/admin/session",
      "/api/admin/logout",
    ]
  ) {
    assert.ok(enrolmentPath(open), open);
  }
  for (const shut of ["/api/admin/orders", "/api/admin/factorsx", "/api/admin/settings/security"]) {
    assert.equal(enrolmentPath(shut), false, shut);
  }
});
