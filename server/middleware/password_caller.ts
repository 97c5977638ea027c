import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { Caller } from "../accounts/login_limits.ts";
import { KNOWN_DEVICE_MS } from "../accounts/known_devices.ts";
import { clientBlockOf, clientKey } from "./client_key.ts";

/** The known-device cookie's name: `__Host-` binds it to this origin over HTTPS (production). */
export function knownDeviceCookieName(production: boolean): string {
  return production ? "__Host-known_device" : "known_device";
}

/** Who is trying a password in this request, for the sign-in limits (login_limits.ts). */
export function passwordCaller(c: Context, production: boolean): Caller {
  return {
    client: clientKey(c),
    block: clientBlockOf(c),
    device: getCookie(c, knownDeviceCookieName(production)),
  };
}

/**
 * Sets the known-device cookie after a successful sign-in: HttpOnly (no script reads it),
 * SameSite=Strict, kept as long as the device stays known.
 */
export function setKnownDeviceCookie(c: Context, production: boolean, token: string): void {
  setCookie(c, knownDeviceCookieName(production), token, {
    httpOnly: true,
    sameSite: "Strict",
    secure: production,
    path: "/",
    maxAge: KNOWN_DEVICE_MS / 1000,
  });
}
