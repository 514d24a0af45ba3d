import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { OAuth2RequestError } from "remix-auth-oauth2";
import { NotEligibleError, type User } from "~/services/accounts/index.server";
import { ServiceError } from "~/services/core";
import { authenticator } from "~/web/auth.server";
import {
  clearOidcCookies,
  describeFailure,
  isOidcUser,
  oidcEnabled,
  readReturnTo,
} from "~/web/oidc.server";
import { createUserSession } from "~/web/session.server";
import { redirectWithToast, type Toast } from "~/utils/toast.server";
import { log } from "~/utils/logger.server";

type Problem = Pick<Toast, "title" | "description">;

/** What the login page says when single sign-on did not end in a session. */
function problemOf(error: unknown): Problem {
  if (error instanceof NotEligibleError) {
    return {
      title: "This email has no access to StackShift yet",
      description: "Request access first and we will email you once approved.",
    };
  }
  if (error instanceof ServiceError) {
    return { title: "Single sign-on failed", description: error.message };
  }
  if (error instanceof OAuth2RequestError) {
    // The code comes from the query string: show it only when it looks like an OAuth code.
    const code = /^[a-z_]{1,40}$/.test(error.code) ? ` (${error.code})` : "";
    return {
      title: "Single sign-on failed",
      description: `The sign-on provider refused the request${code}.`,
    };
  }
  // remix-auth-oauth2 throws these when the state cookie is missing or does not match.
  if (error instanceof ReferenceError || error instanceof RangeError) {
    return {
      title: "Single sign-on expired",
      description: "The sign-on attempt expired or began in another browser. Please try again.",
    };
  }
  log().warn({ area: "oidc", reason: describeFailure(error) }, "callback failed");
  return {
    title: "Single sign-on failed",
    description: "Please try again, or log in with your password.",
  };
}

/**
 * The provider sends the browser back here with `code` and `state`: the strategy checks the state
 * against its cookie, redeems the code with the PKCE verifier and finds or creates the account.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!oidcEnabled()) return redirect("/auth/login");
  // Whatever happens, this attempt's state is spent.
  const cleared = clearOidcCookies(request);
  const fail = (problem: Problem) => {
    const headers = new Headers();
    for (const cookie of cleared) headers.append("Set-Cookie", cookie);
    return redirectWithToast(
      "/auth/login",
      { type: "error", duration: 20_000, ...problem },
      { headers },
    );
  };
  // Without a state the strategy would start a new login: a GET must not do that.
  if (!new URL(request.url).searchParams.get("state")) {
    return fail({
      title: "Single sign-on did not complete",
      description: "Please start again from the login page.",
    });
  }
  let user: User;
  try {
    user = await (await authenticator()).authenticate("oidc", request);
  } catch (error) {
    return fail(problemOf(error));
  }
  const response = await createUserSession(request, user, await readReturnTo(request), {
    idToken: isOidcUser(user) ? user.idToken : undefined,
    // The provider's own second factor counts for this session (amr/acr: oidc.server.ts).
    ssoSecondFactor: user.ssoSecondFactor === true,
  });
  for (const cookie of cleared) response.headers.append("Set-Cookie", cookie);
  return response;
}
