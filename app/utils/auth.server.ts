import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { loginSchema } from "~/services/accounts.schema";
import { verifyLogin, type User } from "~/services/accounts.server";
import { parseInput } from "./http.server";
import { oidcStrategy } from "./oidc.server";

/**
 * remix-auth strategies: e-mail + password always, OpenID Connect when OIDC_ISSUER is set.
 * remix-auth keeps no session; `createUserSession` stores the result in the database session.
 */
let cached: Authenticator<User> | undefined;

export async function authenticator() {
  if (cached) return cached;
  const auth = new Authenticator<User>();
  auth.use(
    new FormStrategy(async ({ form }) =>
      verifyLogin(parseInput(loginSchema, Object.fromEntries(form))),
    ),
    "form",
  );
  const oidc = await oidcStrategy();
  if (oidc) auth.use(oidc, "oidc");
  cached = auth;
  return auth;
}
