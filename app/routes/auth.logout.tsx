import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { env } from "~/utils/env.server";
import { oidcDiscovery, oidcEnabled } from "~/utils/oidc.server";
import { endSession } from "~/utils/session.server";

/**
 * Logout (spec section 7): end the session here, then, for single sign-on, send the browser to
 * the provider's end-session endpoint with the id token hint and our logout callback.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { idToken, setCookie } = await endSession(request);
  const headers = { "Set-Cookie": setCookie };
  if (idToken && oidcEnabled()) {
    const meta = await oidcDiscovery();
    if (meta.end_session_endpoint) {
      const url = new URL(meta.end_session_endpoint);
      url.searchParams.set("id_token_hint", idToken);
      url.searchParams.set("post_logout_redirect_uri", `${env().APP_URL}/api/auth/logout-callback`);
      return redirect(url.toString(), { headers });
    }
  }
  return redirect("/auth/login", { headers });
}

export const loader = () => redirect("/");
