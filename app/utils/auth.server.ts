import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { loginSchema } from "~/services/accounts.schema";
import { verifyLogin, type User } from "~/services/accounts.server";
import { parseInput } from "./http.server";
import { oidcStrategy, resetOidc } from "./oidc.server";

/**
 * remix-auth strategies: e-mail + password always, OpenID Connect when OIDC_ISSUER is set.
 * remix-auth keeps no session; `createUserSession` stores the result in the database session.
 */
let cached: Authenticator<User> | undefined;

/**
 * The authenticator, with the strategy the caller is about to use. The OpenID strategy needs the
 * provider's discovery document, so it is added only when asked for: password login keeps
 * working while the identity provider is down.
 */
export async function authenticator(strategy: "form" | "oidc" = "form") {
  cached ??= new Authenticator<User>().use(
    new FormStrategy(async ({ form }) =>
      verifyLogin(parseInput(loginSchema, Object.fromEntries(form))),
    ),
    "form",
  );
  if (strategy === "oidc" && !cached.get("oidc")) {
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
