/**
 * Recovery ends every access (decision 040): a thief's session makes a personal access token;
 * after each of password reset, password change, the e-mail revert and 'Sign out everywhere
 * else', the thief's session and the token are both refused (the token through the real API
 * route, 401). The owner is told how many tokens went and offered to make new ones; a new token
 * is mailed to its owner, without the secret.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { apiTokens, users } from "~/db/schema";
import { loader as projectsApi } from "~/routes/api.app._index";
import { loader as userApi } from "~/routes/api.user";
import { action as loginAction } from "~/routes/auth.login";
import { action as confirmChangeAction } from "~/routes/auth.email-change.$token";
import { action as revertAction } from "~/routes/auth.email-revert.$token";
import { action as resetAction } from "~/routes/auth.reset.$token";
import {
  action as settingsAction,
  loader as settingsLoader,
} from "~/routes/_app.sites.user-settings";
import { action as tokensAction } from "~/routes/_app.sites.user-settings_.tokens";
import { requestPasswordReset } from "~/services/accounts/account-tokens.server";
import { getAccount } from "~/services/accounts/user-settings.server";
import { call, createUser, makeRequest, newestMailTo, sessionCookie } from "../helpers";
import { toastOf } from "../setup/matchers";

const THIEF_IP = "203.0.113.66";

/** The thief, in a stolen session, makes a read-write token for every project (the attack). */
async function thiefMakesToken(cookie: string, name = "backup job") {
  const res = await call(
    tokensAction,
    makeRequest("/sites/user-settings/tokens", {
      cookie,
      form: { intent: "token-create", name, scope: "read-write", lifetimeDays: "365" },
    }),
    {},
    { clientIp: THIEF_IP },
  );
  expect(res.status).toBe(200);
  const body = (await res.json()) as { created: { token: string } | null };
  expect(body.created?.token).toMatch(/^stackshift_pat_/);
  return body.created!.token;
}

const apiAs = (token: string) =>
  call(userApi, makeRequest("/api/user", { headers: { Authorization: `Bearer ${token}` } }));

async function signedIn(cookie: string) {
  const res = await call(settingsLoader, makeRequest("/sites/user-settings", { cookie }));
  return res.status === 200;
}

async function activeTokens(userId: string) {
  const rows = await db().select().from(apiTokens).where(eq(apiTokens.userId, userId));
  return rows.filter((r) => r.revokedAt === null);
}

/** A real login: the session cookie it sets, or null. */
async function logIn(email: string, password: string) {
  const res = await call(
    loginAction,
    makeRequest("/auth/login", { form: { email, password, redirectTo: "/" } }),
    {},
    { clientIp: "198.51.100.200" },
  );
  return (
    res.headers
      .getSetCookie()
      .find((c) => c.includes("stackshift_session="))
      ?.split(";")[0] ?? null
  );
}

function settings(cookie: string, form: Record<string, string>) {
  return call(
    settingsAction,
    makeRequest("/sites/user-settings", { cookie, form }),
    {},
    {
      clientIp: "198.51.100.201",
    },
  );
}

function linkIn(text: string, path: string) {
  const link = text.match(/https?:\/\/[^\s]+/g)?.find((l) => l.includes(path));
  expect(link, `a link to ${path}`).toBeTruthy();
  return new URL(link!).pathname.split("/").pop()!;
}

async function theAttack() {
  const owner = await createUser();
  const thief = await sessionCookie(owner.id);
  const token = await thiefMakesToken(thief);
  expect((await apiAs(token)).status).toBe(200);
  expect(await signedIn(thief)).toBe(true);
  return { owner, thief, token };
}

async function attackFailed(thief: string, token: string, ownerId: string) {
  expect(await signedIn(thief)).toBe(false);
  const refused = await apiAs(token);
  expect(refused.status).toBe(401);
  expect(refused.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
  // Another route too: the project list a script reads.
  const list = await call(
    projectsApi,
    makeRequest("/api/app", { headers: { Authorization: `Bearer ${token}` } }),
  );
  expect(list.status).toBe(401);
  expect(await activeTokens(ownerId)).toEqual([]);
  const [revoked] = await db().select().from(apiTokens).where(eq(apiTokens.userId, ownerId));
  expect(revoked.revokedBy).toBe(ownerId);
}

describe("recovery ends every access", () => {
  it("a password reset ends the thief's session and token, and says how many tokens went", async () => {
    const { owner, thief, token } = await theAttack();
    await requestPasswordReset(owner.email);
    const resetToken = linkIn((await newestMailTo(owner.email)).text, "/auth/reset/");
    const res = await call(
      resetAction,
      makeRequest(`/auth/reset/${resetToken}`, {
        form: {
          token: resetToken,
          password: "a brand new password",
          confirmPassword: "a brand new password",
        },
      }),
      { token: resetToken },
    );
    expect(res).toHaveRedirect("/sites/user-settings?tokensRevoked=1#api-tokens");
    expect((await toastOf(res))?.description).toContain("1 API token was revoked");
    await attackFailed(thief, token, owner.id);
  });

  it("a password change ends the thief's session and token; the owner's session stays", async () => {
    const { owner, thief, token } = await theAttack();
    const mine = await sessionCookie(owner.id);
    const res = await settings(mine, {
      intent: "account-password",
      currentPassword: owner.password,
      newPassword: "another long password",
      confirmPassword: "another long password",
    });
    expect(res).toHaveRedirect("/sites/user-settings?tokensRevoked=1#api-tokens");
    expect((await toastOf(res))?.description).toBe(
      "Your other sessions were signed out. 1 API token was revoked: scripts using it are refused from now on.",
    );
    await attackFailed(thief, token, owner.id);
    expect(await signedIn(mine)).toBe(true);
  });

  it("'Sign out everywhere else' ends the thief's session and tokens, and the page offers new ones", async () => {
    const { owner, thief, token } = await theAttack();
    await thiefMakesToken(thief, "second");
    const mine = await sessionCookie(owner.id);
    const res = await settings(mine, { intent: "sessions-end-others" });
    expect(res).toHaveRedirect("/sites/user-settings?tokensRevoked=2#api-tokens");
    expect((await toastOf(res))?.description).toBe(
      "1 other session signed out. 2 API tokens were revoked: scripts using them are refused from now on.",
    );
    await attackFailed(thief, token, owner.id);
    expect(await signedIn(mine)).toBe(true);
    const page = await call(
      settingsLoader,
      makeRequest("/sites/user-settings?tokensRevoked=2", { cookie: mine }),
    );
    expect(await page.json()).toMatchObject({ tokensRevoked: 2 });
    // Nothing to say when nothing was revoked: a plain redirect.
    const again = await settings(mine, { intent: "sessions-end-others" });
    expect(again).toHaveRedirect("/sites/user-settings");
  });

  it("the e-mail revert ends the thief's session and token and voids the password the thief knew", async () => {
    const { owner, thief, token } = await theAttack();
    // The thief knows the password too and moves the account to an address of theirs.
    const theirs = `thief-${Date.now()}@example.com`;
    const asked = await settings(thief, {
      intent: "account-email",
      email: theirs,
      currentPassword: owner.password,
    });
    expect(asked.status).toBe(302);
    const changeToken = linkIn((await newestMailTo(theirs)).text, "/auth/email-change/");
    const changed = await call(
      confirmChangeAction,
      makeRequest(`/auth/email-change/${changeToken}`, { cookie: thief, form: {} }),
      { token: changeToken },
    );
    expect(changed.status).toBe(302);
    expect(await signedIn(thief)).toBe(true);

    const revertToken = linkIn((await newestMailTo(owner.email)).text, "/auth/email-revert/");
    const reverted = await call(
      revertAction,
      makeRequest(`/auth/email-revert/${revertToken}`, { form: {} }),
      { token: revertToken },
    );
    expect(reverted).toHaveRedirect("/auth/forgot");
    const toast = await toastOf(reverted);
    expect(toast?.description).toContain("1 API token was revoked");
    expect(toast?.description).toContain("Your password no longer works");
    await attackFailed(thief, token, owner.id);

    // The password both knew no longer signs in; the account has none and no single sign-on.
    const [row] = await db().select().from(users).where(eq(users.id, owner.id));
    expect(row.passwordHash).toBeNull();
    expect(row.email).toBe(owner.email);
    expect(await logIn(owner.email, owner.password)).toBeNull();
    const view = await getAccount({
      id: owner.id,
      name: row.name,
      email: row.email,
      isAdmin: false,
    });
    expect(view).toMatchObject({ hasPassword: false, ssoOnly: false, ssoLinked: false });

    // Forgot password works for it: the owner chooses a new one and signs in.
    await requestPasswordReset(owner.email);
    const resetToken = linkIn((await newestMailTo(owner.email)).text, "/auth/reset/");
    const reset = await call(
      resetAction,
      makeRequest(`/auth/reset/${resetToken}`, {
        form: {
          token: resetToken,
          password: "the owner's new password",
          confirmPassword: "the owner's new password",
        },
      }),
      { token: resetToken },
    );
    expect(reset).toHaveRedirect("/");
    expect(await logIn(owner.email, "the owner's new password")).not.toBeNull();
  });

  it("an account without a password is told to choose one, not that single sign-on manages it", async () => {
    const owner = await createUser();
    await db().update(users).set({ passwordHash: null }).where(eq(users.id, owner.id));
    const mine = await sessionCookie(owner.id);
    const res = await settings(mine, {
      intent: "account-password",
      currentPassword: "anything at all",
      newPassword: "another long password",
      confirmPassword: "another long password",
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.currentPassword[0]).toMatch(
      /no password now: choose one with 'Forgot password'/,
    );
    expect(JSON.stringify(body)).not.toContain("single sign-on");
  });
});

describe("a new token is mailed to its owner", () => {
  it("names the token and the address it was made from, and carries no secret", async () => {
    const owner = await createUser();
    const token = await thiefMakesToken(await sessionCookie(owner.id), "deploy bot");
    const mail = await newestMailTo(owner.email);
    expect(mail.subject).toBe("A new StackShift API token was made for your account");
    expect(mail.text).toContain(`A token named "deploy bot" was made from address ${THIEF_IP}`);
    expect(mail.text).toContain("Sign out everywhere else");
    expect(mail.text).not.toContain(token);
    expect(mail.text).not.toContain(token.slice(-12));
    expect(mail.secrets).toEqual([]);
  });
});
