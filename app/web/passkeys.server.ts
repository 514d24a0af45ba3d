/**
 * The HTTP side of passkeys: each ceremony's challenge lives in the browser's session (on the
 * server: the cookie carries only the session id), for one purpose and one account, for at most
 * PASSKEY_CHALLENGE_MS, and is used once: taking it removes it from the session's row in one
 * UPDATE, so of two answers sent at once only one is checked (takeSessionEntry).
 */
import type { Session } from "@remix-run/node";
import { InvalidError } from "~/services/core";
import { takeSessionEntry, type SessionData } from "~/services/accounts/index.server";
import { PASSKEY_CHALLENGE_MS } from "~/services/two-factor/index.server";
import { getSession, sessionStorage } from "./session.server";

/** What a passkey is asked for: adding one, the login page, the second step, a proof. */
export type PasskeyPurpose = "register" | "sign-in" | "second-factor" | "proof";

type Pending = { challenge: string; purpose: PasskeyPurpose; userId: string | null; at: number };

const KEY = "passkeyChallenge";

export const CHALLENGE_GONE = "This passkey request has expired or was already used. Try again.";

/** Keeps `challenge` in the session (replacing any earlier one); returns the Set-Cookie value. */
export async function rememberChallenge(
  session: Session<SessionData>,
  entry: { challenge: string; purpose: PasskeyPurpose; userId: string | null },
  now = Date.now(),
): Promise<string> {
  const pending: Pending = { ...entry, at: now };
  session.set(KEY, pending);
  return sessionStorage().commitSession(session);
}

function isPending(value: unknown): value is Pending {
  const v = value as Partial<Pending> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.challenge === "string" &&
    typeof v.purpose === "string" &&
    typeof v.at === "number" &&
    (v.userId === null || typeof v.userId === "string")
  );
}

/**
 * Takes the session's challenge for `purpose`, once; InvalidError when there is none, it was
 * for something else, it expired or another request took it first. The session returned no
 * longer holds it (committing it later does not bring it back).
 */
export async function takeChallenge(request: Request, purpose: PasskeyPurpose, now = Date.now()) {
  const session = await getSession(request);
  const entry: unknown = session.get(KEY);
  session.unset(KEY);
  if (
    !isPending(entry) ||
    entry.purpose !== purpose ||
    now < entry.at ||
    now - entry.at > PASSKEY_CHALLENGE_MS ||
    !session.id ||
    !(await takeSessionEntry(session.id, KEY, entry))
  ) {
    throw new InvalidError(CHALLENGE_GONE);
  }
  return { challenge: entry.challenge, userId: entry.userId, session };
}

/**
 * A sign-in's redirect (afterFirstStep, createUserSession) as the JSON a script reads:
 * `{ redirectTo }` with the same cookies, so the browser then navigates there itself.
 */
export function redirectAsJson(response: Response): Response {
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return Response.json({ redirectTo: response.headers.get("Location") ?? "/" }, { headers });
}
