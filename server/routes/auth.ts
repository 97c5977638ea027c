import { Hono } from "hono";
import {
  deleteAccountSchema,
  loginSchema,
  passwordResetConfirmSchema,
  passwordResetSchema,
  paymentIntentSchema,
  registerSchema,
} from "../../shared/schemas.ts";
import type { RouteDeps } from "../deps.ts";
import { Unauthorized } from "../errors.ts";
import { linkCartToUser } from "../cart/edits.ts";
import { listOrdersOfUser } from "../orders/by_user.ts";
import { publicOrderView } from "../orders/views.ts";
import { hitRateLimit, type RateLimit } from "../kv/rate_limit.ts";
import { beginLoginAttempt, compareWithin } from "../accounts/login_limits.ts";
import {
  checkCredentials,
  createUserSession,
  deleteUserSession,
  registerUser,
} from "../accounts/users.ts";
import { startCheckout } from "../orders/checkout.ts";
import { confirmPasswordReset, requestPasswordReset } from "../accounts/password_reset.ts";
import { deleteMyAccount, exportMyData } from "../accounts/my_data.ts";
import { bearerToken, requireUser } from "../middleware/user_auth.ts";
import { clientBlockOf, clientKey } from "../middleware/client_key.ts";
import { passwordCaller, setKnownDeviceCookie } from "../middleware/password_caller.ts";
import { optionalJson, parseWith, validateJson } from "../http/validate.ts";
import { originOf } from "../middleware/shop_origin.ts";
import type {
  AccountPaymentView,
  AccountView,
  LoginAnswer,
  PaymentsConfigView,
  RegisterAnswer,
} from "../../shared/api_types.ts";

/** Per client: 10 sign-ups per 10 minutes (sign-in limits: login_limits.ts). */
export const REGISTER_LIMIT: RateLimit = { bucket: "register", max: 10, windowMs: 10 * 60_000 };
/**
 * Per block (IPv4 /24, IPv6 /48): 30 sign-ups per 10 minutes. Each costs a password hash, and the
 * 65,536 /64s of one /48 would otherwise start 655,360 of them.
 */
export const REGISTER_BLOCK_LIMIT: RateLimit = {
  bucket: "register-block",
  max: 30,
  windowMs: 10 * 60_000,
};

/**
 * Accounts (docs/product.md#accounts-api, docs/decisions.md#accounts-and-passwords), served under
 * /auth.
 */
export function authRoutes(deps: RouteDeps): Hono {
  const { kv, clock, imageBase } = deps;
  const production = deps.config.production;
  const app = new Hono();

  app.post("/register", validateJson(registerSchema), async (c) => {
    await hitRateLimit(
      kv,
      clock,
      REGISTER_LIMIT,
      clientKey(c),
      "Too many sign-ups. Please wait a few minutes.",
    );
    await hitRateLimit(
      kv,
      clock,
      REGISTER_BLOCK_LIMIT,
      clientBlockOf(c),
      "Too many sign-ups from your network. Please wait a few minutes.",
    );
    const { email, password, user_id } = c.req.valid("json");
    const user = await registerUser(
      kv,
      clock,
      email,
      password,
      user_id ?? null,
      deps.passwordIterations,
    );
    return c.json({ ok: true, userId: user.userId } satisfies RegisterAnswer, 201);
  });

  app.post("/login", validateJson(loginSchema), async (c) => {
    const { email, password, cartId } = c.req.valid("json");
    const attempt = await beginLoginAttempt(kv, clock, email, passwordCaller(c, production));
    const user = await compareWithin(
      attempt,
      () => checkCredentials(kv, email, password, deps.passwordIterations),
    );
    // One answer for an unknown email and a wrong password.
    if (!user) throw new Unauthorized("Invalid email or password");
    await attempt.succeeded();
    setKnownDeviceCookie(c, production, await attempt.rememberDevice());
    const token = await createUserSession(kv, clock, user.userId);
    const joined = await linkCartToUser(kv, clock, user.userId, cartId ?? null);
    return c.json(
      { token, userId: user.userId, email: user.email, cartId: joined } satisfies LoginAnswer,
    );
  });

  app.post("/logout", async (c) => {
    const token = bearerToken(c);
    if (token) await deleteUserSession(kv, token);
    return c.json({ ok: true });
  });

  app.get("/me", async (c) => {
    const user = await requireUser(deps, c);
    return c.json({ userId: user.userId, email: user.email } satisfies AccountView);
  });

  app.get("/me/export", async (c) => {
    const user = await requireUser(deps, c);
    c.header("Content-Disposition", 'attachment; filename="my_data.json"');
    return c.json(await exportMyData(deps, user));
  });

  app.delete("/me", validateJson(deleteAccountSchema), async (c) => {
    const user = await requireUser(deps, c);
    // Limited like a sign-in: the password is checked the same way.
    const attempt = await beginLoginAttempt(kv, clock, user.email, passwordCaller(c, production));
    await compareWithin(attempt, () => deleteMyAccount(deps, user, c.req.valid("json").password));
    await attempt.succeeded();
    return c.json({ ok: true });
  });

  app.post("/password-reset", validateJson(passwordResetSchema), async (c) => {
    await requestPasswordReset(deps, c.req.valid("json").email, clientKey(c), originOf(c));
    return c.json({ ok: true });
  });

  app.post("/password-reset/confirm", validateJson(passwordResetConfirmSchema), async (c) => {
    const { token, password } = c.req.valid("json");
    await confirmPasswordReset(deps, token, password);
    return c.json({ ok: true });
  });

  app.get("/orders", async (c) => {
    const user = await requireUser(deps, c);
    const orders = await listOrdersOfUser(kv, user.userId);
    return c.json(
      orders.map((o) =>
        publicOrderView(o, imageBase, clock.now(), deps.config.holdExtensionMinutes)
      ),
    );
  });

  app.post("/create-payment-intent", async (c) => {
    const user = await requireUser(deps, c);
    const raw = await optionalJson(c.req);
    // Only an empty object asks for the configuration; an array is a malformed body.
    const empty = typeof raw === "object" && raw !== null && !Array.isArray(raw) &&
      Object.keys(raw).length === 0;
    if (empty) {
      return c.json(
        {
          publishableKey: deps.payments.publishableKey,
          provider: deps.payments.name,
        } satisfies PaymentsConfigView,
      );
    }
    const body = parseWith(paymentIntentSchema, raw);
    const { order, payment } = await startCheckout(deps, {
      cartId: body.cart_data.cartId,
      region: "us",
      mode: "embedded",
      origin: originOf(c),
      client: clientKey(c),
      email: body.email,
      customerName: body.name,
      address: {
        street: body.address,
        apartment: body.apartment ?? "",
        city: body.city,
        state: body.state ?? "",
        zipCode: body.zipcode,
        country: "US",
      },
      promoCode: body.promoCode,
      userId: user.userId,
    });
    return c.json(
      {
        // An embedded payment (a payment intent) always has its client secret.
        clientSecret: payment.clientSecret!,
        orderNumber: order.orderNumber,
        paymentIntentId: payment.id,
      } satisfies AccountPaymentView,
    );
  });
  return app;
}
