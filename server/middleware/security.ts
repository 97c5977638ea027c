import { secureHeaders } from "hono/secure-headers";
import { THEME_SCRIPT_SOURCE } from "../ssr/theme_script.ts";
import { APP_LOADER_SOURCE } from "../ssr/app_loader.ts";

const STRIPE_HOSTS = ["https://js.stripe.com", "https://hooks.stripe.com"];

/**
 * Security headers for every response. The CSP allows only the shop itself and Stripe's hosts,
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
      scriptSrc: ["'self'", THEME_SCRIPT_SOURCE, APP_LOADER_SOURCE, ...STRIPE_HOSTS],
      // React applies style attributes (and Stripe injects styles).
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "https://*.stripe.com", ...(imageBaseUrl ? [imageBaseUrl] : [])],
      connectSrc: ["'self'", "https://api.stripe.com"],
      frameSrc: STRIPE_HOSTS,
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  });
}
