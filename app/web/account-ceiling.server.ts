/**
 * The ceiling per account (decision 041), as a step of the sign-in funnel (sign-in.server.ts):
 * past the account's ceiling of failed passwords from every address together, a right password
 * signs in only with one more proof a guesser lacks. Strangers' guesses never lock the owner out:
 * - an account with a second factor is asked for it by the two-factor step anyway: nothing more;
 * - a browser that signed in to the account before (its known-device cookie) signs in at once;
 * - anywhere else the account is mailed a link that finishes the sign-in, and no session starts.
 */
import { redirect } from "@remix-run/node";
import type { User } from "~/services/accounts/index.server";
import { pastAccountCeiling } from "~/services/core/index.server";
import { mailSignInLink } from "~/services/accounts/index.server";
import { isKnownDevice } from "./known-device.server";

/** Where a held sign-in is sent: the login page says a link was mailed. */
export const SIGN_IN_LINK_SENT = "/auth/login?sent=sign-in-link";

/** Null when the sign-in may go on; otherwise the answer that holds it (a link was mailed). */
export async function holdPastCeiling(
  request: Request,
  user: User,
  redirectTo: string,
): Promise<Response | null> {
  if (user.hasSecondFactor) return null;
  if (!(await pastAccountCeiling(user.email))) return null;
  if (await isKnownDevice(request, user.id)) return null;
  await mailSignInLink(user, redirectTo);
  return redirect(SIGN_IN_LINK_SENT);
}
