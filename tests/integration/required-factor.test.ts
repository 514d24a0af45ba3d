/**
 * Where a second factor is required (decision 042), through the real loaders, actions and API on
 * PostgreSQL: platform admins with REQUIRE_ADMIN_SECOND_FACTOR on (refused /admin, /admin/tokens
 * and support access, with a banner on every page; a factor of ours or a single sign-on whose ID
 * token said the provider used one lets them in), and projects whose owner requires one of its
 * members (the owner's switch, logged; members without one get the page asking for it and their
 * tokens a 403; leaving stays possible).
 */
import { generateTOTP } from "@epic-web/totp";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs, projects } from "~/db/schema";
import { loader as appLoader } from "~/routes/_app";
import { loader as adminLoader } from "~/routes/_app.admin";
import { loader as adminTokensLoader } from "~/routes/_app.admin_.tokens";
import { loader as dashboardLoader } from "~/routes/_app._project.sites.$studioId/route";
import {
  action as settingsAction,
  loader as settingsLoader,
} from "~/routes/_app._project.sites.settings.$studioId";
import { loader as projectApi } from "~/routes/api.app.$id";
import { getUser } from "~/services/accounts/accounts.server";
import { createApiToken } from "~/services/accounts/api-tokens.server";
import { OWNER_NEEDS_SECOND_FACTOR } from "~/services/projects/project-settings.server";
import { enableTotp, newTotpSecret } from "~/services/two-factor/index.server";
import { resetEnv } from "~/utils/env.server";
import { call, makeRequest, sessionCookie } from "../helpers";
import { acceptedMember, actor, api, ownedProject, type Actor } from "./members-support";

const ADMIN = `factor-admin-${Date.now()}@example.com`;
const previous = {
  admins: process.env.PLATFORM_ADMIN_EMAILS,
  required: process.env.REQUIRE_ADMIN_SECOND_FACTOR,
};

function setting(value: "on" | "off" | undefined) {
  if (value === undefined) delete process.env.REQUIRE_ADMIN_SECOND_FACTOR;
  else process.env.REQUIRE_ADMIN_SECOND_FACTOR = value;
  resetEnv();
}

beforeAll(() => {
  process.env.PLATFORM_ADMIN_EMAILS = `${previous.admins ?? ""},${ADMIN}`;
  setting("on");
});

afterAll(() => {
  process.env.PLATFORM_ADMIN_EMAILS = previous.admins;
  setting(previous.required as "on" | "off" | undefined);
});

async function withFactor(who: Actor): Promise<Actor> {
  const secret = newTotpSecret();
  const { otp } = await generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" });
  await enableTotp(who.user, secret, otp);
  return { ...who, user: (await getUser(who.id))! };
}

async function tokenOf(who: Actor) {
  const { token } = await createApiToken(who.user, {
    name: "CI",
    scope: "read-write",
    lifetimeDays: 30,
    projectIds: [],
  });
  return { Authorization: `Bearer ${token}` };
}

async function refusal(res: Response) {
  expect(res.status).toBe(403);
  return (await res.json()) as { secondFactorRequired: string; message: string; setupPath: string };
}

describe("platform admins, REQUIRE_ADMIN_SECOND_FACTOR=on", () => {
  it("without a factor: /admin and /admin/tokens say why, every page has the banner", async () => {
    const admin = await actor({ email: ADMIN });
    const body = await refusal(
      await call(adminLoader, makeRequest("/admin", { cookie: admin.cookie })),
    );
    expect(body).toMatchObject({
      secondFactorRequired: "platform-admin",
      setupPath: "/sites/user-settings/two-factor",
    });
    expect(body.message).toMatch(/Platform admins need a second factor/);
    await refusal(
      await call(adminTokensLoader, makeRequest("/admin/tokens", { cookie: admin.cookie })),
    );
    const shell = await call(appLoader, makeRequest("/sites", { cookie: admin.cookie }));
    expect((await shell.json()).secondFactorBanner).toBe("/sites/user-settings/two-factor");
  });

  it("without a factor: support access to a customer's project is refused, page and token", async () => {
    const admin = await actor({ email: `second-${ADMIN}` });
    process.env.PLATFORM_ADMIN_EMAILS += `,second-${ADMIN}`;
    resetEnv();
    const customer = await actor();
    const project = await ownedProject(customer);
    const page = await call(
      settingsLoader,
      makeRequest(`/sites/settings/${project.studioId}`, { cookie: admin.cookie }),
      { studioId: project.studioId },
    );
    expect(await refusal(page)).toMatchObject({ secondFactorRequired: "platform-admin" });
    const viaToken = await call(
      projectApi,
      makeRequest(`/api/app/${project._id}`, { headers: await tokenOf(admin) }),
      { id: project._id },
    );
    expect(viaToken.status).toBe(403);
    expect((await viaToken.json()).error).toMatch(/Platform admins need a second factor/);
    // Nothing was written as support access.
    const logged = await db()
      .select()
      .from(eventLogs)
      .where(and(eq(eventLogs.projectId, project._id), eq(eventLogs.actorId, admin.id)));
    expect(logged).toEqual([]);
  });

  it("with a factor of ours, or a single sign-on that used one, the admin pages open", async () => {
    const admin = await withFactor(await actor({ email: `third-${ADMIN}` }));
    process.env.PLATFORM_ADMIN_EMAILS += `,third-${ADMIN},fourth-${ADMIN}`;
    resetEnv();
    expect((await call(adminLoader, makeRequest("/admin", { cookie: admin.cookie }))).status).toBe(
      200,
    );
    const shell = await call(appLoader, makeRequest("/sites", { cookie: admin.cookie }));
    expect((await shell.json()).secondFactorBanner).toBeNull();

    const sso = await actor({ email: `fourth-${ADMIN}` });
    const ssoCookie = await sessionCookie(sso.id, { data: { ssoSecondFactor: true } });
    expect((await call(adminLoader, makeRequest("/admin", { cookie: ssoCookie }))).status).toBe(
      200,
    );
  });

  it("off, nothing is asked", async () => {
    setting("off");
    try {
      const admin = await actor({ email: `fifth-${ADMIN}` });
      process.env.PLATFORM_ADMIN_EMAILS += `,fifth-${ADMIN}`;
      resetEnv();
      expect(
        (await call(adminLoader, makeRequest("/admin", { cookie: admin.cookie }))).status,
      ).toBe(200);
    } finally {
      setting("on");
    }
  });

  it("defaults to on for a public https APP_URL and off for localhost", async () => {
    const { parseEnv } = await import("~/utils/env.server");
    const base = { ...process.env, REQUIRE_ADMIN_SECOND_FACTOR: undefined };
    const at = (APP_URL: string) => parseEnv({ ...base, APP_URL }).requireAdminSecondFactor;
    expect(at("https://dash.example.com")).toBe(true);
    expect(at("https://localhost:3000")).toBe(false);
    expect(at("http://dash.example.com")).toBe(false);
    expect(
      parseEnv({ ...base, APP_URL: "https://dash.example.com", REQUIRE_ADMIN_SECOND_FACTOR: "off" })
        .requireAdminSecondFactor,
    ).toBe(false);
  });
});

describe("a project that requires a second factor of its members", () => {
  const requireForm = (on: boolean) => ({
    intent: "project-require-two-factor",
    ...(on ? { requireTwoFactor: "on" } : {}),
  });
  const switchIt = (cookie: string, studioId: string, on: boolean) =>
    call(
      settingsAction,
      makeRequest(`/sites/settings/${studioId}`, { cookie, form: requireForm(on) }),
      { studioId },
    );

  it("the owner needs a factor first; other admins cannot switch it", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const res = await switchIt(owner.cookie, project.studioId, true);
    expect(res.status).toBe(400);
    expect((await res.json()).result.error).toEqual({
      requireTwoFactor: [OWNER_NEEDS_SECOND_FACTOR],
    });
    const admin = await acceptedMember(owner, project, "admin");
    const refused = await switchIt(admin.cookie, project.studioId, true);
    expect(refused.status).toBe(403);
    const [row] = await db().select().from(projects).where(eq(projects.id, project._id));
    expect(row.requireTwoFactor).toBe(false);
  });

  it("on: members without one get the page asking for it and their tokens a 403", async () => {
    const owner = await withFactor(await actor());
    const project = await ownedProject(owner);
    const editor = await acceptedMember(owner, project, "editor");
    const developer = await withFactor(await acceptedMember(owner, project, "developer"));
    const editorToken = await tokenOf(editor);

    const on = await switchIt(owner.cookie, project.studioId, true);
    expect(on).toHaveRedirect(`/sites/settings/${project.studioId}`);
    const [logged] = await db()
      .select()
      .from(eventLogs)
      .where(
        and(eq(eventLogs.projectId, project._id), eq(eventLogs.type, "project.twoFactor.changed")),
      );
    expect(logged.content).toMatch(/required a second factor of every member/);
    const settings = await call(
      settingsLoader,
      makeRequest(`/sites/settings/${project.studioId}`, { cookie: owner.cookie }),
      { studioId: project.studioId },
    );
    expect((await settings.json()).settings).toMatchObject({
      requireTwoFactor: true,
      canRequireTwoFactor: true,
    });

    // The member without a factor: the project's pages ask for one, the shell still renders.
    const page = await call(
      dashboardLoader,
      makeRequest(`/sites/${project.studioId}`, { cookie: editor.cookie }),
      { studioId: project.studioId },
    );
    expect(await refusal(page)).toMatchObject({ secondFactorRequired: "project" });
    const shell = await call(
      appLoader,
      makeRequest(`/sites/${project.studioId}`, { cookie: editor.cookie }),
    );
    expect(shell.status).toBe(200);
    const api403 = await call(
      projectApi,
      makeRequest(`/api/app/${project._id}`, { headers: editorToken }),
      { id: project._id },
    );
    expect(api403.status).toBe(403);
    expect((await api403.json()).error).toMatch(/requires a second factor of its members/);

    // The member with one opens it, by page and by token.
    const opened = await call(
      dashboardLoader,
      makeRequest(`/sites/${project.studioId}`, { cookie: developer.cookie }),
      { studioId: project.studioId },
    );
    expect(opened.status).toBe(200);
    const viaToken = await call(
      projectApi,
      makeRequest(`/api/app/${project._id}`, { headers: await tokenOf(developer) }),
      { id: project._id },
    );
    expect(viaToken.status).toBe(200);

    // Leaving needs no factor.
    const left = await api("PATCH", editor.cookie, { studioId: project.studioId, action: "leave" });
    expect(left.status).toBe(200);

    // Off again: nothing is asked.
    expect(await switchIt(owner.cookie, project.studioId, false)).toHaveRedirect(
      `/sites/settings/${project.studioId}`,
    );
    const [row] = await db().select().from(projects).where(eq(projects.id, project._id));
    expect(row.requireTwoFactor).toBe(false);
  });
});
