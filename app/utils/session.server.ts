import { randomBytes } from "node:crypto";
import { createCookie, createSessionStorage, redirect } from "@remix-run/node";
import { eq, lt } from "drizzle-orm";
import { db } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { getUser, type User } from "~/services/accounts.server";
import { env } from "./env.server";

const SESSION_DAYS = 30;

/**
 * Sessions live in the database; the cookie carries only the signed session id, so logout and
 * password resets end sessions on the server.
 */
function storage() {
  const secure = env().secureCookies;
  const cookie = createCookie(secure ? "__Host-stackshift_session" : "stackshift_session", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    secrets: [env().SESSION_SECRET],
    maxAge: SESSION_DAYS * 24 * 60 * 60,
  });
  return createSessionStorage<{ userId?: string; idToken?: string; [key: string]: unknown }>({
    cookie,
    async createData(data, expires) {
      const id = randomBytes(24).toString("base64url");
      await db()
        .insert(sessions)
        .values({
          id,
          userId: (data.userId as string | undefined) ?? null,
          idToken: (data.idToken as string | undefined) ?? null,
          data: data as Record<string, unknown>,
          expiresAt: expires ?? new Date(Date.now() + SESSION_DAYS * 86400_000),
        });
      return id;
    },
    async readData(id) {
      const row = await db().query.sessions.findFirst({ where: eq(sessions.id, id) });
      if (!row || row.expiresAt < new Date()) return null;
      return { ...row.data, userId: row.userId ?? undefined, idToken: row.idToken ?? undefined };
    },
    async updateData(id, data, expires) {
      await db()
        .update(sessions)
        .set({
          data: data as Record<string, unknown>,
          userId: (data.userId as string | undefined) ?? null,
          idToken: (data.idToken as string | undefined) ?? null,
          expiresAt: expires ?? new Date(Date.now() + SESSION_DAYS * 86400_000),
        })
        .where(eq(sessions.id, id));
    },
    async deleteData(id) {
      await db().delete(sessions).where(eq(sessions.id, id));
    },
  });
}

let cached: ReturnType<typeof storage> | undefined;
export function sessionStorage() {
  cached ??= storage();
  return cached;
}

export function getSession(request: Request) {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

export async function getOptionalUser(request: Request): Promise<User | null> {
  const session = await getSession(request);
  const userId = session.get("userId");
  return typeof userId === "string" ? getUser(userId) : null;
}

/** Only same-site paths: an absolute or protocol-relative URL would be an open redirect. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (!to || typeof to !== "string") return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}

/** Users without a session are sent to login, and come back here afterwards. */
export async function requireUser(request: Request): Promise<User> {
  const user = await getOptionalUser(request);
  if (user) return user;
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  throw redirect(`/auth/login?redirectTo=${encodeURIComponent(back)}`);
}

/** For JSON API routes: a 401 JSON error instead of a redirect. */
export async function requireApiUser(request: Request): Promise<User> {
  const user = await getOptionalUser(request);
  if (user) return user;
  throw Response.json({ error: "You must be logged in" }, { status: 401 });
}

export async function requirePlatformAdmin(request: Request): Promise<User> {
  const user = await requireUser(request);
  // 404 rather than 403: the admin pages do not exist for anyone else.
  if (!user.isAdmin) throw new Response("Not Found", { status: 404 });
  return user;
}

/** Starts a fresh session (new id: no fixation) and redirects. */
export async function createUserSession(
  request: Request,
  user: User,
  redirectTo: string,
  extra: { idToken?: string } = {},
) {
  const old = await getSession(request);
  if (old.id) await sessionStorage().destroySession(old);
  const session = await sessionStorage().getSession();
  session.set("userId", user.id);
  if (extra.idToken) session.set("idToken", extra.idToken);
  return redirect(safeRedirect(redirectTo), {
    headers: { "Set-Cookie": await sessionStorage().commitSession(session) },
  });
}

/** Ends the session on the server; returns the cookie header and the id token for OIDC logout. */
export async function endSession(request: Request) {
  const session = await getSession(request);
  const idToken = session.get("idToken");
  return {
    idToken: typeof idToken === "string" ? idToken : undefined,
    setCookie: await sessionStorage().destroySession(session),
  };
}

export async function purgeExpiredSessions() {
  await db().delete(sessions).where(lt(sessions.expiresAt, new Date()));
}
