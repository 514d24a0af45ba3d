import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { FormError } from "~/components/ui/field";
import { RateLimitedError } from "~/services/errors";
import { consume } from "~/services/rate-limit.server";
import { authenticator } from "~/utils/auth.server";
import { readForm } from "~/utils/http.server";
import { describeFailure, oidcEnabled, rememberReturnTo } from "~/utils/oidc.server";
import { safeRedirect } from "~/utils/session.server";

export const meta: MetaFunction = () => [{ title: "Single sign-on | StackShift" }];

// Starting a login is a POST (the login page's button), so another site cannot start one. A GET
// renders the page below, which also shows the action's errors (a redirect here would hide them).
export const loader = () => null;

/**
 * Starts single sign-on: remix-auth-oauth2 answers with a redirect to the provider's authorize
 * endpoint (authorization code + PKCE) and sets the state cookie; we add where to return.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (!oidcEnabled()) return redirect("/auth/login");
  const formData = await readForm(request);
  try {
    await consume("oidcAddress", context.clientIp ?? "unknown");
    const auth = await authenticator();
    // The strategy only reads the URL and cookies; a bare URL so no `state` can be slipped in.
    const url = new URL(request.url);
    await auth.authenticate(
      "oidc",
      new Request(url.origin + url.pathname, { headers: request.headers }),
    );
  } catch (thrown) {
    if (thrown instanceof Response && thrown.headers.has("Location")) {
      const headers = new Headers(thrown.headers);
      headers.append(
        "Set-Cookie",
        await rememberReturnTo(safeRedirect(formData.get("redirectTo"))),
      );
      return new Response(null, { status: thrown.status, headers });
    }
    if (thrown instanceof RateLimitedError) {
      return data(
        { message: thrown.message },
        { status: 429, headers: { "Retry-After": String(thrown.retryAfterSeconds) } },
      );
    }
    // Discovery failed: the provider is down or misconfigured. Not the user's fault.
    console.warn(`[oidc] could not start single sign-on: ${describeFailure(thrown)}`);
    return data(
      {
        message:
          "Single sign-on is unavailable right now. Try again in a moment, or log in with your password.",
      },
      { status: 503 },
    );
  }
  return redirect("/auth/login");
}

export default function SingleSignOn() {
  const actionData = useActionData<typeof action>();
  return (
    <AuthCard title="Single sign-on">
      {actionData ? (
        <FormError message={actionData.message} />
      ) : (
        <p className="text-sm">Start single sign-on from the login page.</p>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to="/auth/login" className="text-brand underline">
          Back to log in
        </Link>
      </p>
    </AuthCard>
  );
}
