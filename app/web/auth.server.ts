import { Authenticator } from "remix-auth";
import type { User } from "~/services/accounts/index.server";
import { oidcStrategy, resetOidc } from "./oidc.server";

/**
 * remix-auth for single sign-on (OpenID Connect), when OIDC_ISSUER is set. Password login calls
 * verifyLogin directly (decision record 004): it needs the client address for its failure
 * counters, and a strategy would only parse the form a second time. remix-auth keeps no session;
 * `createUserSession` stores the result in the database session.
 */
let cached: Authenticator<User> | undefined;

/**
 * The authenticator with the OpenID strategy. It needs the provider's discovery document, so it
 * is built only when asked for: password login keeps working while the identity provider is down.
 */
export async function authenticator() {
  cached ??= new Authenticator<User>();
  if (!cached.get("oidc")) {
    const oidc = await oidcStrategy();
    if (!oidc) throw new Error("Single sign-on is not configured (OIDC_ISSUER, OIDC_CLIENT_ID)");
    cached.use(oidc, "oidc");
  }
  return cached;
}

/** Drops the cached strategies and discovery document (tests change OIDC_* between files). */
export function resetAuthenticator() {
  cached = undefined;
  resetOidc();
}
