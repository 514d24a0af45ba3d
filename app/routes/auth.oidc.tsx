import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { z } from "zod";
import { AuthCard } from "~/components/auth-card";
import { FormError } from "~/components/ui/field";
import { RateLimitedError } from "~/services/core";
import { consume } from "~/services/core/index.server";
import { authenticator } from "~/web/auth.server";
import { formErrorOf } from "~/utils/form-errors";
import { formReply, readForm } from "~/web/http.server";
import { describeFailure, oidcEnabled, rememberReturnTo } from "~/web/oidc.server";
import { safeRedirect } from "~/web/session.server";
import { log } from "~/utils/logger.server";

export const meta: MetaFunction = () => [{ title: "Single sign-on | StackShift" }];

// Starting a login is a POST (the login page's button), so another site cannot start one. A GET
// renders the page below, which also shows the action's errors (a redirect here would hide them).
export const loader = () => null;

/** The login page's 'Continue with single sign-on' form: where to come back to. */
const startSchema = z.object({ redirectTo: z.string().max(2000).optional() });

/**
 * Starts single sign-on: remix-auth-oauth2 answers with a redirect to the provider's authorize
 * endpoint (authorization code + PKCE) and sets the state cookie; we add where to return.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (!oidcEnabled()) return redirect("/auth/login");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: startSchema });
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
      return formReply({ result: submission.reply({ formErrors: [thrown.message] }) }, thrown);
    }
    // Discovery failed: the provider is down or misconfigured. Not the user's fault.
    log().warn({ area: "oidc", reason: describeFailure(thrown) }, "could not start single sign-on");
    const unavailable =
      "Single sign-on is unavailable right now. Try again in a moment, or log in with your password.";
    return formReply({ result: submission.reply({ formErrors: [unavailable] }) }, 503);
  }
  return redirect("/auth/login");
}

export default function SingleSignOn() {
  const actionData = useActionData<typeof action>();
  return (
    <AuthCard title="Single sign-on">
      {actionData ? (
        <FormError message={formErrorOf(actionData.result)} />
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
