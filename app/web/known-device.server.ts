/**
 * The "known device" cookie (decision 041): every successful sign-in leaves a signed, HttpOnly,
 * long-lived cookie naming the accounts that signed in from this browser. Past the ceiling of
 * failed passwords on an account, the right password from a browser carrying it still signs in at
 * once; elsewhere it also needs a mailed link (app/web/account-ceiling.server.ts). The cookie is
 * signed with SESSION_SECRET over the account ids it lists, so it cannot be made, edited or
 * reused for another account; it proves only that this browser signed in to the account before.
 */
import { createCookie } from "@remix-run/node";
import { env } from "~/utils/env.server";

/** A shared computer signs in to a few accounts; the oldest is forgotten past this. */
const MAX_ACCOUNTS = 5;
/** 400 days: the longest a browser keeps a cookie. */
const MAX_AGE_SECONDS = 400 * 24 * 60 * 60;

function makeCookie() {
  const secure = env().secureCookies;
  return createCookie(secure ? "__Host-stackshift_device" : "stackshift_device", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    secrets: [env().SESSION_SECRET],
    maxAge: MAX_AGE_SECONDS,
  });
}

let cached: ReturnType<typeof makeCookie> | undefined;
const deviceCookie = () => (cached ??= makeCookie());

/** The accounts this browser signed in to, as its (verified) cookie lists them. */
async function accountsOf(request: Request): Promise<string[]> {
  const value: unknown = await deviceCookie().parse(request.headers.get("Cookie"));
  const accounts = (value as { accounts?: unknown } | null)?.accounts;
  return Array.isArray(accounts)
    ? accounts.filter((id): id is string => typeof id === "string")
    : [];
}

/** This browser signed in to the account before (its signed cookie names the account). */
export async function isKnownDevice(request: Request, userId: string): Promise<boolean> {
  return (await accountsOf(request)).includes(userId);
}

/** The Set-Cookie header that remembers this browser for the account (newest first). */
export async function rememberDevice(request: Request, userId: string): Promise<string> {
  const accounts = [userId, ...(await accountsOf(request)).filter((id) => id !== userId)];
  return deviceCookie().serialize({ accounts: accounts.slice(0, MAX_ACCOUNTS) });
}
