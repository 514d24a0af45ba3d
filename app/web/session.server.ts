import { randomBytes } from "node:crypto";
import { createCookie, createSessionStorage, redirect } from "@remix-run/node";
import { getUser, type User } from "~/services/accounts/index.server";
import { authenticateApiToken } from "~/services/accounts/index.server";
import { ServiceError, ForbiddenError, UnauthorizedError } from "~/services/core";
import {
  createSessionRow,
  deleteSessionRow,
  readSessionRow,
  SESSION_LIFETIME_MS,
  updateSessionRow,
  type SessionData,
} from "~/services/accounts/index.server";
import { env } from "~/utils/env.server";
import { apiError } from "./http.server";
import { rememberDevice } from "./known-device.server";
import { attributeToToken, memo, noteUser } from "~/utils/request-memo.server";
import { invariantResponse } from "~/utils/responses.server";
import {
  adminNeedsSecondFactor,
  SecondFactorRequiredError,
} from "~/services/two-factor/index.server";
import { secondFactorRefusal } from "./second-factor.server";

export {
  SESSION_IDLE_TIMEOUT_MS,
  SESSION_LIFETIME_MS,
  SESSION_TOUCH_AFTER_MS,
} from "~/services/accounts/index.server";

/**
 * Sessions live in the database; the cookie carries only the signed session id, so logout and
 * password resets end sessions on the server. The server also ends them after a week idle and
 * 30 days after sign-in (app/services/accounts/sessions.server.ts); the cookie's max-age is only a hint.
 */
function storage() {
  const secure = env().secureCookies;
  const cookie = createCookie(secure ? "__Host-stackshift_session" : "stackshift_session", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    secrets: [env().SESSION_SECRET],
    maxAge: SESSION_LIFETIME_MS / 1000,
  });
  return createSessionStorage<SessionData>({
    cookie,
    async createData(data) {
      const id = randomBytes(24).toString("base64url");
      await createSessionRow(id, data);
      return id;
    },
    readData: (id) => readSessionRow(id),
    // `expires` (from the cookie's max-age) is ignored: the lifetime counts from sign-in.
    updateData: (id, data) => updateSessionRow(id, data),
    deleteData: (id) => deleteSessionRow(id),
  });
}

let cached: ReturnType<typeof storage> | undefined;
export function sessionStorage() {
  cached ??= storage();
  return cached;
}

export function getSession(request: Request) {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

/**
 * The signed-in user. The loaders of one page view share one read, and what that user reads
 * during the view is shared too (app/utils/request-memo.server.ts); actions always read afresh.
 */
export function getOptionalUser(request: Request): Promise<User | null> {
  return memo("user", async () => {
    const session = await getSession(request);
    const userId = session.get("userId");
    const user = typeof userId === "string" ? await getUser(userId) : null;
    // The request's log lines say whose they are from now on.
    if (user) noteUser(user.id);
    // Single sign-on with the provider's own second factor counts for this session (oidc.server.ts).
    if (user && session.get("ssoSecondFactor") === true) return { ...user, ssoSecondFactor: true };
    return user;
  });
}

// Control characters are dropped by URL parsers (so "/\t/x" becomes "//x") and browsers read a
// backslash as a slash: neither belongs in a path we redirect to.
// eslint-disable-next-line no-control-regex -- finding them is the point
const UNSAFE_REDIRECT = /[\u0000-\u001f\u007f\\]/;

/**
 * A redirect target on the app's own origin, as a path (+ search + hash). Anything else (not a
 * path starting with "/", another origin once parsed, a protocol-relative or unparsable value)
 * gives `fallback`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (!to || typeof to !== "string" || !to.startsWith("/") || UNSAFE_REDIRECT.test(to)) {
    return fallback;
  }
  const base = new URL(env().APP_URL);
  let url: URL;
  try {
    url = new URL(to, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base.origin) return fallback;
  const path = url.pathname + url.search + url.hash;
  // "/.//evil.example" normalises to "//evil.example", which a browser reads as another host.
  return path.startsWith("/") && !path.startsWith("//") ? path : fallback;
}

/** Users without a session are sent to login, and come back here afterwards. */
export async function requireUser(request: Request): Promise<User> {
  const user = await getOptionalUser(request);
  if (user) return user;
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  throw redirect(`/auth/login?redirectTo=${encodeURIComponent(back)}`);
}

/**
 * For JSON API routes: the session's user, or a personal access token's owner with its grant
 * (`Authorization: Bearer ...`); a 401 JSON error instead of a redirect. A request carrying a
 * token is judged by the token alone, never by a cookie beside it: only token requests skip the
 * Origin check (server/middleware.mjs), so a cookie must never ride along on one.
 */
export async function requireApiUser(request: Request): Promise<User> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) return tokenUser(request, authorization);
  const user = await getOptionalUser(request);
  if (user) return user;
  throw Response.json({ error: "You must be logged in" }, { status: 401 });
}

async function tokenUser(request: Request, authorization: string): Promise<User> {
  const [kind, token] = authorization.trim().split(/\s+/, 2);
  try {
    if (kind?.toLowerCase() !== "bearer" || !token) {
      throw new UnauthorizedError("Send the token as 'Authorization: Bearer <token>'");
    }
    const user = await authenticateApiToken(token);
    if (user.apiToken?.scope === "read" && request.method !== "GET" && request.method !== "HEAD") {
      throw new ForbiddenError(
        "This token can only read: make a read-write token to change things",
      );
    }
    attributeToToken(user.apiToken!.name);
    noteUser(user.id);
    return user;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const response = apiError(error);
    if (error instanceof UnauthorizedError) {
      response.headers.set("WWW-Authenticate", 'Bearer realm="StackShift API"');
    }
    throw response;
  }
}

export async function requirePlatformAdmin(request: Request): Promise<User> {
  const user = await requireUser(request);
  // 404 rather than 403: the admin pages do not exist for anyone else.
  invariantResponse(user.isAdmin, "Not Found");
  // A platform admin without a second factor where one is required: the page says why.
  if (adminNeedsSecondFactor(user)) {
    throw secondFactorRefusal(new SecondFactorRequiredError("platform-admin"));
  }
  return user;
}

/** Starts a fresh session (new id: no fixation) and redirects. */
export async function createUserSession(
  request: Request,
  user: User,
  redirectTo: string,
  extra: { idToken?: string; ssoSecondFactor?: boolean } = {},
) {
  const old = await getSession(request);
  // Signing in again as the same person (single sign-on on /auth/confirm) keeps what the form
  // waiting for that proof had typed (app/web/proof.server.ts).
  const stashed = old.get("userId") === user.id ? old.get("stashedForm") : undefined;
  if (old.id) await sessionStorage().destroySession(old);
  const session = await sessionStorage().getSession();
  session.set("userId", user.id);
  if (stashed) session.set("stashedForm", stashed);
  // Signing in is a proof of holding the account (app/web/proof.server.ts).
  session.set("proofAt", Date.now());
  if (extra.idToken) {
    session.set("idToken", extra.idToken);
    // A fresh single sign-on stands in for the password of an account without one (ssoIsFresh).
    session.set("ssoAt", Date.now());
    // The identity provider's own second factor, as its ID token says (amr/acr).
    if (extra.ssoSecondFactor) session.set("ssoSecondFactor", true);
  }
  // Shown in the user's list of sessions, so they can tell them apart.
  const agent = request.headers.get("user-agent");
  if (agent) session.set("userAgent", agent.slice(0, 300));
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionStorage().commitSession(session));
  // Every sign-in remembers the browser for the account (decision 041, known-device.server.ts).
  headers.append("Set-Cookie", await rememberDevice(request, user.id));
  return redirect(safeRedirect(redirectTo), { headers });
}

/** How long a single sign-on counts as fresh for changes that need the account's holder. */
export const SSO_FRESH_MS = 10 * 60_000;

/** Signed in through single sign-on within the last SSO_FRESH_MS. */
export function ssoIsFresh(session: { get: (key: string) => unknown }, now = Date.now()) {
  const at = session.get("ssoAt");
  return typeof at === "number" && now - at >= 0 && now - at < SSO_FRESH_MS;
}

/** Ends the session on the server; returns the cookie header and the id token for OIDC logout. */
export async function endSession(request: Request) {
  const session = await getSession(request);
  const idToken = session.get("idToken");
  return {
    idToken: typeof idToken === "string" ? idToken : undefined,
    setCookie: await sessionStorage().destroySession(session),
  };
}
