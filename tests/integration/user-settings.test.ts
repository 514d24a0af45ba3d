/**
 * /sites/user-settings: the name (the shell reads it at once), the e-mail change through a link
 * mailed to the new address, the password change (the old one stops working, other sessions
 * end), the sessions list with signing one or all others out, the splash preference, and
 * deleting the account (refused while it owns projects; its memberships go and the projects
 * say so).
 */
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs, members, outbox, sessions, users } from "~/db/schema";
import {
  action as confirmAction,
  loader as confirmLoader,
} from "~/routes/auth.email-change.$token";
import { action as loginAction } from "~/routes/auth.login";
import { action, loader } from "~/routes/_app.sites.user-settings";
import type { AccountView, SessionView } from "~/services/accounts/user-settings.server";
import { verifyLogin } from "~/services/accounts/accounts.server";
import { POLICIES } from "~/services/core/rate-limit.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { locationOf, toastOf } from "../setup/matchers";
import { addMember } from "./studio-fixtures";

const PAGE = "/sites/user-settings";

async function load(cookie: string) {
  const res = await call(loader, makeRequest(PAGE, { cookie, headers: { "User-Agent": "test" } }));
  expect(res.status).toBe(200);
  return (await res.json()) as { account: AccountView; sessions: SessionView[] };
}

const post = (cookie: string, form: Record<string, string>) =>
  call(action, makeRequest(PAGE, { cookie, form }));

/** A real login through the form: a session with the browser's user agent. */
async function logIn(email: string, password: string, agent: string) {
  const res = await call(
    loginAction,
    makeRequest("/auth/login", {
      form: { email, password, redirectTo: "/" },
      headers: { "User-Agent": agent },
    }),
  );
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.includes("stackshift_session="))
    ?.split(";")[0];
  expect(cookie, `login of ${email}`).toBeTruthy();
  return cookie!;
}

describe("profile", () => {
  it("saves the name", async () => {
    const user = await createUser({ name: "Old Name" });
    const cookie = await sessionCookie(user.id);
    const res = await post(cookie, { intent: "account-name", name: "  New Name  " });
    expect(await toastOf(res)).toMatchObject({ type: "success", title: "Name saved" });
    expect((await load(cookie)).account.name).toBe("New Name");
    expect((await post(cookie, { intent: "account-name", name: "" })).status).toBe(400);
  });

  it("changes the e-mail only when the link's page is confirmed, signed in to the account", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    const next = `moved-${Date.now()}@example.com`;
    const res = await post(cookie, {
      intent: "account-email",
      email: next.toUpperCase(),
      currentPassword: user.password,
    });
    expect(await toastOf(res)).toMatchObject({ title: "Confirmation link sent" });
    expect((await load(cookie)).account).toMatchObject({ email: user.email, pendingEmail: next });
    const [mail] = await db().select().from(outbox).where(eq(outbox.to, next));
    const token = /\/auth\/email-change\/([\w-]+)/.exec(mail.text)![1];
    const opened = await call(
      confirmLoader,
      makeRequest(`/auth/email-change/${token}`, { cookie }),
      { token },
    );
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({ state: "confirm", newEmail: next });
    expect((await load(cookie)).account.email).toBe(user.email);
    const confirmed = await call(
      confirmAction,
      makeRequest(`/auth/email-change/${token}`, { cookie, form: {} }),
      { token },
    );
    expect(confirmed).toHaveRedirect(PAGE);
    expect((await load(cookie)).account.email).toBe(next);
    // Once only.
    const again = await call(
      confirmAction,
      makeRequest(`/auth/email-change/${token}`, { cookie, form: {} }),
      { token },
    );
    expect(again.status).toBe(400);
  });

  it("asks for the current password before mailing the link", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    const next = `nopass-${Date.now()}@example.com`;
    const missing = await post(cookie, { intent: "account-email", email: next });
    expect(missing.status).toBe(400);
    const wrong = await post(cookie, {
      intent: "account-email",
      email: next,
      currentPassword: "not the password",
    });
    expect(wrong.status).toBe(400);
    const body = (await wrong.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.currentPassword).toEqual(["The current password is not right"]);
    expect(await db().select().from(outbox).where(eq(outbox.to, next))).toHaveLength(0);
  });

  it("refuses an address another account uses, beside the field", async () => {
    const user = await createUser();
    const other = await createUser();
    const res = await post(await sessionCookie(user.id), {
      intent: "account-email",
      email: other.email,
      currentPassword: user.password,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.email).toEqual(["Another account uses this address"]);
  });
});

describe("e-mail change requests", () => {
  it("are limited per user, the wait said beside the Email field", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    const stamp = Date.now();
    const ask = (email: string) =>
      post(cookie, { intent: "account-email", email, currentPassword: user.password });
    const allowance = POLICIES.emailChangeUser.points;
    for (let i = 0; i < allowance; i += 1) {
      expect(await toastOf(await ask(`change-${i}-${stamp}@example.com`))).toMatchObject({
        title: "Confirmation link sent",
      });
    }
    const refusedTo = `change-refused-${stamp}@example.com`;
    const refused = await ask(refusedTo);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await refused.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.email).toEqual([
      expect.stringMatching(
        /^Too many e-mail changes asked today\. Please wait \d+ hours and try again\.$/,
      ),
    ]);
    expect(body.result.error.currentPassword).toBeUndefined();
    expect(await db().select().from(outbox).where(eq(outbox.to, refusedTo))).toHaveLength(0);
    // Another person is not affected.
    const other = await createUser();
    const fine = await post(await sessionCookie(other.id), {
      intent: "account-email",
      email: `other-${stamp}@example.com`,
      currentPassword: other.password,
    });
    expect(await toastOf(fine)).toMatchObject({ title: "Confirmation link sent" });
  });

  it("greets the new address without the account's chosen name", async () => {
    const user = await createUser({ name: "Buy cheap pills at pills.example" });
    const next = `greeting-${Date.now()}@example.com`;
    await post(await sessionCookie(user.id), {
      intent: "account-email",
      email: next,
      currentPassword: user.password,
    });
    const [mail] = await db().select().from(outbox).where(eq(outbox.to, next));
    expect(mail.text).toMatch(/^Hello,\n/);
    expect(mail.text).not.toContain("pills");
  });
});

describe("password", () => {
  it("changes it with the current one: the old one stops working, other sessions end", async () => {
    const user = await createUser();
    const here = await logIn(
      user.email,
      user.password,
      "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0",
    );
    const elsewhere = await logIn(user.email, user.password, "Mozilla/5.0 (iPhone) Safari/605.1");
    const wrong = await post(here, {
      intent: "account-password",
      currentPassword: "not it",
      newPassword: "a brand new secret",
      confirmPassword: "a brand new secret",
    });
    expect(wrong.status).toBe(400);
    const changed = await post(here, {
      intent: "account-password",
      currentPassword: user.password,
      newPassword: "a brand new secret",
      confirmPassword: "a brand new secret",
    });
    expect(await toastOf(changed)).toMatchObject({ title: "Password changed" });
    await expect(
      verifyLogin({ email: user.email, password: user.password }, "127.0.0.1"),
    ).rejects.toThrow();
    await expect(
      verifyLogin({ email: user.email, password: "a brand new secret" }, "127.0.0.1"),
    ).resolves.toMatchObject({ id: user.id });
    // This session stays; the other one was signed out.
    expect((await load(here)).sessions).toHaveLength(1);
    const other = await call(loader, makeRequest(PAGE, { cookie: elsewhere }));
    expect(locationOf(other)).toMatch(/^\/auth\/login/);
  });

  it("says where single sign-on users manage their password", async () => {
    const user = await createUser();
    await db()
      .update(users)
      .set({ passwordHash: null, oidcSubject: `sub-${user.id}` })
      .where(eq(users.id, user.id));
    const cookie = await sessionCookie(user.id);
    expect((await load(cookie)).account).toMatchObject({ ssoOnly: true, hasPassword: false });
  });

  it("does not call an account without a password and without single sign-on managed there", async () => {
    const user = await createUser();
    await db().update(users).set({ passwordHash: null }).where(eq(users.id, user.id));
    const cookie = await sessionCookie(user.id);
    expect((await load(cookie)).account).toMatchObject({ ssoOnly: false, hasPassword: false });
  });
});

describe("sessions", () => {
  it("lists the sessions with this one marked, signs one out, then all others", async () => {
    const user = await createUser();
    const here = await logIn(
      user.email,
      user.password,
      "Mozilla/5.0 (Windows NT 10.0) Chrome/130.0 Safari/537.36",
    );
    const phone = await logIn(
      user.email,
      user.password,
      "Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile",
    );
    await logIn(user.email, user.password, "Mozilla/5.0 (Macintosh; Mac OS X 14) Safari/605.1");
    const listed = (await load(here)).sessions;
    expect(listed).toHaveLength(3);
    expect(listed.filter((s) => s.current)).toHaveLength(1);
    expect(listed.map((s) => s.userAgent)).toContain(
      "Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile",
    );
    const android = listed.find((s) => s.userAgent?.includes("Android"))!;
    const res = await post(here, { intent: "session-end", session: android.handle });
    expect(await toastOf(res)).toMatchObject({ title: "Session signed out" });
    expect(locationOf(await call(loader, makeRequest(PAGE, { cookie: phone })))).toMatch(
      /^\/auth\/login/,
    );
    // This session cannot be signed out from the list (that is Log out).
    const current = listed.find((s) => s.current)!;
    expect(
      await toastOf(await post(here, { intent: "session-end", session: current.handle })),
    ).toMatchObject({
      type: "error",
    });
    const all = await post(here, { intent: "sessions-end-others" });
    expect(await toastOf(all)).toMatchObject({
      title: "Signed out everywhere else",
      description: "1 other session signed out.",
    });
    expect((await load(here)).sessions).toHaveLength(1);
  });

  it("cannot sign out someone else's session", async () => {
    const user = await createUser();
    const victim = await createUser();
    const victimCookie = await logIn(victim.email, victim.password, "victim-agent");
    const [row] = await db().select().from(sessions).where(eq(sessions.userId, victim.id));
    const { createHash } = await import("node:crypto");
    const handle = createHash("sha256").update(`session:${row.id}`).digest("hex").slice(0, 24);
    await post(await sessionCookie(user.id), { intent: "session-end", session: handle });
    expect((await load(victimCookie)).sessions).toHaveLength(1);
  });
});

describe("preferences", () => {
  it("turns the studio splash back on", async () => {
    const user = await createUser();
    await db().update(users).set({ hideStudioSplash: true }).where(eq(users.id, user.id));
    const cookie = await sessionCookie(user.id);
    expect((await load(cookie)).account.hideStudioSplash).toBe(true);
    const res = await post(cookie, { intent: "preferences" });
    expect(await toastOf(res)).toMatchObject({ title: "Preferences saved" });
    expect((await load(cookie)).account.hideStudioSplash).toBe(false);
  });
});

describe("deleting the account", () => {
  it("is refused while the user owns projects, naming them", async () => {
    const user = await createUser();
    const project = await insertProject(user.id, { name: "Owned Bakery" });
    const res = await post(await sessionCookie(user.id), {
      intent: "account-delete",
      currentPassword: user.password,
    });
    expect(await toastOf(res)).toMatchObject({
      type: "error",
      title: "Your account cannot be deleted yet",
      description: "You own Owned Bakery. Transfer or delete it first.",
    });
    expect(await db().select().from(users).where(eq(users.id, user.id))).toHaveLength(1);
    expect(project.name).toBe("Owned Bakery");
  });

  it("removes the user, their memberships and sessions, and tells each project", async () => {
    const owner = await createUser();
    const project = await insertProject(owner.id);
    const user = await createUser({ name: "Leaving Lee" });
    await addMember(project.id, user, "developer");
    const cookie = await logIn(user.email, user.password, "agent");
    const res = await post(cookie, { intent: "account-delete", currentPassword: user.password });
    expect(res).toHaveRedirect("/auth/login");
    expect(await toastOf(res)).toMatchObject({ title: "Your account has been deleted" });
    expect(await db().select().from(users).where(eq(users.id, user.id))).toHaveLength(0);
    expect(await db().select().from(members).where(eq(members.userId, user.id))).toHaveLength(0);
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    const [event] = await db()
      .select()
      .from(eventLogs)
      .where(and(eq(eventLogs.projectId, project.id), eq(eventLogs.type, "members.leaved")));
    expect(event.content).toBe("Leaving Lee deleted their account and left the project");
    const [count] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(eq(users.id, owner.id));
    expect(count.n).toBe(1);
  });
});
