/**
 * A link only shows; a person's click acts (docs/decisions/024-a-link-only-shows.md).
 * Mail scanners open every link (GET and HEAD) before a person reads the mail: no mailed link may
 * change a row by being opened. The attacks of the issue are played here against the real routes:
 * a stranger's signup with a platform admin's address, an e-mail change onto it, login CSRF
 * through a link. Then the e-mail change's notice and revert, other sessions ended, passwords
 * asked for deletion and counted like failed logins, session ids hashed at rest, invitations
 * claimed only while open, and the list of accounts whose address was never proved.
 */
import fs from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database, db } from "~/db/client.server";
import { emailChanges, members, sessions, users } from "~/db/schema";
import { loader as adminLoader } from "~/routes/_app.admin";
import {
  action as settingsAction,
  loader as settingsLoader,
} from "~/routes/_app.sites.user-settings";
import { action as loginAction } from "~/routes/auth.login";
import {
  action as emailChangeAction,
  loader as emailChangeLoader,
} from "~/routes/auth.email-change.$token";
import { action as revertAction, loader as revertLoader } from "~/routes/auth.email-revert.$token";
import { loader as resetLoader } from "~/routes/auth.reset.$token";
import { action as verifyAction, loader as verifyLoader } from "~/routes/auth.verify.$token";
import { loader as formNotificationLoader } from "~/routes/form-notifications.$token";
import { loader as unsubscribeLoader } from "~/routes/notifications.unsubscribe.$token";
import { loader as invitationLoader } from "~/routes/invitations.$invitationKey";
import { action as signupAction, loader as signupLoader } from "~/routes/signup";
import { addressProof } from "~/services/accounts/address-proof.server";
import { requestPasswordReset } from "~/services/accounts/account-tokens.server";
import {
  deploymentErrorPage,
  emitProjectEvent,
  EVENTS_FANOUT_JOB,
} from "~/services/events/emit.server";
import { ensureDefaultForm, saveFormSettings } from "~/services/forms/forms.server";
import { newInvitationKey } from "~/services/members/members.server";
import { POLICIES } from "~/services/core/rate-limit.server";
import { readSessionRow, sessionRowId } from "~/services/accounts/sessions.server";
import {
  describeUnproven,
  unprovenAccounts,
} from "~/services/accounts/unproven-accounts-command.server";
import { resetEnv } from "~/utils/env.server";
import { getSession } from "~/web/session.server";
import {
  call,
  runQueuedJobs,
  createUser,
  insertProject,
  makeRequest,
  newestMailTo,
  sessionCookie,
} from "../helpers";
import { locationOf, toastOf } from "../setup/matchers";
import { asUser } from "./studio-fixtures";
import { changedTables, checksumQuery, readChecksums } from "./table-checksums";

const stamp = `${Date.now()}${Math.random().toString(36).slice(2, 6)}`;
/** A second platform admin whose account does not exist yet (the target). */
const ADMIN2 = `second-admin-${stamp}@example.com`;
const savedAdmins = process.env.PLATFORM_ADMIN_EMAILS;

beforeAll(() => {
  process.env.PLATFORM_ADMIN_EMAILS = `${savedAdmins ?? ""},${ADMIN2}`;
  resetEnv();
});
afterAll(() => {
  process.env.PLATFORM_ADMIN_EMAILS = savedAdmins;
  resetEnv();
});

// ---------------------------------------------------------------------------------------------
// Every table's rows, as fuzz.test.ts checks "rows changed": a count and checksum per table.

/** A read of a session may note when it was last seen; nothing else may change. */
const IGNORED_COLUMNS: Record<string, string[]> = { sessions: ["last_seen_at"] };
let checksumSql = "";

async function tableChecksums(): Promise<Map<string, string>> {
  checksumSql ||= await checksumQuery(IGNORED_COLUMNS);
  return readChecksums(checksumSql);
}

async function expectNoRowChanged(what: string, act: () => Promise<unknown>) {
  const before = await tableChecksums();
  await act();
  const after = await tableChecksums();
  expect(changedTables(before, after), `${what} changed rows`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// Helpers

let ip = 0;
const nextIp = () => `10.24.${Math.floor(++ip / 250)}.${ip % 250}`;

function signup(form: Record<string, string>) {
  return call(signupAction, makeRequest("/signup", { form }), {}, { clientIp: nextIp() });
}

function login(email: string, password: string, clientIp = nextIp()) {
  return call(
    loginAction,
    makeRequest("/auth/login", { form: { email, password } }),
    {},
    { clientIp },
  );
}

const sessionOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => /stackshift_session=[^;]/.test(c))
    ?.split(";")[0];

/** The link to `path` in the newest mail to `email` (read before delivery redacts it). */
async function mailedLink(email: string, path: string) {
  const mail = await newestMailTo(email);
  const link = mail?.text.match(/https?:\/\/[^\s]+/g)?.find((l) => l.includes(path));
  expect(link, `a link to ${path} mailed to ${email}`).toBeTruthy();
  return new URL(link!);
}

const tokenOf = (url: URL) => url.pathname.split("/").pop()!;

type Loader = (args: never) => unknown;

/** The loader that answers a mailed link's path, and its params. */
function loaderFor(url: URL): { fn: Loader; params: Record<string, string> } {
  const [, first, second, third] = url.pathname.split("/");
  if (first === "signup") return { fn: signupLoader as Loader, params: {} };
  if (first === "invitations") {
    return { fn: invitationLoader as Loader, params: { invitationKey: second } };
  }
  if (first === "form-notifications") {
    return { fn: formNotificationLoader as Loader, params: { token: second } };
  }
  if (first === "notifications" && second === "unsubscribe") {
    return { fn: unsubscribeLoader as Loader, params: { token: third } };
  }
  const byPath: Record<string, Loader> = {
    verify: verifyLoader as Loader,
    reset: resetLoader as Loader,
    "email-change": emailChangeLoader as Loader,
    "email-revert": revertLoader as Loader,
  };
  if (first === "auth" && byPath[second]) return { fn: byPath[second], params: { token: third } };
  throw new Error(`No loader for ${url.pathname}`);
}

/** What a mail scanner (or a person) does by opening a link: GET and HEAD, cookie or not. */
async function open(url: URL, method: "GET" | "HEAD", cookie?: string) {
  const { fn, params } = loaderFor(url);
  return call(fn as never, makeRequest(url.pathname + url.search, { method, cookie }), params, {
    clientIp: nextIp(),
  });
}

async function changeEmail(cookie: string, email: string, currentPassword?: string) {
  return call(
    settingsAction,
    makeRequest("/sites/user-settings", {
      cookie,
      form: {
        intent: "account-email",
        email,
        ...(currentPassword === undefined ? {} : { currentPassword }),
      },
    }),
    {},
    { clientIp: nextIp() },
  );
}

function confirmChange(token: string, cookie?: string) {
  return call(emailChangeAction, makeRequest(`/auth/email-change/${token}`, { cookie, form: {} }), {
    token,
  });
}

async function userByEmail(email: string) {
  const [row] = await db().select().from(users).where(eq(users.email, email));
  return row;
}

async function isSignedIn(cookie: string) {
  const res = await call(settingsLoader, makeRequest("/sites/user-settings", { cookie }));
  return res.status === 200;
}

async function invite(email: string) {
  const owner = await createUser();
  const project = await insertProject(owner.id);
  const [member] = await db()
    .insert(members)
    .values({ projectId: project.id, invitedEmail: email, invitationKey: newInvitationKey() })
    .returning();
  return { owner, project, member };
}

// ---------------------------------------------------------------------------------------------

describe("a stranger's signup with a platform admin's address", () => {
  it("gives the stranger nothing when a mail scanner opens the confirmation link", async () => {
    const strangerPassword = "the stranger's own password";
    const res = await signup({ name: "Not The Admin", email: ADMIN2, password: strangerPassword });
    expect(res).toHaveRedirect(`/auth/verify?email=${encodeURIComponent(ADMIN2)}`);
    const link = await mailedLink(ADMIN2, "/auth/verify/");

    // The corporate scanner opens every link, with GET and HEAD: nothing changes, nobody signs in.
    const answers: Response[] = [];
    await expectNoRowChanged("the scanner's GET and HEAD", async () => {
      answers.push(await open(link, "HEAD"));
      answers.push(await open(link, "GET"));
    });
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(sessionOf(answer)).toBeUndefined();
    }
    expect(await userByEmail(ADMIN2)).toBeUndefined();

    // The stranger cannot log in (there is no account) and /admin is not theirs.
    const tried = await login(ADMIN2, strangerPassword);
    expect(tried.status).not.toBe(302);
    expect(sessionOf(tried)).toBeUndefined();
    const admin = await call(adminLoader, makeRequest("/admin"));
    expect(locationOf(admin)).toMatch(/^\/auth\/login/);

    // The real admin, reading the mail, does not know the stranger's password: confirming fails.
    const guessed = await call(
      verifyAction,
      makeRequest(link.pathname, { form: { password: "the admin's own password" } }),
      { token: tokenOf(link) },
      { clientIp: nextIp() },
    );
    expect(guessed.status).toBe(400);
    expect(sessionOf(guessed)).toBeUndefined();
    expect(await userByEmail(ADMIN2)).toBeUndefined();

    // So the admin signs up with their own password and confirms that: the stranger's is dead.
    await signup({ name: "Second Admin", email: ADMIN2, password: "the admin's own password" });
    const own = await mailedLink(ADMIN2, "/auth/verify/");
    const confirmed = await call(
      verifyAction,
      makeRequest(own.pathname, { form: { password: "the admin's own password" } }),
      { token: tokenOf(own) },
      { clientIp: nextIp() },
    );
    expect(confirmed.status).toBe(302);
    expect((await userByEmail(ADMIN2)).name).toBe("Second Admin");
    const late = await call(
      verifyAction,
      makeRequest(link.pathname, { form: { password: strangerPassword } }),
      { token: tokenOf(link) },
      { clientIp: nextIp() },
    );
    expect(late.status).toBe(400);
    expect((await login(ADMIN2, strangerPassword)).status).toBe(401);
    const adminLogin = await login(ADMIN2, "the admin's own password");
    expect(adminLogin.status).toBe(302);
    const page = await call(adminLoader, makeRequest("/admin", { cookie: sessionOf(adminLogin) }));
    expect(page.status).toBe(200);
  });

  it("counts wrong passwords on the confirmation page like failed logins", async () => {
    const email = `guess-${stamp}@example.com`;
    await db()
      .insert(members)
      .values({
        projectId: (await insertProject((await createUser()).id)).id,
        invitedEmail: email,
        invitationKey: newInvitationKey(),
      });
    await signup({ name: "Guessed", email, password: "the right password" });
    const link = await mailedLink(email, "/auth/verify/");
    const from = nextIp();
    const attempt = (password: string) =>
      call(
        verifyAction,
        makeRequest(link.pathname, { form: { password } }),
        { token: tokenOf(link) },
        { clientIp: from },
      );
    for (let i = 0; i < POLICIES.loginFailuresAccount.points; i += 1) {
      expect((await attempt(`wrong ${i}`)).status).toBe(400);
    }
    const refused = await attempt("the right password");
    expect(refused.status).toBe(429);
    expect(await userByEmail(email)).toBeUndefined();
  });
});

describe("an e-mail change onto a platform admin's address", () => {
  const target = `third-admin-${stamp}@example.com`;
  beforeAll(() => {
    process.env.PLATFORM_ADMIN_EMAILS = `${process.env.PLATFORM_ADMIN_EMAILS},${target}`;
    resetEnv();
  });

  it("needs the password, changes nothing when the link is opened, and only the account's own browser can confirm", async () => {
    const stranger = await createUser({ name: "Stranger" });
    const strangerCookie = await sessionCookie(stranger.id);
    // A stolen session alone cannot ask: the current password is needed.
    expect((await changeEmail(strangerCookie, target)).status).toBe(400);
    expect((await changeEmail(strangerCookie, target, "a guess")).status).toBe(400);
    expect(await newestMailTo(target)).toBeUndefined();

    expect(
      await toastOf(await changeEmail(strangerCookie, target, stranger.password)),
    ).toMatchObject({ title: "Confirmation link sent" });
    const link = await mailedLink(target, "/auth/email-change/");
    const token = tokenOf(link);

    // The admin's scanner, and the admin signed in to their own account, open it: nothing changes.
    const adminAccount = await createUser({ email: `admins-other-${stamp}@example.com` });
    const adminCookie = await sessionCookie(adminAccount.id);
    await expectNoRowChanged("opening the e-mail change link", async () => {
      for (const cookie of [undefined, adminCookie, strangerCookie]) {
        for (const method of ["HEAD", "GET"] as const) {
          const res = await open(link, method, cookie);
          expect(res.status).toBe(200);
          expect(sessionOf(res)).toBeUndefined();
        }
      }
    });

    // A click signed out, or signed in as another account, changes nothing either.
    await expectNoRowChanged("confirming from another browser", async () => {
      expect((await confirmChange(token)).status).toBe(403);
      expect((await confirmChange(token, adminCookie)).status).toBe(400);
    });
    expect((await userByEmail(stranger.email)).id).toBe(stranger.id);
    expect(await userByEmail(target)).toBeUndefined();
  });
});

describe("login CSRF through a mailed link", () => {
  it("opening someone else's link signs nobody in and keeps the viewer's own session", async () => {
    // The attacker has a waiting signup and a waiting e-mail change, and mails both links around.
    const attackerEmail = `attacker-${stamp}@example.com`;
    await invite(attackerEmail);
    await signup({ name: "Attacker", email: attackerEmail, password: "attacker password" });
    const verifyLink = await mailedLink(attackerEmail, "/auth/verify/");
    const attacker = await createUser({ email: `attacker2-${stamp}@example.com` });
    const attackerCookie = await sessionCookie(attacker.id);
    const newAddress = `attacker-new-${stamp}@example.com`;
    await changeEmail(attackerCookie, newAddress, attacker.password);
    const changeLink = await mailedLink(newAddress, "/auth/email-change/");

    const victim = await createUser({ name: "Victim" });
    const victimCookie = await sessionCookie(victim.id);
    for (const link of [verifyLink, changeLink]) {
      for (const cookie of [undefined, victimCookie]) {
        const res = await open(link, "GET", cookie);
        expect(sessionOf(res), `${link.pathname} signs nobody in`).toBeUndefined();
      }
    }
    // The confirmation page's POST needs the signup's password; the change's, the account's browser.
    const posted = await call(
      verifyAction,
      makeRequest(verifyLink.pathname, { cookie: victimCookie, form: { password: "" } }),
      { token: tokenOf(verifyLink) },
    );
    expect(sessionOf(posted)).toBeUndefined();
    expect((await confirmChange(tokenOf(changeLink), victimCookie)).status).toBe(400);
    expect((await getSession(makeRequest("/", { cookie: victimCookie }))).get("userId")).toBe(
      victim.id,
    );
    expect(await userByEmail(attackerEmail)).toBeUndefined();
  });
});

describe("every mailed link", () => {
  it("changes no row when opened with HEAD or GET, signed out or in", async () => {
    const links: URL[] = [];
    // Signup confirmation.
    const newcomer = `newcomer-${stamp}@example.com`;
    await invite(newcomer);
    await signup({ name: "Newcomer", email: newcomer, password: "newcomer password" });
    links.push(await mailedLink(newcomer, "/auth/verify/"));
    // Invitation (its proof) and access approval (the signup page with a proof).
    const { member } = await invite(`invitee-${stamp}@example.com`);
    links.push(
      new URL(
        `http://localhost:3000/invitations/${member.invitationKey}?proof=${addressProof(member.invitedEmail)}`,
      ),
    );
    const approved = `approved-${stamp}@example.com`;
    links.push(
      new URL(
        `http://localhost:3000/signup?email=${encodeURIComponent(approved)}&proof=${addressProof(approved)}`,
      ),
    );
    // Password reset.
    const resetter = await createUser();
    await requestPasswordReset(resetter.email);
    links.push(await mailedLink(resetter.email, "/auth/reset/"));
    // E-mail change, and the revert link of an applied one.
    const mover = await createUser();
    const moverCookie = await sessionCookie(mover.id);
    const moved = `moved-${stamp}@example.com`;
    await changeEmail(moverCookie, moved, mover.password);
    links.push(await mailedLink(moved, "/auth/email-change/"));
    const reverter = await createUser();
    const reverterCookie = await sessionCookie(reverter.id);
    const away = `away-${stamp}@example.com`;
    await changeEmail(reverterCookie, away, reverter.password);
    expect(
      (await confirmChange(tokenOf(await mailedLink(away, "/auth/email-change/")), reverterCookie))
        .status,
    ).toBe(302);
    links.push(await mailedLink(reverter.email, "/auth/email-revert/"));
    // A form's new notification address (decision 028).
    const formOwner = await createUser();
    const formProject = await insertProject(formOwner.id);
    const formId = await ensureDefaultForm(formProject.id);
    const alerts = `alerts-${stamp}@example.com`;
    await saveFormSettings(asUser(formOwner), formProject.studioId, {
      formId,
      enabled: true,
      notificationEmails: [alerts],
      redirectUrl: null,
    });
    links.push(await mailedLink(alerts, "/form-notifications/"));
    // The unsubscribe link of a notification mail (decision 049).
    const notified = await createUser();
    const notifiedProject = await insertProject(notified.id);
    await db().transaction((tx) =>
      emitProjectEvent(tx, {
        projectId: notifiedProject.id,
        type: "deployment.failed",
        payload: {
          deploymentId: null,
          permanent: false,
          errorPageUrl: deploymentErrorPage(notifiedProject.studioId, false),
        },
      }),
    );
    await runQueuedJobs(EVENTS_FANOUT_JOB);
    links.push(await mailedLink(notified.email, "/notifications/unsubscribe/"));
    expect(links).toHaveLength(8);

    const someone = await createUser();
    const cookies = [undefined, await sessionCookie(someone.id), moverCookie, reverterCookie];
    for (const link of links) {
      await expectNoRowChanged(`opening ${link.pathname}`, async () => {
        for (const cookie of cookies) {
          for (const method of ["HEAD", "GET"] as const) {
            const res = await open(link, method, cookie);
            expect(res.status, `${method} ${link.pathname}`).toBeLessThan(500);
            expect(sessionOf(res), `${method} ${link.pathname} signs nobody in`).toBeUndefined();
          }
        }
      });
    }
  });
});

describe("an applied e-mail change", () => {
  it("ends the other sessions, follows the person's memberships, and mails the old address a revert link", async () => {
    const user = await createUser({ name: "Mover" });
    const { project } = await invite(`someone-${stamp}@example.com`);
    const [membership] = await db()
      .insert(members)
      .values({
        projectId: project.id,
        invitedEmail: user.email,
        userId: user.id,
        status: "accepted",
        acceptedAt: new Date(),
      })
      .returning();
    const here = await sessionCookie(user.id);
    const elsewhere = await sessionCookie(user.id);
    const next = `mover-new-${stamp}@example.com`;
    await changeEmail(here, next, user.password);
    const confirmed = await confirmChange(
      tokenOf(await mailedLink(next, "/auth/email-change/")),
      here,
    );
    expect(confirmed).toHaveRedirect("/sites/user-settings");
    expect((await userByEmail(next)).id).toBe(user.id);
    expect(await isSignedIn(here)).toBe(true);
    expect(await isSignedIn(elsewhere)).toBe(false);
    const [row] = await db().select().from(members).where(eq(members.id, membership.id));
    expect(row.invitedEmail).toBe(next);

    // The notice to the old address.
    const notice = await newestMailTo(user.email);
    expect(notice.subject).toBe("Your StackShift e-mail address was changed");
    expect(notice.text).toContain(`from ${user.email} to ${next}`);
    const revert = await mailedLink(user.email, "/auth/email-revert/");
    const token = tokenOf(revert);
    const shown = await call(revertLoader, makeRequest(revert.pathname), { token });
    expect(await shown.json()).toMatchObject({ oldEmail: user.email, newEmail: next });

    // Reverting (the page's POST): the old address is back, every session ends, rows follow.
    const reverted = await call(revertAction, makeRequest(revert.pathname, { form: {} }), {
      token,
    });
    expect(reverted).toHaveRedirect("/auth/forgot");
    expect(await toastOf(reverted)).toMatchObject({ title: "Your e-mail address is restored" });
    expect((await userByEmail(user.email)).id).toBe(user.id);
    expect(await userByEmail(next)).toBeUndefined();
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    const [back] = await db().select().from(members).where(eq(members.id, membership.id));
    expect(back.invitedEmail).toBe(user.email);
    // Once only.
    const again = await call(revertAction, makeRequest(revert.pathname, { form: {} }), { token });
    expect(again.status).toBe(400);
  });

  it("the revert link expires after 7 days", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    const next = `late-${stamp}@example.com`;
    await changeEmail(cookie, next, user.password);
    await confirmChange(tokenOf(await mailedLink(next, "/auth/email-change/")), cookie);
    const revert = await mailedLink(user.email, "/auth/email-revert/");
    const [change] = await db().select().from(emailChanges).where(eq(emailChanges.userId, user.id));
    expect(change.revertExpiresAt!.getTime() - change.usedAt!.getTime()).toBe(7 * 86_400_000);
    await db()
      .update(emailChanges)
      .set({ revertExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailChanges.userId, user.id));
    const token = tokenOf(revert);
    expect((await call(revertLoader, makeRequest(revert.pathname), { token })).status).toBe(400);
    expect(
      (await call(revertAction, makeRequest(revert.pathname, { form: {} }), { token })).status,
    ).toBe(400);
    expect((await userByEmail(next)).id).toBe(user.id);
  });
});

describe("the current password", () => {
  it("is needed to delete the account", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    const del = (form: Record<string, string>) =>
      call(
        settingsAction,
        makeRequest("/sites/user-settings?dialog=delete-account", {
          cookie,
          form: { intent: "account-delete", ...form },
        }),
        {},
        { clientIp: nextIp() },
      );
    const without = await del({});
    expect(without.status).toBe(400);
    const wrong = await del({ currentPassword: "not it" });
    expect(wrong.status).toBe(400);
    expect(
      ((await wrong.json()) as { result: { error: Record<string, string[]> } }).result.error,
    ).toEqual({ currentPassword: ["The current password is not right"] });
    expect(await userByEmail(user.email)).toBeDefined();
    expect(await del({ currentPassword: user.password })).toHaveRedirect("/auth/login");
    expect(await userByEmail(user.email)).toBeUndefined();
  });

  it("without a password, deleting needs the address typed and a fresh single sign-on", async () => {
    const user = await createUser();
    await db()
      .update(users)
      .set({ passwordHash: null, oidcSubject: `sub-${user.id}` })
      .where(eq(users.id, user.id));
    const stale = await sessionCookie(user.id, { proofAt: null });
    const del = (c: string, form: Record<string, string>) =>
      call(
        settingsAction,
        makeRequest("/sites/user-settings", {
          cookie: c,
          form: { intent: "account-delete", ...form },
        }),
      );
    // No single sign-on (or other proof) in the last minutes: "Confirm it's you" first.
    const confirmFirst = "/auth/confirm?returnTo=%2Fsites%2Fuser-settings";
    expect(await del(stale, { typedEmail: user.email })).toHaveRedirect(confirmFirst);
    expect(await userByEmail(user.email)).toBeDefined();
    // A session that signed in with single sign-on just now: the address must still be typed.
    const { sessionStorage } = await import("~/web/session.server");
    const fresh = await sessionStorage().getSession();
    fresh.set("userId", user.id);
    fresh.set("ssoAt", Date.now());
    // Every sign-in is a proof, single sign-on included (createUserSession).
    fresh.set("proofAt", Date.now());
    const freshCookie = (await sessionStorage().commitSession(fresh)).split(";")[0];
    expect((await del(freshCookie, { typedEmail: "nope@example.com" })).status).toBe(400);
    expect(await userByEmail(user.email)).toBeDefined();
    expect(await del(freshCookie, { typedEmail: user.email.toUpperCase() })).toHaveRedirect(
      "/auth/login",
    );
    expect(await userByEmail(user.email)).toBeUndefined();
  });

  it("counts wrong ones (password, e-mail, deletion) like failed logins", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    const from = nextIp();
    const post = (form: Record<string, string>) =>
      call(
        settingsAction,
        makeRequest("/sites/user-settings", { cookie, form }),
        {},
        {
          clientIp: from,
        },
      );
    const wrongPassword = {
      intent: "account-password",
      currentPassword: "wrong",
      newPassword: "a new long password",
      confirmPassword: "a new long password",
    };
    expect((await post(wrongPassword)).status).toBe(400);
    expect((await post(wrongPassword)).status).toBe(400);
    expect(
      (
        await post({
          intent: "account-email",
          email: `x-${stamp}@example.com`,
          currentPassword: "w",
        })
      ).status,
    ).toBe(400);
    expect((await post({ intent: "account-delete", currentPassword: "wrong" })).status).toBe(400);
    expect((await post({ intent: "account-delete", currentPassword: "wrong" })).status).toBe(400);
    // Five wrong: the right one is refused now, here and at the login form from this address.
    const refused = await post({ ...wrongPassword, currentPassword: user.password });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBeTruthy();
    expect((await login(user.email, user.password, from)).status).toBe(429);
    // Another address is not locked out.
    expect((await login(user.email, user.password)).status).toBe(302);
  });
});

describe("sessions at rest", () => {
  it("are stored under the sha256 of the cookie's id, never the id itself", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    const id = (await getSession(makeRequest("/", { cookie }))).id;
    expect(id).toBeTruthy();
    expect(await db().select().from(sessions).where(eq(sessions.id, id))).toEqual([]);
    const [row] = await db()
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionRowId(id)));
    expect(row.userId).toBe(user.id);
    expect(row.id).not.toBe(id);
    expect(row.id).toMatch(/^[0-9a-f]{64}$/);
  });

  it("the migration's SQL hashes a live row the way the app reads it", async () => {
    const user = await createUser();
    const raw = `legacy-${stamp}`;
    await db()
      .insert(sessions)
      .values({
        id: raw,
        userId: user.id,
        data: { userId: user.id },
        expiresAt: new Date(Date.now() + 86_400_000),
      });
    const migration = fs.readFileSync("drizzle/0018_links_only_show.sql", "utf8");
    const update = migration.match(/UPDATE "sessions" SET "id" = [^;]+;/)![0];
    await database().raw(`${update.slice(0, -1)} WHERE "id" = '${raw}'`);
    expect((await readSessionRow(raw))?.userId).toBe(user.id);
  });
});

describe("invitations at signup", () => {
  it("claims only open invitations, never a membership someone else holds", async () => {
    const address = `reused-${stamp}@example.com`;
    const { project, member: open } = await invite(address);
    // An accepted membership still addressed to it (an account that left the address).
    const earlier = await createUser();
    const other = await insertProject(earlier.id);
    const [held] = await db()
      .insert(members)
      .values({
        projectId: other.id,
        invitedEmail: address,
        userId: earlier.id,
        status: "accepted",
      })
      .returning();
    const res = await signup({
      name: "New Holder",
      email: address,
      password: "a long enough password",
      proof: addressProof(address),
    });
    expect(res.status).toBe(302);
    const created = await userByEmail(address);
    const [claimed] = await db().select().from(members).where(eq(members.id, open.id));
    expect(claimed.userId).toBe(created.id);
    const [kept] = await db().select().from(members).where(eq(members.id, held.id));
    expect(kept.userId).toBe(earlier.id);
    expect(project.id).not.toBe(other.id);
  });
});

describe("npm run accounts:unproven", () => {
  it("lists accounts the migration marked confirmed, platform admins flagged, until proved", async () => {
    const [unproven] = await db()
      .insert(users)
      .values({ name: "Old", email: `old-${stamp}@example.com`, passwordHash: "x" })
      .returning();
    await db()
      .update(users)
      // What migration 0003 did: the same instant as created_at, to the microsecond.
      .set({ emailVerifiedAt: sql`${users.createdAt}` })
      .where(eq(users.id, unproven.id));
    const [adminRow] = await db()
      .insert(users)
      .values({ name: "Old admin", email: `old-admin-${stamp}@example.com` })
      .returning();
    await db()
      .update(users)
      .set({ emailVerifiedAt: sql`${users.createdAt}` })
      .where(eq(users.id, adminRow.id));
    process.env.PLATFORM_ADMIN_EMAILS = `${process.env.PLATFORM_ADMIN_EMAILS},${adminRow.email}`;
    resetEnv();
    const proven = await createUser();

    const list = await unprovenAccounts();
    const emails = list.map((a) => a.email);
    expect(emails).toContain(unproven.email);
    expect(emails).toContain(adminRow.email);
    expect(emails).not.toContain(proven.email);
    expect(list.find((a) => a.email === adminRow.email)?.platformAdmin).toBe(true);
    expect(list.find((a) => a.email === unproven.email)?.platformAdmin).toBe(false);
    expect(list[0].platformAdmin).toBe(true);
    expect(describeUnproven(list).join("\n")).toContain(`${adminRow.email}  (Old admin`);
    expect(describeUnproven(list).join("\n")).toMatch(/PLATFORM ADMIN/);

    // A password reset proves the address: the account leaves the list.
    await requestPasswordReset(unproven.email);
    const reset = await mailedLink(unproven.email, "/auth/reset/");
    const { resetPassword } = await import("~/services/accounts/account-tokens.server");
    await resetPassword(tokenOf(reset), "a brand new password");
    expect((await unprovenAccounts()).map((a) => a.email)).not.toContain(unproven.email);
    expect(
      await db()
        .select()
        .from(users)
        .where(and(eq(users.id, unproven.id), eq(users.emailVerifiedAt, users.createdAt))),
    ).toEqual([]);
  });
});
