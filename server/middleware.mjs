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

/**
 * Refuses state-changing requests from other origins (CSRF): a browser always sends Origin on
 * a cross-origin POST, and Sec-Fetch-Site when it leaves Origin out.
 * @param {string} appUrl
 * @returns {import("express").RequestHandler}
 */
export function sameOrigin(appUrl) {
  const allowed = new URL(appUrl).origin;
  return (req, res, next) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
    const origin = req.headers.origin;
    const site = req.headers["sec-fetch-site"];
    if ((origin && origin !== allowed) || (!origin && site === "cross-site")) {
      res.status(403).json({ error: "Cross-origin request refused" });
      return;
    }
    next();
  };
}
