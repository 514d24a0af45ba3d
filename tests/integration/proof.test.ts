/**
 * A recent proof before the irreversible (app/web/proof.server.ts, decision 039), through the real
 * route actions and loaders on PostgreSQL: a session whose proof is older than 10 minutes is sent
 * to /auth/confirm by each guarded action, with what was typed kept for the page's form (once); a
 * fresh proof passes; a personal access token passes; the cookie-authenticated JSON API gets a
 * 403; /auth/confirm counts wrong passwords like failed logins and sets the proof on success.
 */
import { generateTOTP } from "@epic-web/totp";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { apiTokens, members, projects, users, webhooks } from "~/db/schema";
import {
  action as dashboardAction,
  loader as dashboardLoader,
} from "~/routes/_app._project.sites.$studioId/route";
import {
  action as settingsAction,
  loader as settingsLoader,
} from "~/routes/_app._project.sites.settings.$studioId";
import {
  action as userSettingsAction,
  loader as userSettingsLoader,
} from "~/routes/_app.sites.user-settings";
import {
  action as tokensAction,
  loader as tokensLoader,
} from "~/routes/_app.sites.user-settings_.tokens";
import { action as confirmAction, loader as confirmLoader } from "~/routes/auth.confirm";
import {
  action as webhooksAction,
  loader as webhooksLoader,
} from "~/routes/_app._project.sites.$studioId_.webhooks";
import { action as webhooksApi } from "~/routes/api.app.webhooks";
import { getUser } from "~/services/accounts/accounts.server";
import { createApiToken } from "~/services/accounts/api-tokens.server";
import { enableTotp, newTotpSecret } from "~/services/two-factor/index.server";
import { PROOF_NEEDED_API_MESSAGE } from "~/web/proof.server";
import { sessionStorage } from "~/web/session.server";
import { call, makeRequest, sessionCookie } from "../helpers";
import { acceptedMember, actor, api, ownedProject, type Actor } from "./members-support";
import { allowPrivateAddresses } from "./webhook-receiver";

const ELEVEN_MINUTES = 11 * 60_000;
const staleCookie = (who: { id: string }) =>
  sessionCookie(who.id, { proofAt: Date.now() - ELEVEN_MINUTES });

async function proofAtOf(cookie: string) {
  const session = await sessionStorage().getSession(cookie);
  return session.get("proofAt") as number | undefined;
}

const TOKEN_FORM = {
  intent: "token-create",
  name: "Deploys from CI",
  scope: "read-write",
  lifetimeDays: "90",
};

function makeToken(cookie: string, form: Record<string, string | string[]> = TOKEN_FORM) {
  return call(tokensAction, makeRequest("/sites/user-settings/tokens", { cookie, form }));
}

async function tokenCount(userId: string) {
  return (await db().select().from(apiTokens).where(eq(apiTokens.userId, userId))).length;
}

function confirmWith(cookie: string, form: Record<string, string>, clientIp = "127.0.0.1") {
  return call(confirmAction, makeRequest("/auth/confirm", { cookie, form }), {}, { clientIp });
}

const confirmPath = (returnTo: string) => `/auth/confirm?returnTo=${encodeURIComponent(returnTo)}`;

describe("making a token", () => {
  it("sends a stale session to /auth/confirm, keeps the typed form once, and makes nothing", async () => {
    const who = await actor();
    const project = await ownedProject(who);
    const cookie = await staleCookie(who);
    const res = await makeToken(cookie, { ...TOKEN_FORM, projectIds: [project._id] });
    expect(res).toHaveRedirect(confirmPath("/sites/user-settings/tokens"));
    expect(await tokenCount(who.id)).toBe(0);

    const page = await call(tokensLoader, makeRequest("/sites/user-settings/tokens", { cookie }));
    expect((await page.json()).typed).toEqual({
      name: "Deploys from CI",
      scope: "read-write",
      lifetimeDays: "90",
      projectIds: project._id,
    });
    // Read once: a reload shows the empty form again.
    const again = await call(tokensLoader, makeRequest("/sites/user-settings/tokens", { cookie }));
    expect((await again.json()).typed).toBeNull();
  });

  it("passes with a proof of the last 10 minutes", async () => {
    const who = await actor();
    const cookie = await sessionCookie(who.id, { proofAt: Date.now() - 9 * 60_000 });
    const res = await makeToken(cookie);
    expect(res.status).toBe(200);
    expect((await res.json()).created.name).toBe("Deploys from CI");
    expect(await tokenCount(who.id)).toBe(1);
  });

  it("treats a session without any proof as stale", async () => {
    const who = await actor();
    const res = await makeToken(await sessionCookie(who.id, { proofAt: null }));
    expect(res).toHaveRedirect(/^\/auth\/confirm\?/);
  });
});

describe("/auth/confirm", () => {
  it("offers what the account has, and returns only to the app's own pages", async () => {
    const who = await actor();
    const cookie = await staleCookie(who);
    const res = await call(
      confirmLoader,
      makeRequest(`/auth/confirm?returnTo=${encodeURIComponent("https://evil.example/x")}`, {
        cookie,
      }),
    );
    expect(await res.json()).toMatchObject({
      returnTo: "/",
      hasPassword: true,
      hasSecondFactor: false,
      sso: false,
    });
    const anonymous = await call(confirmLoader, makeRequest("/auth/confirm"));
    expect(anonymous).toHaveRedirect(/^\/auth\/login/);
  });

  it("a right password sets the proof and goes back; the token form then works", async () => {
    const who = await actor();
    const cookie = await staleCookie(who);
    await makeToken(cookie);
    const before = (await proofAtOf(cookie))!;
    const res = await confirmWith(cookie, {
      intent: "confirm-password",
      password: who.password,
      returnTo: "/sites/user-settings/tokens",
    });
    expect(res).toHaveRedirect("/sites/user-settings/tokens");
    expect(await proofAtOf(cookie)).toBeGreaterThan(before + ELEVEN_MINUTES - 1000);
    const page = await call(tokensLoader, makeRequest("/sites/user-settings/tokens", { cookie }));
    expect((await page.json()).typed).toMatchObject({ name: "Deploys from CI" });
    expect((await makeToken(cookie)).status).toBe(200);
  });

  it("says a wrong password beside the field and counts it like a failed login", async () => {
    const who = await actor();
    const cookie = await staleCookie(who);
    const ip = `198.51.100.${Math.floor(Math.random() * 200) + 20}`;
    const wrong = () =>
      confirmWith(cookie, { intent: "confirm-password", password: "not it", returnTo: "/" }, ip);
    const first = await wrong();
    expect(first.status).toBe(400);
    expect((await first.json()).result.error).toEqual({
      password: ["The current password is not right"],
    });
    // The account's limit of failed logins from one address (5 in 15 minutes) holds here too.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await wrong()).status);
    expect(statuses).toContain(429);
    const right = await confirmWith(
      cookie,
      { intent: "confirm-password", password: who.password, returnTo: "/" },
      ip,
    );
    expect(right.status).toBe(429);
    expect((await right.json()).result.error.password[0]).toMatch(/too many/i);
    expect(await proofAtOf(cookie)).toBeLessThan(Date.now() - 10 * 60_000);
  });

  it("takes a recovery code of an account with a second factor, once", async () => {
    const who = await actor();
    const secret = newTotpSecret();
    const { otp } = await generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" });
    const { recoveryCodes } = await enableTotp(who.user, secret, otp);
    const cookie = await staleCookie(who);
    const page = await call(confirmLoader, makeRequest("/auth/confirm", { cookie }));
    expect(await page.json()).toMatchObject({ hasSecondFactor: true });
    const code = recoveryCodes![0];
    const used = await confirmWith(cookie, { intent: "confirm-code", code, returnTo: "/sites" });
    expect(used).toHaveRedirect("/sites");
    const stale = await staleCookie(who);
    const again = await confirmWith(stale, { intent: "confirm-code", code, returnTo: "/sites" });
    expect(again.status).toBe(400);
    expect((await again.json()).result.error.code).toHaveLength(1);
  });
});

describe("projects: transfer and delete", () => {
  async function ownerWithAdmin() {
    const owner = await actor();
    const project = await ownedProject(owner);
    const admin = await acceptedMember(owner, project, "admin");
    return { owner, project, admin };
  }

  it("a stale owner transferring is sent to confirm, and the form comes back chosen", async () => {
    const { owner, project, admin } = await ownerWithAdmin();
    const cookie = await staleCookie(owner);
    const path = `/sites/settings/${project.studioId}`;
    const form = { intent: "project-transfer", toUserId: admin.id, confirm: "on" };
    const res = await call(settingsAction, makeRequest(path, { cookie, form }), {
      studioId: project.studioId,
    });
    expect(res).toHaveRedirect(confirmPath(path));
    const [row] = await db().select().from(projects).where(eq(projects.id, project._id));
    expect(row.ownerId).toBe(owner.id);
    const page = await call(settingsLoader, makeRequest(path, { cookie }), {
      studioId: project.studioId,
    });
    expect((await page.json()).stashed.transfer).toEqual({ toUserId: admin.id, confirm: "on" });

    const fresh = await sessionCookie(owner.id);
    const done = await call(settingsAction, makeRequest(path, { cookie: fresh, form }), {
      studioId: project.studioId,
    });
    expect(done).toHaveRedirect(path);
    const [after] = await db().select().from(projects).where(eq(projects.id, project._id));
    expect(after.ownerId).toBe(admin.id);
  });

  it("deleting returns to the same dialog with the typed name; fresh, it deletes", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const cookie = await staleCookie(owner);
    const path = `/sites/settings/${project.studioId}?dialog=delete-project`;
    const form = { intent: "project-delete", confirmName: project.name };
    const res = await call(settingsAction, makeRequest(path, { cookie, form }), {
      studioId: project.studioId,
    });
    expect(res).toHaveRedirect(confirmPath(path));
    const page = await call(settingsLoader, makeRequest(path, { cookie }), {
      studioId: project.studioId,
    });
    expect((await page.json()).stashed.delete).toEqual({ confirmName: project.name });

    const fresh = await sessionCookie(owner.id);
    const done = await call(settingsAction, makeRequest(path, { cookie: fresh, form }), {
      studioId: project.studioId,
    });
    expect(done).toHaveRedirect("/sites");
    expect(await db().select().from(projects).where(eq(projects.id, project._id))).toEqual([]);
  });
});

describe("making someone a project admin", () => {
  async function ownerAndEditor(): Promise<{
    owner: Actor;
    project: Awaited<ReturnType<typeof ownedProject>>;
    editor: Actor & { memberId: string };
  }> {
    const owner = await actor();
    const project = await ownedProject(owner);
    const editor = await acceptedMember(owner, project, "editor");
    return { owner, project, editor };
  }

  const roleOf = async (memberId: string) =>
    (await db().select().from(members).where(eq(members.id, memberId)))[0].role;

  it("the dashboard's role form asks a stale session for a proof, back to where it was", async () => {
    const { owner, project, editor } = await ownerAndEditor();
    const cookie = await staleCookie(owner);
    const back = `/sites/${project.studioId}?page=1`;
    const form = {
      intent: "member-role",
      memberId: editor.memberId,
      role: "admin",
      redirectTo: back,
    };
    const res = await call(
      dashboardAction,
      makeRequest(`/sites/${project.studioId}`, { cookie, form }),
      {
        studioId: project.studioId,
      },
    );
    // Back to the dashboard, told to fill the role form again.
    const refill = `${back}&refill=member-role`;
    expect(res).toHaveRedirect(confirmPath(refill));
    expect(await roleOf(editor.memberId)).toBe("editor");
    const confirmed = await confirmWith(cookie, {
      intent: "confirm-password",
      password: owner.password,
      returnTo: refill,
    });
    expect(confirmed).toHaveRedirect(refill);
    const page = await call(dashboardLoader, makeRequest(refill, { cookie }), {
      studioId: project.studioId,
    });
    expect((await page.json()).refill).toMatchObject({
      intent: "member-role",
      values: { memberId: editor.memberId, role: "admin", redirectTo: back },
    });
    // Read once: the next load of the page has nothing to fill.
    const again = await call(dashboardLoader, makeRequest(refill, { cookie }), {
      studioId: project.studioId,
    });
    expect((await again.json()).refill).toBeNull();
    // Another role needs no proof.
    const developer = await call(
      dashboardAction,
      makeRequest(`/sites/${project.studioId}`, { cookie, form: { ...form, role: "developer" } }),
      { studioId: project.studioId },
    );
    expect(developer).toHaveRedirect(back);
    expect(await roleOf(editor.memberId)).toBe("developer");
  });

  it("the JSON API answers a stale cookie 403 and lets a token through unchanged", async () => {
    const { owner, project, editor } = await ownerAndEditor();
    const stale = await staleCookie(owner);
    const body = {
      studioId: project.studioId,
      action: "role",
      memberId: editor.memberId,
      role: "admin",
    };
    const refused = await api("PATCH", stale, body);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: PROOF_NEEDED_API_MESSAGE });
    const invited = await api("POST", stale, {
      studioId: project.studioId,
      email: `new-admin-${Date.now()}@example.com`,
      role: "admin",
    });
    expect(invited.status).toBe(403);
    expect(await roleOf(editor.memberId)).toBe("editor");

    const { token } = await createApiToken(owner.user, {
      name: "CI",
      scope: "read-write",
      lifetimeDays: 30,
      projectIds: [],
    });
    const viaToken = await call(
      (await import("~/routes/api.app.members")).action,
      makeRequest("/api/app/members", {
        method: "PATCH",
        json: body,
        headers: { Authorization: `Bearer ${token}` },
      }),
    );
    expect(viaToken.status).toBe(200);
    expect(await roleOf(editor.memberId)).toBe("admin");
  });
});

describe("the account", () => {
  it("an account without a password is sent to confirm before deleting it, the address kept", async () => {
    const who = await actor();
    await db().update(users).set({ passwordHash: null }).where(eq(users.id, who.id));
    const cookie = await staleCookie(who);
    const path = "/sites/user-settings?dialog=delete-account";
    const form = { intent: "account-delete", typedEmail: who.email };
    const res = await call(userSettingsAction, makeRequest(path, { cookie, form }));
    expect(res).toHaveRedirect(confirmPath(path));
    expect(await getUser(who.id)).not.toBeNull();
    const page = await call(userSettingsLoader, makeRequest(path, { cookie }));
    expect((await page.json()).deleteTyped).toEqual({ typedEmail: who.email });
  });

  it("the delete dialog's own right password is the proof: a stale session deletes", async () => {
    const who = await actor();
    const cookie = await staleCookie(who);
    const res = await call(
      userSettingsAction,
      makeRequest("/sites/user-settings", {
        cookie,
        form: { intent: "account-delete", currentPassword: who.password },
      }),
    );
    expect(res).toHaveRedirect("/auth/login");
    expect(await getUser(who.id)).toBeNull();
  });

  it("a right current password in a password change is a proof", async () => {
    const who = await actor();
    const cookie = await staleCookie(who);
    const res = await call(
      userSettingsAction,
      makeRequest("/sites/user-settings", {
        cookie,
        form: {
          intent: "account-password",
          currentPassword: who.password,
          newPassword: "a brand new passphrase",
          confirmPassword: "a brand new passphrase",
        },
      }),
    );
    expect(res).toHaveRedirect("/sites/user-settings");
    expect(await proofAtOf(cookie)).toBeGreaterThan(Date.now() - 60_000);
    expect((await makeToken(cookie)).status).toBe(200);
  });
});

describe("adding or switching on a webhook", () => {
  // The address is never called here (no event happens): it only has to pass the save's rules.
  const HOOK = { intent: "webhook-add", url: "https://127.0.0.1:9/hook", format: "standard" };
  const pageOf = (studioId: string) => `/sites/${studioId}/webhooks`;
  const postHook = (cookie: string, studioId: string, form: Record<string, string | string[]>) =>
    call(webhooksAction, makeRequest(pageOf(studioId), { cookie, form }), { studioId });
  const hooksOf = (projectId: string) =>
    db().select().from(webhooks).where(eq(webhooks.projectId, projectId));
  beforeEach(() => allowPrivateAddresses(true));
  afterEach(() => allowPrivateAddresses(false));

  it("a stale session is sent to confirm, the form kept once; nothing is added", async () => {
    const who = await actor();
    const { _id, studioId } = await ownedProject(who);
    const cookie = await staleCookie(who);
    const res = await postHook(cookie, studioId, {
      ...HOOK,
      events: ["member.invited", "domain.verified"],
    });
    expect(res).toHaveRedirect(confirmPath(pageOf(studioId)));
    expect(await hooksOf(_id)).toEqual([]);
    const page = await call(webhooksLoader, makeRequest(pageOf(studioId), { cookie }), {
      studioId,
    });
    expect((await page.json()).typed).toEqual({
      url: HOOK.url,
      format: "standard",
      events: ["member.invited", "domain.verified"],
    });

    const fresh = await sessionCookie(who.id);
    const added = await postHook(fresh, studioId, { ...HOOK, events: ["member.invited"] });
    expect(added.status).toBe(200);
    expect(await hooksOf(_id)).toHaveLength(1);
  });

  it("switching a switched-off webhook on asks a stale session too", async () => {
    const who = await actor();
    const { _id, studioId } = await ownedProject(who);
    await postHook(who.cookie, studioId, { ...HOOK, events: ["member.invited"] });
    const [hook] = await hooksOf(_id);
    await db().update(webhooks).set({ enabled: false }).where(eq(webhooks.id, hook.id));
    const res = await postHook(await staleCookie(who), studioId, {
      intent: "webhook-enable",
      webhookId: hook.id,
    });
    expect(res).toHaveRedirect(confirmPath(pageOf(studioId)));
    expect((await hooksOf(_id))[0].enabled).toBe(false);
  });

  it("the JSON API answers a stale cookie 403 and lets a token add one", async () => {
    const who = await actor();
    const { _id, studioId } = await ownedProject(who);
    const body = { studioId, url: HOOK.url, events: ["member.invited"] };
    const post = (auth: { cookie?: string; headers?: Record<string, string> }) =>
      call(webhooksApi, makeRequest("/api/app/webhooks", { method: "POST", json: body, ...auth }));
    const refused = await post({ cookie: await staleCookie(who) });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: PROOF_NEEDED_API_MESSAGE });
    expect(await hooksOf(_id)).toEqual([]);

    const { token } = await createApiToken(who.user, {
      name: "CI hooks",
      scope: "read-write",
      lifetimeDays: 30,
      projectIds: [],
    });
    const viaToken = await post({ headers: { Authorization: `Bearer ${token}` } });
    expect(viaToken.status).toBe(201);
    expect(await hooksOf(_id)).toHaveLength(1);
  });
});
