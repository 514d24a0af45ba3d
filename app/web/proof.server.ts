/**
 * A recent proof of holding the account, asked again before the irreversible (making a token,
 * transferring or deleting a project, deleting the account, making someone an admin, turning a
 * factor off, new recovery codes, deleting a passkey). docs/decisions/039-proof-before-the-irreversible.md.
 *
 * The session remembers when its holder last proved it ("proofAt"): signing in, the password or
 * a code on /auth/confirm, a passkey (/auth/passkey, purpose "proof"), a fresh single sign-on, the
 * current password of an e-mail or password change. A proof counts for PROOF_MAX_AGE_MS.
 *
 * A page action without one keeps what was typed (never passwords or codes) in the session and
 * goes to /auth/confirm, which comes back to the same page and dialog; the page's loader hands the
 * typed values back to its form once (`stashedForm`), and the person presses the button again.
 * A JSON API request with a cookie gets a 403 that says to confirm in the dashboard. A personal
 * access token is never asked: it was made with a proof, and its table of rights stays as it is.
 */
import { redirect } from "@remix-run/node";
import type { User } from "~/services/accounts/index.server";
import { env } from "~/utils/env.server";
import { getSession, safeRedirect, sessionStorage } from "./session.server";

/** The longest a proof counts. PROOF_MAX_AGE_SECONDS may shorten it (a test server), never lengthen it. */
export const PROOF_MAX_AGE_MS = 10 * 60_000;

/** How long what was typed waits for its page after /auth/confirm. */
const STASH_MAX_AGE_MS = 30 * 60_000;
/** Fields never kept: they are the secrets a proof or a form carries. */
const SECRET_FIELD = /pass(word)?|code|secret|otp|token/i;
const MAX_STASHED_FIELDS = 50;
const MAX_STASHED_VALUE = 2_000;

export const CONFIRM_PATH = "/auth/confirm";

/** The API's answer to a cookie-authenticated request without a recent proof. */
export const PROOF_NEEDED_API_MESSAGE =
  "Confirm it's you first: open the StackShift dashboard, repeat this there (it asks for your password, a code or a passkey), then this request works for 10 minutes.";

type SessionLike = { get: (key: string) => unknown; set: (key: string, value: unknown) => void };

type StashedForm = {
  intent: string;
  path: string;
  at: number;
  fields: Record<string, string[]>;
};

/** The current maximum age of a proof, in milliseconds. */
export function proofMaxAgeMs() {
  const configured = env().PROOF_MAX_AGE_SECONDS * 1000;
  return Math.min(configured, PROOF_MAX_AGE_MS);
}

/** The session's proof is no older than the maximum age (and not from the future). */
export function proofIsRecent(session: { get: (key: string) => unknown }, now = Date.now()) {
  const at = session.get("proofAt");
  return typeof at === "number" && now - at >= 0 && now - at <= proofMaxAgeMs();
}

/** Records a proof made now in this request's session (the cookie carries only its id). */
export async function noteProof(request: Request, now = Date.now()) {
  const session = await getSession(request);
  if (!session.get("userId")) return;
  session.set("proofAt", now);
  await sessionStorage().commitSession(session);
}

/** Whether this request's session holds a recent proof (tokens: always, see the file's doc). */
export async function hasRecentProof(request: Request, user: User) {
  if (user.apiToken) return true;
  return proofIsRecent(await getSession(request));
}

/** The page a form was posted from: its path and search, without Remix's own parameters. */
function pageOf(request: Request, formData?: FormData) {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  url.searchParams.delete("_data");
  const here = url.pathname + url.search;
  // Forms that return somewhere else (the members section) name it.
  const named = formData?.get("redirectTo");
  return typeof named === "string" && named ? safeRedirect(named, here) : here;
}

function keepTyped(formData: FormData): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  let count = 0;
  for (const [name, value] of formData) {
    if (typeof value !== "string" || name === "intent" || SECRET_FIELD.test(name)) continue;
    if (count >= MAX_STASHED_FIELDS) break;
    (fields[name] ??= []).push(value.slice(0, MAX_STASHED_VALUE));
    count += 1;
  }
  return fields;
}

/**
 * Passes when the request may do something irreversible now: it came with a personal access
 * token, or its session proved holding the account within PROOF_MAX_AGE_MS. Otherwise it throws:
 * for a page action (`formData` given) a redirect to /auth/confirm that comes back to the page,
 * with what was typed kept for `stashedForm`; for the JSON API a 403 JSON error. Call it first in
 * the action or handler, before anything changes.
 */
export async function requireRecentProof(
  request: Request,
  user: User,
  options: { formData?: FormData; returnTo?: string } = {},
): Promise<void> {
  if (user.apiToken) return;
  const session = await getSession(request);
  if (proofIsRecent(session)) return;
  const url = new URL(request.url);
  if (url.pathname.startsWith("/api/") || !options.formData) {
    throw Response.json({ error: PROOF_NEEDED_API_MESSAGE }, { status: 403 });
  }
  const returnTo = safeRedirect(options.returnTo ?? pageOf(request, options.formData));
  const intent = options.formData.get("intent");
  const stash: StashedForm = {
    intent: typeof intent === "string" ? intent : "",
    path: new URL(returnTo, url.origin).pathname,
    at: Date.now(),
    fields: keepTyped(options.formData),
  };
  (session as SessionLike).set("stashedForm", stash);
  throw redirect(`${CONFIRM_PATH}?returnTo=${encodeURIComponent(returnTo)}`, {
    headers: { "Set-Cookie": await sessionStorage().commitSession(session) },
  });
}

/**
 * What was typed into the form `intent` on this page before /auth/confirm, once: the page's
 * loader passes it to the form as its default values (single fields as a string, repeated ones
 * as a list). Null when nothing waits for this form here.
 */
export async function stashedForm(
  request: Request,
  intent: string,
  now = Date.now(),
): Promise<Record<string, string | string[]> | null> {
  const session = await getSession(request);
  const stash = session.get("stashedForm") as StashedForm | undefined;
  if (!stash || typeof stash !== "object" || stash.intent !== intent) return null;
  if (stash.path !== new URL(request.url).pathname) return null;
  session.unset("stashedForm");
  await sessionStorage().commitSession(session);
  if (typeof stash.at !== "number" || now - stash.at > STASH_MAX_AGE_MS) return null;
  const values: Record<string, string | string[]> = {};
  for (const [name, list] of Object.entries(stash.fields ?? {})) {
    if (!Array.isArray(list)) continue;
    values[name] = list.length === 1 ? String(list[0]) : list.map(String);
  }
  return values;
}
