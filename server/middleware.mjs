// Express middlewares of server/index.mjs, apart so tests can mount them on a small app.
import { randomBytes } from "node:crypto";

/**
 * Security headers for every response; the CSP nonce is shared with the Remix render. HSTS only
 * when served over https (it would pin a plain-http local run otherwise).
 * @param {{ dev?: boolean; secure: boolean; oidcIssuer?: string; formTargets?: string[] }} options
 * @returns {import("express").RequestHandler}
 */
export function securityHeaders({ dev, secure, oidcIssuer, formTargets: extra = [] }) {
  // Forms may also end in a redirect to the identity provider (logout) or an external studio.
  const formTargets = ["'self'", ...extra];
  if (oidcIssuer) formTargets.push(new URL(oidcIssuer).origin);
  return (req, res, next) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
    if (secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    if (!dev) {
      res.setHeader(
        "Content-Security-Policy",
        [
          "default-src 'self'",
          `script-src 'self' 'nonce-${nonce}'`,
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data: https:",
          "font-src 'self' data:",
          "connect-src 'self'",
          "media-src 'self' https:",
          "frame-src https://www.youtube-nocookie.com",
          "frame-ancestors 'none'",
          "base-uri 'self'",
          "object-src 'none'",
          `form-action ${formTargets.join(" ")}`,
        ].join("; "),
      );
    }
    next();
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests (CSRF) unless they show they come from the app's own pages:
 * an Origin equal to APP_URL's, or, when a browser leaves Origin out, Sec-Fetch-Site:
 * same-origin. A request with neither is refused too, since nothing vouches for it.
 * @param {string} appUrl
 * @returns {import("express").RequestHandler}
 */
export function sameOrigin(appUrl) {
  const allowed = new URL(appUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.headers.origin;
    const ok =
      origin !== undefined ? origin === allowed : req.headers["sec-fetch-site"] === "same-origin";
    if (!ok) {
      res.status(403).json({ error: "Cross-origin request refused" });
      return;
    }
    next();
  };
}
