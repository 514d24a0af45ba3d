/**
 * Linking Instagram accounts to a project: the Social accounts card's Connect (a state bound to
 * the user, the session and the project, used once within ten minutes), the local authorization
 * page, the return page in both modes, the JSON API's exchange_token and unlink_account, one
 * account per user name, who may, and the daily token refresh.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs, oauthLinkStates, socialAccounts } from "~/db/schema";
import {
  action as dashboardAction,
  loader as dashboardLoader,
} from "~/routes/_app._project.sites.$studioId/route";
import { action as apiAction } from "~/routes/api.app.integrations.$integrationId";
import {
  action as authorizeAction,
  loader as authorizeLoader,
} from "~/routes/local.oauth.$provider.authorize";
import {
  action as callbackAction,
  loader as callbackLoader,
} from "~/routes/oauth.$provider.callback/route";
import { loader as socialMediaLoader } from "~/routes/_app._project.sites.social-media.$studioId";
import {
  refreshSocialTokens,
  type SocialAccountsView,
} from "~/services/integrations/social-accounts.server";
import { decryptSecret } from "~/utils/secrets.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { locationOf, toastOf } from "../setup/matchers";
import { addMember } from "./studio-fixtures";

type TestUser = Awaited<ReturnType<typeof createUser>>;
let owner: TestUser;
let ownerCookie: string;

beforeAll(async () => {
  owner = await createUser({ name: "Ingrid Linker" });
  ownerCookie = await sessionCookie(owner.id);
});

const CONNECT = {
  intent: "social-link",
  platform: "instagram",
  professional: "on",
  mode: "tab",
};

/** Connect on the card: the authorization page's address (with the state in it). */
async function connect(studioId: string, cookie = ownerCookie, form: Record<string, string> = {}) {
  const res = await call(
    dashboardAction,
    makeRequest(`/sites/${studioId}`, { cookie, form: { ...CONNECT, ...form } }),
    { studioId },
  );
  return res;
}

async function authorizeUrl(studioId: string, cookie = ownerCookie, mode = "tab") {
  const res = await connect(studioId, cookie, { mode });
  expect(res.status).toBe(302);
  return new URL(locationOf(res)!);
}

/** The local authorization page's Authorize: the return page's address with code and state. */
async function authorize(url: URL, userName: string) {
  const path = url.pathname + url.search;
  const page = await call(authorizeLoader, makeRequest(path), { provider: "instagram" });
  expect(page.status).toBe(200);
  const res = await call(
    authorizeAction,
    makeRequest(path, { form: { decision: "authorize", userName, profileName: "Linked Studio" } }),
    { provider: "instagram" },
  );
  expect(res.status).toBe(302);
  return new URL(locationOf(res)!);
}

async function returnPage(back: URL, cookie = ownerCookie) {
  return call(callbackLoader, makeRequest(back.pathname + back.search, { cookie }), {
    provider: "instagram",
  });
}

const exchangeApi = (studioId: string, code: string, state: string, cookie = ownerCookie) =>
  call(
    apiAction,
    makeRequest("/api/app/integrations/social-accounts", {
      cookie,
      json: {
        action: "exchange_token",
        integration: { platform: "instagram" },
        pageBuilderId: studioId,
        authorizationCode: code,
        state,
      },
    }),
    { integrationId: "social-accounts" },
  );

async function card(studioId: string, cookie = ownerCookie): Promise<SocialAccountsView> {
  const res = await call(dashboardLoader, makeRequest(`/sites/${studioId}`, { cookie }), {
    studioId,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { social: SocialAccountsView }).social;
}

let names = 0;
const userName = (label = "studio") => `${label}.${Date.now().toString(36)}${++names}`;

describe("linking without JavaScript (the return page in the same tab)", () => {
  it("sends the user to the authorization page with the five scopes and a state naming the project", async () => {
    const project = await insertProject(owner.id);
    const url = await authorizeUrl(project.studioId);
    expect(url.pathname).toBe("/local/oauth/instagram/authorize");
    expect(url.searchParams.get("scope")).toBe(
      "instagram_business_basic,instagram_business_manage_messages,instagram_business_manage_comments,instagram_business_content_publish,instagram_business_manage_insights",
    );
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("redirect_uri")).toBe(
      "http://localhost:3000/oauth/instagram/callback",
    );
    expect(url.searchParams.get("state")).toMatch(
      new RegExp(`^${project.studioId}\\.[\\w-]{20,}$`),
    );
  });

  it("links the account, stores its token encrypted, logs it and says 'Completed Instagram authorization!'", async () => {
    const project = await insertProject(owner.id);
    const name = userName();
    const back = await authorize(await authorizeUrl(project.studioId), name);
    expect(back.pathname).toBe("/oauth/instagram/callback");
    const res = await returnPage(back);
    expect(res).toHaveRedirect(`/sites/${project.studioId}#social-accounts`);
    expect(await toastOf(res)).toMatchObject({
      type: "success",
      title: "Completed Instagram authorization!",
    });
    const view = await card(project.studioId);
    expect(view.accounts).toEqual([
      expect.objectContaining({
        platform: "instagram",
        userName: name,
        profileName: "Linked Studio",
        profileUrl: `https://www.instagram.com/${name}`,
      }),
    ]);
    const [row] = await db()
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.projectId, project.id));
    expect(row.accessTokenEncrypted).not.toContain("IGLOCAL");
    expect(decryptSecret(row.accessTokenEncrypted)).toMatch(/^IGLOCAL/);
    expect(row.tokenExpiresAt.getTime()).toBeGreaterThan(Date.now() + 50 * 86_400_000);
    const events = await db()
      .select({ type: eventLogs.type, content: eventLogs.content })
      .from(eventLogs)
      .where(eq(eventLogs.projectId, project.id));
    expect(events).toContainEqual({
      type: "social.account.linked",
      content: `Ingrid Linker linked the Instagram account @${name}`,
    });
  });

  it("refuses Connect until the professional account box is ticked, next to the box", async () => {
    const project = await insertProject(owner.id);
    const res = await connect(project.studioId, ownerCookie, { professional: "" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.professional).toEqual([
      "Tick this box: Instagram links professional accounts only",
    ]);
    const noPlatform = await connect(project.studioId, ownerCookie, { platform: "" });
    expect(noPlatform.status).toBe(400);
  });

  it("answers a cancelled authorization with a toast and links nothing", async () => {
    const project = await insertProject(owner.id);
    const url = await authorizeUrl(project.studioId);
    const denied = await call(
      authorizeAction,
      makeRequest(url.pathname + url.search, { form: { decision: "deny" } }),
      { provider: "instagram" },
    );
    const back = new URL(locationOf(denied)!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    const res = await returnPage(back);
    expect(await toastOf(res)).toMatchObject({ title: "Instagram authorization was cancelled." });
    expect((await card(project.studioId)).accounts).toEqual([]);
  });
});

describe("linking in a popup (the return page exchanges through the JSON API)", () => {
  it("shows 'Authorizing' with the code, then exchange_token links once and only once", async () => {
    const project = await insertProject(owner.id);
    const back = await authorize(
      await authorizeUrl(project.studioId, ownerCookie, "popup"),
      userName(),
    );
    const page = await returnPage(back);
    expect(page.status).toBe(200);
    const data = (await page.json()) as { outcome: string; code: string; state: string };
    expect(data.outcome).toBe("authorizing");
    const first = await exchangeApi(project.studioId, data.code, data.state);
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({
      ok: true,
      account: { userName: expect.any(String) },
    });
    // The state is spent: the same answer again is refused, and nothing is linked twice.
    const again = await exchangeApi(project.studioId, data.code, data.state);
    expect(again.status).toBe(400);
    expect((await card(project.studioId)).accounts).toHaveLength(1);
  });

  it("without scripts, the page's Continue completes the link and goes back to the card", async () => {
    const project = await insertProject(owner.id);
    const back = await authorize(
      await authorizeUrl(project.studioId, ownerCookie, "popup"),
      userName(),
    );
    const res = await call(
      callbackAction,
      makeRequest("/oauth/instagram/callback", {
        cookie: ownerCookie,
        form: { code: back.searchParams.get("code")!, state: back.searchParams.get("state")! },
      }),
      { provider: "instagram" },
    );
    expect(res).toHaveRedirect(`/sites/${project.studioId}#social-accounts`);
    expect((await card(project.studioId)).accounts).toHaveLength(1);
  });
});

describe("states that are not this user's, session's or project's never exchange the code", () => {
  it("refuses another session's state, and the code stays unspent for the right one", async () => {
    const project = await insertProject(owner.id);
    const back = await authorize(await authorizeUrl(project.studioId), userName());
    const code = back.searchParams.get("code")!;
    const state = back.searchParams.get("state")!;
    // The same owner in another browser (another session): refused, nothing exchanged.
    const otherSession = await sessionCookie(owner.id);
    const refused = await returnPage(back, otherSession);
    expect(refused.status).toBe(200);
    expect(await refused.json()).toMatchObject({ outcome: "refused" });
    expect((await exchangeApi(project.studioId, code, state, otherSession)).status).toBe(400);
    // An attacker who started nothing: refused too.
    const stranger = await createUser();
    expect(
      (await exchangeApi(project.studioId, code, state, await sessionCookie(stranger.id))).status,
    ).toBe(400);
    expect((await card(project.studioId)).accounts).toEqual([]);
    // The local code was never redeemed: the session that started the round trip completes it.
    const res = await returnPage(back);
    expect(await toastOf(res)).toMatchObject({ title: "Completed Instagram authorization!" });
  });

  it("refuses a forged state, a state of another project, and an expired one", async () => {
    const project = await insertProject(owner.id);
    const other = await insertProject(owner.id);
    const back = await authorize(await authorizeUrl(project.studioId), userName());
    const code = back.searchParams.get("code")!;
    const state = back.searchParams.get("state")!;
    const forged = `${project.studioId}.${"A".repeat(32)}`;
    expect((await exchangeApi(project.studioId, code, forged)).status).toBe(400);
    // The state names project A; the body names project B.
    expect((await exchangeApi(other.studioId, code, state)).status).toBe(400);
    // Project B's id with A's nonce.
    const swapped = `${other.studioId}.${state.split(".").at(-1)}`;
    expect((await exchangeApi(other.studioId, code, swapped)).status).toBe(400);
    await db()
      .update(oauthLinkStates)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(oauthLinkStates.projectId, project.id));
    expect((await exchangeApi(project.studioId, code, state)).status).toBe(400);
    expect((await card(project.studioId)).accounts).toEqual([]);
    expect((await card(other.studioId)).accounts).toEqual([]);
  });
});

describe("one account per user name", () => {
  it("answers 409 with the spec's words for a user name linked already, here or elsewhere", async () => {
    const first = await insertProject(owner.id);
    const second = await insertProject(owner.id);
    const name = userName();
    await returnPage(await authorize(await authorizeUrl(first.studioId), name));
    const res = await returnPage(
      await authorize(await authorizeUrl(second.studioId), name.toUpperCase()),
    );
    expect(await toastOf(res)).toMatchObject({
      type: "error",
      title:
        "Instagram Account is already linked! You can only link 1 account per unique username.",
    });
    expect((await card(second.studioId)).accounts).toEqual([]);
  });

  it("answers 409 from the API for the local provider's 'taken' user names", async () => {
    const project = await insertProject(owner.id);
    const back = await authorize(
      await authorizeUrl(project.studioId, ownerCookie, "popup"),
      userName("taken"),
    );
    const res = await exchangeApi(
      project.studioId,
      back.searchParams.get("code")!,
      back.searchParams.get("state")!,
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      error:
        "Instagram Account is already linked! You can only link 1 account per unique username.",
    });
  });
});

describe("who may link and unlink", () => {
  it("lets admins link; editors and developers see the card without Link account and cannot start", async () => {
    const project = await insertProject(owner.id);
    const editor = await createUser();
    await addMember(project.id, editor, "editor");
    const editorCookie = await sessionCookie(editor.id);
    const view = await card(project.studioId, editorCookie);
    expect(view).toMatchObject({ canLink: false, canUnlink: false });
    const res = await connect(project.studioId, editorCookie);
    expect(res.status).toBe(302);
    expect(locationOf(res)).toBe(`/sites/${project.studioId}#social-accounts`);
    expect(await toastOf(res)).toMatchObject({
      title: "Something went wrong when opening the Instagram login window.",
      description: "Only admins can link social accounts",
    });
    const admin = await createUser();
    await addMember(project.id, admin, "admin");
    expect((await connect(project.studioId, await sessionCookie(admin.id))).status).toBe(302);
    const outsider = await createUser();
    expect((await connect(project.studioId, await sessionCookie(outsider.id))).status).toBe(404);
  });

  it("unlinks through the card's confirmation and through PATCH unlink_account", async () => {
    const project = await insertProject(owner.id);
    const first = userName();
    const second = userName();
    await returnPage(await authorize(await authorizeUrl(project.studioId), first));
    await returnPage(await authorize(await authorizeUrl(project.studioId), second));
    const [one] = (await card(project.studioId)).accounts;
    const res = await call(
      dashboardAction,
      makeRequest(`/sites/${project.studioId}`, {
        cookie: ownerCookie,
        form: { intent: "social-unlink", accountId: one.id },
      }),
      { studioId: project.studioId },
    );
    expect(await toastOf(res)).toMatchObject({
      type: "success",
      title: "Instagram account unlinked",
    });
    const patch = await call(
      apiAction,
      makeRequest("/api/app/integrations/social-accounts", {
        cookie: ownerCookie,
        method: "PATCH",
        json: {
          action: "unlink_account",
          integration: { platform: "instagram" },
          pageBuilderId: project.studioId,
          userName: second,
        },
      }),
      { integrationId: "social-accounts" },
    );
    expect(patch.status).toBe(200);
    expect((await card(project.studioId)).accounts).toEqual([]);
    const types = (
      await db()
        .select({ type: eventLogs.type })
        .from(eventLogs)
        .where(eq(eventLogs.projectId, project.id))
    ).map((e) => e.type);
    expect(types.filter((t) => t === "social.account.unlinked")).toHaveLength(2);
  });

  it("unlinks with the specification's body, which names no account", async () => {
    const project = await insertProject(owner.id);
    const unlink = (extra: Record<string, unknown> = {}) =>
      call(
        apiAction,
        makeRequest("/api/app/integrations/social-accounts", {
          cookie: ownerCookie,
          method: "PATCH",
          json: {
            action: "unlink_account",
            integration: { platform: "instagram" },
            pageBuilderId: project.studioId,
            pageBuilderName: "Spec client",
            pageBuilderUserEmail: owner.email,
            siteId: "site-1",
            sanityProjectId: "",
            sanityProjectDataset: "production",
            ...extra,
          },
        }),
        { integrationId: "social-accounts" },
      );
    // Nothing linked yet.
    expect((await unlink()).status).toBe(404);
    const first = userName();
    const second = userName();
    await returnPage(await authorize(await authorizeUrl(project.studioId), first));
    await returnPage(await authorize(await authorizeUrl(project.studioId), second));
    // Two linked: which one is not guessed.
    const refused = await unlink();
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: expect.stringContaining("accountId") });
    expect((await card(project.studioId)).accounts).toHaveLength(2);
    // The integration entry as the project entity gives it names one by its user name.
    const named = await unlink({
      integration: { platform: "instagram", account: { platform: "instagram", userName: first } },
    });
    expect(named.status).toBe(200);
    expect((await card(project.studioId)).accounts.map((a) => a.userName)).toEqual([second]);
    // One left: the body alone unlinks it.
    expect((await unlink()).status).toBe(200);
    expect((await card(project.studioId)).accounts).toEqual([]);
  });

  it("keeps project B's accounts from an admin of project A", async () => {
    const a = await insertProject(owner.id);
    const other = await createUser();
    const b = await insertProject(other.id);
    const otherCookie = await sessionCookie(other.id);
    const name = userName();
    await returnPage(
      await authorize(await authorizeUrl(b.studioId, otherCookie), name),
      otherCookie,
    );
    const [account] = (await card(b.studioId, otherCookie)).accounts;
    expect(account.userName).toBe(name);
    const admin = await createUser();
    await addMember(a.id, admin, "admin");
    const adminCookie = await sessionCookie(admin.id);
    const unlink = await call(
      dashboardAction,
      makeRequest(`/sites/${b.studioId}`, {
        cookie: adminCookie,
        form: { intent: "social-unlink", accountId: account.id },
      }),
      { studioId: b.studioId },
    );
    expect(unlink.status).toBe(404);
    // Naming project A with B's account id: not in A, so nothing happens.
    const viaA = await call(
      dashboardAction,
      makeRequest(`/sites/${a.studioId}`, {
        cookie: adminCookie,
        form: { intent: "social-unlink", accountId: account.id },
      }),
      { studioId: a.studioId },
    );
    expect(await toastOf(viaA)).toMatchObject({
      title: "Something went wrong when trying to unlink the Instagram account.",
    });
    expect((await card(b.studioId, otherCookie)).accounts).toHaveLength(1);
  });
});

describe("the Social Media page", () => {
  it("shows each linked account with its latest posts, and an empty state without any", async () => {
    const project = await insertProject(owner.id);
    const empty = await call(
      socialMediaLoader,
      makeRequest(`/sites/social-media/${project.studioId}`, { cookie: ownerCookie }),
      { studioId: project.studioId },
    );
    expect(((await empty.json()) as { feeds: unknown[] }).feeds).toEqual([]);
    const name = userName();
    await returnPage(await authorize(await authorizeUrl(project.studioId), name));
    const res = await call(
      socialMediaLoader,
      makeRequest(`/sites/social-media/${project.studioId}`, { cookie: ownerCookie }),
      { studioId: project.studioId },
    );
    const { feeds } = (await res.json()) as {
      feeds: {
        account: { userName: string };
        posts: { caption: string; permalink: string }[];
        error: null;
      }[];
    };
    expect(feeds).toHaveLength(1);
    expect(feeds[0].account.userName).toBe(name);
    expect(feeds[0].error).toBeNull();
    expect(feeds[0].posts).toHaveLength(6);
    expect(feeds[0].posts[0].caption).toContain(`@${name}`);
    expect(feeds[0].posts[0].permalink).toMatch(/^https:\/\/www\.instagram\.com\/p\//);
    const stranger = await createUser();
    const hidden = await call(
      socialMediaLoader,
      makeRequest(`/sites/social-media/${project.studioId}`, {
        cookie: await sessionCookie(stranger.id),
      }),
      { studioId: project.studioId },
    );
    expect(hidden.status).toBe(404);
  });
});

describe("token refresh", () => {
  it("refreshes tokens that expire within ten days, and leaves the others", async () => {
    const project = await insertProject(owner.id);
    await returnPage(await authorize(await authorizeUrl(project.studioId), userName()));
    await returnPage(await authorize(await authorizeUrl(project.studioId), userName()));
    const [soon, later] = await db()
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.projectId, project.id))
      .orderBy(socialAccounts.createdAt);
    await db()
      .update(socialAccounts)
      .set({ tokenExpiresAt: sql`now() + interval '3 days'` })
      .where(eq(socialAccounts.id, soon.id));
    const result = await refreshSocialTokens();
    expect(result.refreshed).toBeGreaterThanOrEqual(1);
    const [fresh] = await db().select().from(socialAccounts).where(eq(socialAccounts.id, soon.id));
    expect(decryptSecret(fresh.accessTokenEncrypted)).not.toBe(
      decryptSecret(soon.accessTokenEncrypted),
    );
    expect(fresh.tokenExpiresAt.getTime()).toBeGreaterThan(Date.now() + 50 * 86_400_000);
    const [untouched] = await db()
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.id, later.id));
    expect(untouched.accessTokenEncrypted).toBe(later.accessTokenEncrypted);
  });
});
