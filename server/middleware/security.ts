import { secureHeaders } from "hono/secure-headers";

/** What the CSP lets in besides the shop itself: given by the app, which knows who needs what. */
export interface CspAllowances {
  /** `'sha256-…'` sources of the inline scripts the pages carry (the theme script, the loader). */
  inlineScripts: string[];
  /** The payment providers' hosts (each provider names its own in server/payments/registry.ts). */
  payments: { script: string[]; frame: string[]; img: string[]; connect: string[] };
  /** Where product images are served from, when not from the shop. */
  imageBaseUrl: string | undefined;
}

/**
 * Security headers for every response. The CSP allows only the shop itself and the payment
 * providers' hosts, with no inline script but those allowed by their hashes; HSTS is sent only in
 * production, where the shop is behind HTTPS. A route that sets a header itself keeps it (the
 * generated SVGs send a stricter CSP of their own).
 */
export function securityHeaders(production: boolean, allow: CspAllowances) {
  const { payments, inlineScripts, imageBaseUrl } = allow;
  return secureHeaders({
    overwrite: false,
    strictTransportSecurity: production ? "max-age=31536000; includeSubDomains" : false,
    xFrameOptions: "DENY",
    referrerPolicy: "strict-origin-when-cross-origin",
    crossOriginEmbedderPolicy: false,
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...inlineScripts, ...payments.script],
      // React applies style attributes (and payment forms inject styles).
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", ...payments.img, ...(imageBaseUrl ? [imageBaseUrl] : [])],
      connectSrc: ["'self'", ...payments.connect],
      frameSrc: payments.frame,
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  });
}
