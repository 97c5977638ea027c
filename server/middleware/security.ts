import { secureHeaders } from "hono/secure-headers";
import { THEME_SCRIPT_SOURCE } from "../ssr/theme_script.ts";
import { APP_LOADER_SOURCE } from "../ssr/app_loader.ts";
import { paymentCspHosts } from "../payments/registry.ts";

const PAYMENTS = paymentCspHosts();

/**
 * Security headers for every response. The CSP allows only the shop itself and the payment
 * providers' hosts (each provider names its own: server/payments/registry.ts),
 * with no inline script but the theme script and the app loader (allowed by their hashes); HSTS is sent only in production, where the shop is behind HTTPS. A
 * route that sets a header itself keeps it (the generated SVGs send a stricter CSP of their own).
 */
export function securityHeaders(production: boolean, imageBaseUrl: string | undefined) {
  return secureHeaders({
    overwrite: false,
    strictTransportSecurity: production ? "max-age=31536000; includeSubDomains" : false,
    xFrameOptions: "DENY",
    referrerPolicy: "strict-origin-when-cross-origin",
    crossOriginEmbedderPolicy: false,
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", THEME_SCRIPT_SOURCE, APP_LOADER_SOURCE, ...PAYMENTS.script],
      // React applies style attributes (and payment forms inject styles).
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", ...PAYMENTS.img, ...(imageBaseUrl ? [imageBaseUrl] : [])],
      connectSrc: ["'self'", ...PAYMENTS.connect],
      frameSrc: PAYMENTS.frame,
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  });
}
