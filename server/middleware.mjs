// Express middlewares of server/index.mjs, apart so tests can mount them on a small app.
import { randomBytes, randomUUID } from "node:crypto";
import helmet from "helmet";
import ipaddr from "ipaddr.js";

/**
 * Security headers for every response, set by helmet (decision 013); the CSP nonce is made here
 * per request and shared with the Remix render (res.locals.cspNonce). No CSP in dev, as before;
 * HSTS only when served over https (it would pin a plain-http local run otherwise).
 * @param {{ dev?: boolean; secure: boolean; oidcIssuer?: string; formTargets?: string[] }} options
 * @returns {import("express").RequestHandler}
 */
export function securityHeaders({ dev, secure, oidcIssuer, formTargets: extra = [] }) {
  // Forms may also end in a redirect to the identity provider (logout) or an external studio.
  const formTargets = ["'self'", ...extra];
  if (oidcIssuer) formTargets.push(new URL(oidcIssuer).origin);
  const headers = helmet({
    contentSecurityPolicy: dev
      ? false
      : {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: [
              "'self'",
              (_req, res) =>
                `'nonce-${/** @type {import("express").Response} */ (res).locals.cspNonce}'`,
            ],
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", "data:", "https:"],
            fontSrc: ["'self'", "data:"],
            connectSrc: ["'self'"],
            mediaSrc: ["'self'", "https:"],
            frameSrc: ["https://www.youtube-nocookie.com"],
            frameAncestors: ["'none'"],
            baseUri: ["'self'"],
            objectSrc: ["'none'"],
            formAction: formTargets,
          },
        },
    // Windows the app opens ('Take me to Studio') keep their opener, as before.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: secure ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: "deny" },
  });
  return (req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    headers(req, res, (error) => {
      // Hosted sites on other origins load the analytics script and pixel.
      if (CROSS_ORIGIN_RESOURCES.test(req.path)) {
        res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
      }
      next(error);
    });
  };
}

/** What other sites embed: the page-view script and the <noscript> pixel. */
const CROSS_ORIGIN_RESOURCES = /^\/analytics(\.js|\/collect\/?)$/;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/**
 * The public endpoints hosted sites post to (forms, page views); their routes allow only the
 * sites' own origins (CORS).
 */
const PUBLIC_POSTS = /^\/(forms\/[^/]+|analytics\/collect)\/?$/;
/**
 * The unsubscribe address of notification mails: RFC 8058's one-click POST comes from the mail
 * provider's servers, with neither Origin nor Sec-Fetch-Site, and must work. The route itself
 * reads no session (the token in the path is the only proof) and holds its own page's form to
 * this same rule (app/routes/notifications.unsubscribe.$token.tsx).
 */
const ONE_CLICK_UNSUBSCRIBE = /^\/notifications\/unsubscribe\/[^/]+\/?$/;

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
    if (SAFE_METHODS.has(req.method) || PUBLIC_POSTS.test(req.path)) return next();
    if (req.method === "POST" && ONE_CLICK_UNSUBSCRIBE.test(req.path)) return next();
    // A script with a personal access token is not a browser: no page of another site can send
    // an Authorization header here (that needs CORS, which the API does not grant), and the API
    // judges such a request by its token alone, never by a cookie (requireApiUser).
    if (req.path.startsWith("/api/") && /^bearer\s/i.test(req.headers.authorization ?? "")) {
      return next();
    }
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

/**
 * Refuses an address carrying the NUL character (%00, in the path or the query): no page or API
 * takes one, and PostgreSQL cannot store or compare text holding it, so it would otherwise
 * fail a query deep inside a route (a 500). Bodies are checked where they are read
 * (app/web/http.server.ts).
 * @returns {import("express").RequestHandler}
 */
export function noNulInUrl() {
  return (req, res, next) => {
    if (/%00/.test(req.originalUrl)) {
      res.status(400).json({ error: "The address must not contain the NUL character (%00)" });
      return;
    }
    next();
  };
}

/**
 * A fresh id for every request (a UUID, never taken from the request: a client must not choose
 * what the logs say), kept in res.locals for the Remix load context and sent back as
 * X-Request-Id. Logged errors carry it and the error pages show it, so a report can be matched to
 * its log line.
 * @returns {import("express").RequestHandler}
 */
export function requestId() {
  return (_req, res, next) => {
    const id = randomUUID();
    res.locals.requestId = id;
    res.setHeader("X-Request-Id", id);
    next();
  };
}

/**
 * One log line per request, written when its response is done (or its connection closed first):
 * method, path, route, status, duration, request id and the signed-in user. The path only: a
 * query string can carry a token (mailed links), and long path segments (reset, confirmation
 * and invitation keys) are redacted by `pathOf`. Never headers, cookies or bodies.
 *
 * res.locals.requestRecord is the request's scope record (app/utils/request-memo.server.ts):
 * the app notes the user (session.server.ts) and the matched route (route-errors.mjs) on it.
 * The same moment records the request's duration (`observe`, the runtime's metrics), at any
 * log level.
 * @param {import("pino").Logger} logger
 * @param {(pathname: string) => string} pathOf the path as logged (loggablePathname)
 * @param {(request: { routeId?: string; method: string; status: number; seconds: number }) => void} [observe]
 * @returns {import("express").RequestHandler}
 */
export function requestLog(logger, pathOf, observe) {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    /** @type {{ requestId?: string; userId?: string; routeId?: string }} */
    const record = { requestId: res.locals.requestId };
    res.locals.requestRecord = record;
    res.once("close", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      observe?.({
        routeId: record.routeId,
        method: req.method,
        status: res.statusCode,
        seconds: ms / 1000,
      });
      if (!logger.isLevelEnabled("info")) return;
      /** @type {Record<string, unknown>} */
      const line = {
        requestId: record.requestId,
        method: req.method,
        path: pathOf(req.path),
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      };
      if (record.routeId) line.route = record.routeId;
      if (record.userId) line.userId = record.userId;
      // The client went away before the whole response was sent.
      if (!res.writableFinished) line.aborted = true;
      logger.info(line, "request");
    });
    next();
  };
}

/**
 * The client's address as the throttles count it (req.ip -> the load context's clientIp). IPv4
 * as it is, an IPv4-mapped IPv6 address (`::ffff:203.0.113.9`) as its IPv4 address, and IPv6 cut
 * to its /64: one subscriber or host is handed a whole /64, so counting single IPv6 addresses
 * would give one person 2^64 fresh budgets of guesses.
 * @param {string | undefined} ip
 * @returns {string}
 */
export function throttleAddress(ip) {
  if (!ip || !ipaddr.isValid(ip)) return ip || "unknown";
  const parsed = ipaddr.parse(ip);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const v6 = /** @type {import("ipaddr.js").IPv6} */ (parsed);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const prefix = v6.parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(":")}::/64`;
}

/**
 * Says so, at most once a minute, when requests carry X-Forwarded-For from a peer that TRUST_PROXY
 * does not trust. Behind such a proxy every client has the proxy's address, so one stranger's
 * failed logins would lock a whole office out; a client sending the header itself is harmless.
 * @param {(address: string, hop: number) => boolean} trusts express's compiled "trust proxy fn"
 * @param {{ warn: (message: string, fields: { peer: string }) => void; now?: () => number }} options
 * @returns {import("express").RequestHandler}
 */
export function untrustedProxyWarning(trusts, { warn, now = Date.now }) {
  let lastWarned = -Infinity;
  return (req, _res, next) => {
    const peer = req.socket.remoteAddress ?? "";
    if (req.headers["x-forwarded-for"] !== undefined && !trusts(peer, 0)) {
      if (now() - lastWarned >= 60_000) {
        lastWarned = now();
        warn(
          `[proxy] requests carry X-Forwarded-For from ${peer}, which TRUST_PROXY does not ` +
            `trust: if ${peer} is your proxy, every client behind it shares its address for ` +
            `rate limits. Add it to TRUST_PROXY (docs/configuration.md).`,
          { peer },
        );
      }
    }
    next();
  };
}

/**
 * Says so, at most once a minute, when TRUST_PROXY is a hop count longer than the proxy chain
 * requests really come through: a request whose X-Forwarded-For holds fewer addresses than the
 * count has its client address taken from the header's first entry, which the client may have
 * written itself (adding entries to it picks the address the rate limits count). A request
 * without the header (a health check sent to the app directly) says nothing either way.
 * @param {number} hops TRUST_PROXY as a hop count
 * @param {{ warn: (message: string, fields: { hops: number; forwarded: number }) => void; now?: () => number }} options
 * @returns {import("express").RequestHandler}
 */
export function shortProxyChainWarning(hops, { warn, now = Date.now }) {
  let lastWarned = -Infinity;
  return (req, _res, next) => {
    const header = req.headers["x-forwarded-for"];
    if (header !== undefined && hops > 0) {
      const forwarded = String(header)
        .split(",")
        .filter((entry) => entry.trim() !== "").length;
      if (forwarded < hops && now() - lastWarned >= 60_000) {
        lastWarned = now();
        warn(
          `[proxy] TRUST_PROXY=${hops} trusts ${hops} proxy hops, but a request came through ` +
            `${forwarded}: its client address was read from X-Forwarded-For as the client sent ` +
            `it, so clients can choose the address rate limits count. Set TRUST_PROXY to the ` +
            `number of proxies in front of the app, or to their addresses (docs/configuration.md).`,
          { hops, forwarded },
        );
      }
    }
    next();
  };
}
