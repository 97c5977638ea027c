import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import {
  addPasskeySchema,
  passkeySignInSchema,
  secondStepOptionsSchema,
  secondStepSchema,
  securitySettingsSchema,
  totpCodeSchema,
} from "../../shared/second_factor_schemas.ts";
import type { SecondFactorsView, SecuritySettingsView } from "../../shared/second_factor_views.ts";
import type { AppDeps } from "../deps.ts";
import { openAdminSession } from "../middleware/open_admin_session.ts";
import { actorOf } from "../middleware/actor_context.ts";
import { clientKey } from "../middleware/client_key.ts";
import { passwordCaller } from "../middleware/password_caller.ts";
import { originOf } from "../middleware/shop_origin.ts";
import { validateJson, validateParams } from "../http/validate.ts";
import {
  confirmTotp,
  factorsSummary,
  regenerateRecoveryCodes,
  removeTotp,
  startTotp,
} from "../staff/totp_factor.ts";
import { addPasskey, listPasskeys, registrationOptions, removePasskey } from "../staff/passkeys.ts";
import {
  finishSecondStep,
  passwordlessOptions,
  passwordlessSignIn,
  secondStepPasskeyOptions,
  type SignInRequest,
} from "../staff/second_factor_sign_in.ts";
import { securitySettings, setSecuritySettings } from "../staff/security_settings.ts";

/** The sign-in's view of a request: the limits' caller, the address, the passkeys' origin. */
function signInRequest(c: Context, deps: AppDeps): SignInRequest {
  return {
    kv: deps.kv,
    clock: deps.clock,
    caller: passwordCaller(c, deps.config.production),
    from: clientKey(c),
    origin: originOf(c),
  };
}

/**
 * Second factors: the sign-in's second step and passwordless passkey sign-in (before any session),
 * and each account's own TOTP, passkeys and recovery codes, and the owner's security settings.
 * Who may call which is the role table's (shared/admin_permissions.ts): the sign-in steps are
 * `signed_out`, an account's own factors `own_security`, the settings the owner's.
 */
export function adminFactorRoutes(deps: AppDeps): Hono {
  const { kv, clock } = deps;
  const app = new Hono();

  app.post(
    "/verify/second-factor/options",
    validateJson(secondStepOptionsSchema),
    async (c) =>
      c.json(await secondStepPasskeyOptions(signInRequest(c, deps), c.req.valid("json").challenge)),
  );

  app.post("/verify/second-factor", validateJson(secondStepSchema), async (c) => {
    const body = c.req.valid("json");
    const proof = "code" in body
      ? { code: body.code }
      : { passkey: body.passkey as unknown as AuthenticationResponseJSON };
    const accountId = await finishSecondStep(signInRequest(c, deps), body.challenge, proof);
    await openAdminSession(c, deps, accountId);
    return c.json({ ok: true });
  });

  app.post(
    "/passkey-sign-in/options",
    async (c) => c.json(await passwordlessOptions(signInRequest(c, deps))),
  );

  app.post("/passkey-sign-in", validateJson(passkeySignInSchema), async (c) => {
    const response = c.req.valid("json").passkey as unknown as AuthenticationResponseJSON;
    const accountId = await passwordlessSignIn(signInRequest(c, deps), response);
    await openAdminSession(c, deps, accountId);
    return c.json({ ok: true });
  });

  app.get("/factors", async (c) => {
    const id = actorOf(c).id;
    const summary = await factorsSummary(kv, id);
    return c.json({ ...summary, passkeys: await listPasskeys(kv, id) } satisfies SecondFactorsView);
  });

  app.post("/factors/totp", async (c) => c.json(await startTotp(kv, clock, actorOf(c))));

  app.post("/factors/totp/confirm", validateJson(totpCodeSchema), async (c) => {
    return c.json(await confirmTotp(kv, clock, actorOf(c), c.req.valid("json").code));
  });

  app.delete("/factors/totp", validateJson(totpCodeSchema), async (c) => {
    const caller = passwordCaller(c, deps.config.production);
    await removeTotp(kv, clock, actorOf(c), caller, c.req.valid("json").code);
    return c.json({ ok: true });
  });

  app.post("/factors/recovery-codes", async (c) => {
    return c.json(await regenerateRecoveryCodes(kv, clock, actorOf(c)));
  });

  app.post("/factors/passkeys/options", async (c) => {
    return c.json(await registrationOptions(kv, clock, originOf(c), actorOf(c)));
  });

  app.post("/factors/passkeys", validateJson(addPasskeySchema), async (c) => {
    const { name, response } = c.req.valid("json");
    const added = await addPasskey(
      kv,
      clock,
      originOf(c),
      actorOf(c),
      name,
      response as unknown as RegistrationResponseJSON,
    );
    return c.json(added, 201);
  });

  app.delete(
    "/factors/passkeys/:id",
    validateParams(z.object({ id: z.string().min(1).max(1400) })),
    async (c) => {
      await removePasskey(kv, clock, actorOf(c), c.req.valid("param").id);
      return c.json({ ok: true });
    },
  );

  app.get("/settings/security", async (c) => {
    return c.json((await securitySettings(kv)) satisfies SecuritySettingsView);
  });

  app.put("/settings/security", validateJson(securitySettingsSchema), async (c) => {
    const next = await setSecuritySettings(kv, clock, actorOf(c), c.req.valid("json"));
    return c.json(next satisfies SecuritySettingsView);
  });
  return app;
}
