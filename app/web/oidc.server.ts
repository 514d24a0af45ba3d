import { createCookie } from "@remix-run/node";
import { CodeChallengeMethod, OAuth2Strategy } from "remix-auth-oauth2";
import { upsertOidcUser, type User } from "~/services/accounts/index.server";
import { UnauthorizedError } from "~/services/core";
import { env } from "~/utils/env.server";
import { getSession, safeRedirect } from "./session.server";

/** The parts of the provider's discovery document we use. */
export type Discovery = {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint?: string;
};

const DISCOVERY_TIMEOUT_MS = 5_000;
let discovery: Promise<Discovery> | undefined;

export function oidcEnabled() {
  return Boolean(env().OIDC_ISSUER && env().OIDC_CLIENT_ID);
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

async function fetchDiscovery(issuer: string): Promise<Discovery> {
  const res = await fetch(`${issuer}/.well-known/openid-configuration`, {
    headers: { Accept: "application/json" },
    signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`OpenID discovery failed: HTTP ${res.status}`);
  const meta = (await res.json()) as Partial<Discovery>;
  if (typeof meta.authorization_endpoint !== "string" || typeof meta.token_endpoint !== "string") {
    throw new Error("OpenID discovery document lacks the authorization or token endpoint");
  }
  // OpenID Connect Discovery 4.3: the document must name the issuer we asked.
  if (typeof meta.issuer !== "string" || trimSlash(meta.issuer) !== issuer) {
    throw new Error(`OpenID discovery names issuer ${meta.issuer}, expected ${issuer}`);
  }
  return meta as Discovery;
}

/** The provider's metadata, fetched once per process (a failure is retried on the next call). */
export async function oidcDiscovery(): Promise<Discovery> {
  discovery ??= fetchDiscovery(trimSlash(env().OIDC_ISSUER!));
  try {
    return await discovery;
  } catch (error) {
    discovery = undefined;
    throw error;
  }
}

/** One log line for a failure of the provider: its message and, for fetch, the cause. */
export function describeFailure(error: unknown) {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.name}: ${error.message}${cause}`;
}

/** Forgets the cached discovery document (tests point OIDC_ISSUER at a fresh provider). */
export function resetOidc() {
  discovery = undefined;
}

export type IdTokenClaims = {
  sub: string;
  email: string;
  name?: string;
  /** The provider asked for a second factor at this sign-in (secondFactorClaimed). */
  secondFactor?: boolean;
};

/** RFC 8176 methods that prove holding something: a key, a card, a phone, a one-time code. */
const POSSESSION_METHODS = new Set(["hwk", "swk", "sc", "otp", "sms", "tel"]);
/** `acr` values that mean a multi-factor sign-in: OpenID PAPE's policies, and phr/phrh (EAP ACR). */
const MULTI_FACTOR_ACR = new Set([
  "http://schemas.openid.net/pape/policies/2007/06/multi-factor",
  "http://schemas.openid.net/pape/policies/2007/06/multi-factor-physical",
  "phr",
  "phrh",
]);

/**
 * Whether an ID token says its sign-in used a second factor (docs/decisions/042-second-factor-required.md): `amr` holds
 * "mfa", or two different methods of which one proves a possession (["pwd", "otp"], ["hwk",
 * "pin"]); or `acr` is one of MULTI_FACTOR_ACR. Anything else (no claims, one method, a vendor's
 * own acr) is not taken as one: the person then sets up a factor of ours where one is required.
 */
export function secondFactorClaimed(claims: Record<string, unknown>): boolean {
  const amr = Array.isArray(claims.amr)
    ? claims.amr.filter((m): m is string => typeof m === "string")
    : [];
  if (amr.includes("mfa")) return true;
  const methods = new Set(amr);
  if (methods.size >= 2 && amr.some((m) => POSSESSION_METHODS.has(m))) return true;
  return typeof claims.acr === "string" && MULTI_FACTOR_ACR.has(claims.acr);
}

/**
 * Reads and checks the ID token's claims. The token came straight from the token endpoint over
 * the back channel, so TLS stands in for the signature check (OpenID Connect Core 3.1.3.7 step
 * 6); issuer, audience, authorized party, expiry and e-mail verification are still checked (docs/configuration.md, OIDC_TRUST_EMAIL).
 */
export function idTokenClaims(
  idToken: string,
  expected: { issuer: string; clientId: string; now?: number; trustEmail?: boolean },
): IdTokenClaims {
  const parts = idToken.split(".");
  if (parts.length !== 3 || !parts[1]) throw new UnauthorizedError("Malformed ID token");
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
  } catch {
    throw new UnauthorizedError("Malformed ID token");
  }
  if (!claims || typeof claims !== "object") throw new UnauthorizedError("Malformed ID token");
  const now = expected.now ?? Date.now();
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (typeof claims.iss !== "string" || trimSlash(claims.iss) !== trimSlash(expected.issuer)) {
    throw new UnauthorizedError("ID token from an unexpected issuer");
  }
  if (!audiences.includes(expected.clientId)) {
    throw new UnauthorizedError("ID token not meant for us");
  }
  // Core 3.1.3.7 steps 4-5: a token for several audiences must name us as the authorized party.
  if ((audiences.length > 1 || claims.azp !== undefined) && claims.azp !== expected.clientId) {
    throw new UnauthorizedError("ID token not meant for us");
  }
  if (typeof claims.exp !== "number" || claims.exp * 1000 < now) {
    throw new UnauthorizedError("ID token expired");
  }
  if (typeof claims.sub !== "string" || !claims.sub || typeof claims.email !== "string") {
    throw new UnauthorizedError("The single sign-on provider did not share your email address");
  }
  // Accounts are matched by e-mail: an address the provider has not verified could claim
  // someone else's account or invitation. A missing claim is not a verification, unless the
  // operator says this provider only issues verified addresses (OIDC_TRUST_EMAIL=true).
  const verified = claims.email_verified === true || claims.email_verified === "true";
  const missing = claims.email_verified === undefined || claims.email_verified === null;
  if (!verified && !(missing && expected.trustEmail)) {
    throw new UnauthorizedError(
      "Verify your email address with your single sign-on provider first",
    );
  }
  return {
    sub: claims.sub,
    email: claims.email.trim().toLowerCase(),
    name: typeof claims.name === "string" ? claims.name : undefined,
    ...(secondFactorClaimed(claims) ? { secondFactor: true } : {}),
  };
}

/** What the OpenID strategy yields: the account plus the ID token kept for logout. */
export type OidcUser = User & { idToken: string };

export function isOidcUser(user: User): user is OidcUser {
  return typeof (user as Partial<OidcUser>).idToken === "string";
}

/**
 * The strategy keeps the state and PKCE verifier in short-lived cookies named
 * `<name>:<random>` (one per login attempt, so two tabs do not clash).
 */
function stateCookieName() {
  return env().secureCookies ? "__Host-stackshift_oidc" : "stackshift_oidc";
}

export async function oidcStrategy(): Promise<OAuth2Strategy<User> | null> {
  if (!oidcEnabled()) return null;
  const meta = await oidcDiscovery();
  const clientId = env().OIDC_CLIENT_ID!;
  return new OAuth2Strategy<User>(
    {
      clientId,
      clientSecret: env().OIDC_CLIENT_SECRET ?? null,
      authorizationEndpoint: meta.authorization_endpoint,
      tokenEndpoint: meta.token_endpoint,
      redirectURI: `${env().APP_URL}/auth/oidc/callback`,
      scopes: ["openid", "email", "profile"],
      codeChallengeMethod: CodeChallengeMethod.S256,
      cookie: {
        name: stateCookieName(),
        httpOnly: true,
        sameSite: "Lax",
        path: "/",
        ...(env().secureCookies ? { secure: true as const } : {}),
      },
    },
    async ({ tokens, request }) => {
      const idToken = tokens.idToken();
      const claims = idTokenClaims(idToken, {
        issuer: meta.issuer,
        clientId,
        trustEmail: env().OIDC_TRUST_EMAIL,
      });
      // Linking an existing account by address needs its holder: this browser signed in to it.
      const signedIn = (await getSession(request)).get("userId");
      const user = await upsertOidcUser(claims, typeof signedIn === "string" ? signedIn : null);
      const result: OidcUser = { ...user, idToken, ssoSecondFactor: claims.secondFactor === true };
      return result;
    },
  );
}

// Where to go after the provider sends the browser back: signed, so it cannot be planted.
function returnToCookie() {
  const secure = env().secureCookies;
  return createCookie(secure ? "__Host-stackshift_sso_return" : "stackshift_sso_return", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: 10 * 60,
    secrets: [env().SESSION_SECRET],
  });
}

export function rememberReturnTo(redirectTo: string) {
  return returnToCookie().serialize(safeRedirect(redirectTo));
}

export async function readReturnTo(request: Request) {
  const value: unknown = await returnToCookie().parse(request.headers.get("Cookie"));
  return safeRedirect(typeof value === "string" ? value : null);
}

/**
 * Set-Cookie headers that delete the login attempt's cookies, so a state is used once and the
 * return address does not outlive the attempt.
 */
export function clearOidcCookies(request: Request): string[] {
  const secure = env().secureCookies ? "; Secure" : "";
  const names = (request.headers.get("Cookie") ?? "")
    .split(";")
    .map((pair) => pair.split("=")[0].trim())
    .filter((name) => name.startsWith(`${stateCookieName()}:`));
  names.push(returnToCookie().name);
  return names.map(
    (name) =>
      `${name}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; HttpOnly; SameSite=Lax${secure}`,
  );
}
