import { CodeChallengeMethod, OAuth2Strategy } from "remix-auth-oauth2";
import { upsertOidcUser, type User } from "~/services/accounts.server";
import { UnauthorizedError } from "~/services/errors";
import { env } from "./env.server";

/** The parts of the provider's discovery document we use. */
type Discovery = {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint?: string;
};

let discovery: Promise<Discovery> | undefined;

export function oidcEnabled() {
  return Boolean(env().OIDC_ISSUER && env().OIDC_CLIENT_ID);
}

export async function oidcDiscovery(): Promise<Discovery> {
  const issuer = env().OIDC_ISSUER!.replace(/\/+$/, "");
  discovery ??= fetch(`${issuer}/.well-known/openid-configuration`).then(async (res) => {
    if (!res.ok) throw new Error(`OpenID discovery failed: HTTP ${res.status}`);
    return (await res.json()) as Discovery;
  });
  try {
    return await discovery;
  } catch (error) {
    discovery = undefined; // try again on the next request
    throw error;
  }
}

/**
 * Reads the ID token's claims. The token came straight from the token endpoint over the
 * back channel (OpenID Connect Core 3.1.3.7: TLS then stands in for the signature check); issuer,
 * audience and expiry are still checked.
 */
export function idTokenClaims(idToken: string, expected: { issuer: string; clientId: string }) {
  const [, payload] = idToken.split(".");
  if (!payload) throw new UnauthorizedError("Malformed ID token");
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
    iss?: string;
    aud?: string | string[];
    exp?: number;
    sub?: string;
    email?: string;
    name?: string;
  };
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (claims.iss?.replace(/\/+$/, "") !== expected.issuer.replace(/\/+$/, "")) {
    throw new UnauthorizedError("ID token from an unexpected issuer");
  }
  if (!audiences.includes(expected.clientId))
    throw new UnauthorizedError("ID token not meant for us");
  if (!claims.exp || claims.exp * 1000 < Date.now())
    throw new UnauthorizedError("ID token expired");
  if (!claims.sub || !claims.email) throw new UnauthorizedError("ID token lacks subject or email");
  return { sub: claims.sub, email: claims.email, name: claims.name };
}

export type OidcUser = User & { idToken: string };

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
      cookie: env().secureCookies
        ? { name: "stackshift_oidc", httpOnly: true, sameSite: "Lax", secure: true, path: "/" }
        : { name: "stackshift_oidc", httpOnly: true, sameSite: "Lax", path: "/" },
    },
    async ({ tokens }) => {
      const idToken = tokens.idToken();
      const claims = idTokenClaims(idToken, { issuer: meta.issuer, clientId });
      const user = await upsertOidcUser(claims);
      return { ...user, idToken } as OidcUser;
    },
  );
}
