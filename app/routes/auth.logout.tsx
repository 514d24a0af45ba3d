import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { env } from "~/utils/env.server";
import { describeFailure, oidcDiscovery, oidcEnabled } from "~/web/oidc.server";
import { endSession } from "~/web/session.server";
import { log } from "~/utils/logger.server";

/** The provider's end-session address (OpenID RP-Initiated Logout), or null without one. */
async function endSessionUrl(idToken: string) {
  try {
    const meta = await oidcDiscovery();
    if (!meta.end_session_endpoint) return null;
    const url = new URL(meta.end_session_endpoint);
    url.searchParams.set("id_token_hint", idToken);
    url.searchParams.set("client_id", env().OIDC_CLIENT_ID!);
    url.searchParams.set("post_logout_redirect_uri", `${env().APP_URL}/api/auth/logout-callback`);
    return url.toString();
  } catch (error) {
    // The local session is over either way; a provider that is down must not block logout.
    log().warn(
      { area: "oidc", reason: describeFailure(error) },
      "end-session endpoint unavailable",
    );
    return null;
  }
}

/**
 * Logout: end the session here (its database row is deleted), then, for single
 * sign-on, send the browser to the provider's end-session endpoint with the id token hint and
 * our logout callback.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { idToken, setCookie } = await endSession(request);
  const headers = { "Set-Cookie": setCookie };
  const providerLogout = idToken && oidcEnabled() ? await endSessionUrl(idToken) : null;
  return redirect(providerLogout ?? "/auth/login", { headers });
}

export const loader = () => redirect("/");
