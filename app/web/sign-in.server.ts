/**
 * The steps of a sign-in, in one place: every first step (a password, a passkey, single sign-on,
 * a mailed sign-in link) ends here, and this decides what else the account needs before it gets a
 * session. docs/decisions/038-second-factors.md.
 *
 * - A password on an account with a second factor: the two-factor step (/auth/two-factor) asks
 *   for a code, a recovery code or a passkey. Until then the browser holds a session without a
 *   user, carrying only `pendingSignIn` (who, since when, where to go), for PENDING_SIGN_IN_MS.
 * - A passkey is both factors (something held, verified by the device's PIN or biometrics).
 * - Single sign-on keeps the identity provider's own factors (app/web/oidc.server.ts).
 */
import { redirect } from "@remix-run/node";
import type { User } from "~/services/accounts/index.server";
import { holdPastCeiling } from "./account-ceiling.server";
import { createUserSession, getSession, safeRedirect, sessionStorage } from "./session.server";

export type SignInMethod = "password" | "passkey" | "sso" | "link" | "second-factor";

/** How long the two-factor step waits for its code after the password. */
export const PENDING_SIGN_IN_MS = 10 * 60_000;

export type PendingSignIn = { userId: string; at: number; redirectTo: string };

/** The password was right: a session now, or the two-factor step first. */
export async function afterFirstStep(
  request: Request,
  user: User,
  options: {
    method: SignInMethod;
    redirectTo: string;
    idToken?: string;
    /** The step itself proved the mailbox (a password reset's link): the ceiling asks nothing. */
    mailboxProved?: boolean;
  },
): Promise<Response> {
  const redirectTo = safeRedirect(options.redirectTo);
  if (options.method === "password" && !options.mailboxProved) {
    // Past the account's ceiling of failures: a known device, the second factor or a mailed link.
    const held = await holdPastCeiling(request, user, redirectTo);
    if (held) return held;
  }
  if (options.method === "password" && user.hasSecondFactor) {
    const old = await getSession(request);
    if (old.id) await sessionStorage().destroySession(old);
    const session = await sessionStorage().getSession();
    const pending: PendingSignIn = { userId: user.id, at: Date.now(), redirectTo };
    session.set("pendingSignIn", pending);
    return redirect(`/auth/two-factor`, {
      headers: { "Set-Cookie": await sessionStorage().commitSession(session) },
    });
  }
  return createUserSession(request, user, redirectTo, { idToken: options.idToken });
}

/** The sign-in waiting for its second factor in this browser, while it may still finish. */
export async function pendingSignIn(request: Request, now = Date.now()) {
  const session = await getSession(request);
  const pending = session.get("pendingSignIn") as PendingSignIn | undefined;
  if (
    !pending ||
    typeof pending.userId !== "string" ||
    typeof pending.at !== "number" ||
    now - pending.at > PENDING_SIGN_IN_MS ||
    now < pending.at
  ) {
    return null;
  }
  return { ...pending, redirectTo: safeRedirect(pending.redirectTo) };
}
