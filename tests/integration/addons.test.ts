/**
 * Add-ons: the dashboard's cards (loader), the confirmation's form (posted as a plain form), the
 * JSON API's PUT routes, and the job that tells the providers (the local content studio's
 * feature flag and the local sites' environment variable), against PostgreSQL.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localSites, localStudios, projects, projectSites } from "~/db/schema";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { hostingProvider } from "~/providers/hosting/index.server";
import { action as cstudioApi } from "~/routes/api.app.activate-cstudio";
import { action as chromaticApi } from "~/routes/api.app.chromatic";
import { action as e2eApi } from "~/routes/api.app.e2e-tests";
import { action as gptApi } from "~/routes/api.app.gpt3";
import { action as newsletterApi } from "~/routes/api.app.newsletter";
import { action as socialApi } from "~/routes/api.app.studios.social-media";
import {
  action as dashboardAction,
  loader as dashboardLoader,
} from "~/routes/_app._project.sites.$studioId/route";
import { TOKEN_MESSAGES } from "~/services/addons/addon-catalog";
import { ADDON_SYNC_JOB, syncAddon, type AddonsView } from "~/services/addons/addons.server";
import { decryptSecret } from "~/utils/secrets.server";
import { call, makeRequest } from "../helpers";
import { toastOf } from "../setup/matchers";
import { startVercelStandIn, withLiveVercel, type VercelStandIn } from "../stand-ins/vercel";
import { acceptedMember, actor, eventsOf, ownedProject, type Actor } from "./members-support";

/** A project with its studio and its primary (Vercel) site at the local providers. */
async function provisioned(owner: Actor) {
  const project = await ownedProject(owner);
  const studio = await contentStudioProvider().createStudio({
    displayName: project.name,
    idempotencyKey: project.idempotencyKey,
  });
  const site = await hostingProvider("vercel").createSite({
    name: `addons-${project.studioId}`,
    idempotencyKey: project.idempotencyKey,
  });
  await db()
    .update(projects)
    .set({ studioSanityId: studio.projectId })
    .where(eq(projects.id, project._id));
  await db()
    .insert(projectSites)
    .values({ projectId: project._id, provider: "vercel", siteId: site.id, url: site.url });
  return { ...project, studio: studio.projectId, siteId: site.id };
}

async function cards(cookie: string, studioId: string) {
  const res = await call(dashboardLoader, makeRequest(`/sites/${studioId}`, { cookie }), {
    studioId,
  });
  expect(res.status).toBe(200);
  return (await res.json()).addons as AddonsView;
}

const post = (cookie: string, studioId: string, form: Record<string, string>) =>
  call(
    dashboardAction,
    makeRequest(`/sites/${studioId}`, {
      cookie,
      form: { intent: "addon-toggle", redirectTo: `/sites/${studioId}?addon=x`, ...form },
    }),
    { studioId },
  );

const put = (
  route: (args: never) => unknown,
  path: string,
  cookie: string | undefined,
  body: unknown,
) => call(route as never, makeRequest(path, { method: "PUT", cookie, json: body }));

async function syncJobs(projectId: string) {
  const jobs = (await db().execute(
    sql`select data from pgboss.job where name = ${ADDON_SYNC_JOB} and data->>'projectId' = ${projectId}`,
  )) as unknown as { rows: { data: { projectId: string; addon: "gpt" } }[] };
  return jobs.rows.map((r) => r.data);
}

describe("the Add-ons cards and their confirmation (forms without JavaScript)", () => {
  it("switches GPT on and off: flag, events, toast, and the providers told by the job", async () => {
    const owner = await actor({ name: "Gil Owner" });
    const project = await provisioned(owner);
    const before = await cards(owner.cookie, project.studioId);
    expect(before.canToggle).toBe(true);
    expect(before.cards.find((c) => c.key === "gpt")).toMatchObject({
      enabled: false,
      requires: null,
    });

    const on = await post(owner.cookie, project.studioId, { addon: "gpt", enabled: "true" });
    expect(on.status).toBe(302);
    expect(await toastOf(on)).toMatchObject({ title: `GPT enabled for ${project.name}.` });
    expect(
      (await cards(owner.cookie, project.studioId)).cards.find((c) => c.key === "gpt")?.enabled,
    ).toBe(true);

    const [job] = await syncJobs(project._id);
    expect(job).toEqual({ projectId: project._id, addon: "gpt" });
    await syncAddon(job);
    const [studio] = await db()
      .select()
      .from(localStudios)
      .where(eq(localStudios.id, project.studio));
    expect(studio.features).toMatchObject({ gpt: true });
    const [site] = await db().select().from(localSites).where(eq(localSites.id, project.siteId));
    expect(site.env).toMatchObject({ STACKSHIFT_GPT_ENABLED: "true" });

    const off = await post(owner.cookie, project.studioId, { addon: "gpt", enabled: "false" });
    expect(await toastOf(off)).toMatchObject({ title: `GPT disabled for ${project.name}.` });
    await syncAddon({ projectId: project._id, addon: "gpt" });
    const [after] = await db().select().from(localSites).where(eq(localSites.id, project.siteId));
    expect(after.env.STACKSHIFT_GPT_ENABLED).toBeUndefined();

    const events = await eventsOf(project._id, "gpt.");
    expect(events.map((e) => [e.type, e.content])).toEqual([
      ["gpt.enabled", "Gil Owner enabled GPT"],
      ["gpt.disabled", "Gil Owner disabled GPT"],
    ]);
  });

  it("sets Visual Tests up with a token (stored encrypted), and says what is wrong with a bad one", async () => {
    const owner = await actor();
    const project = await provisioned(owner);
    for (const [token, message] of [
      ["", TOKEN_MESSAGES.invalid],
      ["abc_1234567890", TOKEN_MESSAGES.prefix],
      ["chpt_12", TOKEN_MESSAGES.short],
      ["chpt_12345 6789", TOKEN_MESSAGES.format],
    ]) {
      const res = await post(owner.cookie, project.studioId, {
        addon: "visualTests",
        enabled: "true",
        chromaticProjectToken: token,
      });
      expect(res.status, token).toBe(400);
      expect((await res.json()).result.error.chromaticProjectToken, token).toEqual([message]);
    }
    const ok = await post(owner.cookie, project.studioId, {
      addon: "visualTests",
      enabled: "true",
      chromaticProjectToken: "chpt_abcdef123456",
    });
    expect(ok.status).toBe(302);
    const [row] = await db().select().from(projects).where(eq(projects.id, project._id));
    expect(row.isVisualTestsEnabled).toBe(true);
    expect(row.chromaticProjectToken).not.toContain("chpt_");
    expect(decryptSecret(row.chromaticProjectToken!)).toBe("chpt_abcdef123456");
    // Later toggles need no token.
    expect(
      (await post(owner.cookie, project.studioId, { addon: "visualTests", enabled: "false" }))
        .status,
    ).toBe(302);
    expect(
      (await post(owner.cookie, project.studioId, { addon: "visualTests", enabled: "true" }))
        .status,
    ).toBe(302);
    const view = await cards(owner.cookie, project.studioId);
    expect(view.cards.find((c) => c.key === "visualTests")).toMatchObject({
      enabled: true,
      hasToken: true,
    });
  });

  it("refuses a gated add-on below its schema version, and editors", async () => {
    const owner = await actor();
    const project = await provisioned(owner);
    await db().update(projects).set({ schemaVersion: 3 }).where(eq(projects.id, project._id));
    const view = await cards(owner.cookie, project.studioId);
    expect(view.cards.find((c) => c.key === "endToEndTests")?.requires).toBe(4);
    const gated = await post(owner.cookie, project.studioId, {
      addon: "endToEndTests",
      enabled: "true",
    });
    expect(await toastOf(gated)).toMatchObject({
      type: "error",
      title: `Oops. Failed to update End To End Tests for ${project.name}.`,
    });

    const editor = await acceptedMember(owner, project, "editor");
    expect((await cards(editor.cookie, project.studioId)).canToggle).toBe(false);
    const refused = await post(editor.cookie, project.studioId, { addon: "gpt", enabled: "true" });
    expect(await toastOf(refused)).toMatchObject({ type: "error" });
    const [row] = await db().select().from(projects).where(eq(projects.id, project._id));
    expect(row.isGPT3Enabled).toBe(false);
  });
});

describe("support", () => {
  it("lets a platform admin switch an add-on, logged as a support change with the add-on's event", async () => {
    const owner = await actor({ name: "Cora Customer" });
    const project = await provisioned(owner);
    const pa = await actor({ name: "Sam Support", email: "admin@example.com" });
    expect((await cards(pa.cookie, project.studioId)).canToggle).toBe(true);
    const on = await post(pa.cookie, project.studioId, { addon: "socialMedia", enabled: "true" });
    expect(await toastOf(on)).toMatchObject({
      type: "success",
      title: `Social Media enabled for ${project.name}.`,
    });
    expect((await eventsOf(project._id, "socialMedia.")).map((e) => e.content)).toEqual([
      "Sam Support enabled Social Media",
    ]);
    expect((await eventsOf(project._id, "support.changed")).map((e) => e.content)).toEqual([
      "Support access by Sam Support: changed an add-on",
    ]);
  });
});

describe("a hosting provider that fails", () => {
  let standIn: VercelStandIn;
  beforeAll(async () => {
    standIn = await startVercelStandIn();
  });
  afterAll(async () => {
    await standIn.close();
  });

  it("fails the job twice, then the site holds the variable the project's flag says", async () => {
    await withLiveVercel(standIn, async () => {
      const owner = await actor();
      const project = await ownedProject(owner);
      const site = await hostingProvider("vercel").createSite({
        name: `addons-live-${project.studioId}`,
        idempotencyKey: project.idempotencyKey,
      });
      await db()
        .insert(projectSites)
        .values({ projectId: project._id, provider: "vercel", siteId: site.id, url: site.url });
      const on = await post(owner.cookie, project.studioId, { addon: "gpt", enabled: "true" });
      expect(on.status).toBe(302);
      const [job] = await syncJobs(project._id);

      standIn.fail({ method: "POST", path: /\/env$/, status: 503, times: 2 });
      await expect(syncAddon(job)).rejects.toThrow();
      await expect(syncAddon(job)).rejects.toThrow();
      await syncAddon(job);
      const env = standIn.projects.get(site.id)?.env ?? [];
      expect(env.map((e) => e.key)).toContain("STACKSHIFT_GPT_ENABLED");
      const [row] = await db().select().from(projects).where(eq(projects.id, project._id));
      expect(row.isGPT3Enabled).toBe(true);
    });
  });
});

describe("the add-ons API", () => {
  it("switches each add-on through its route; 400, 401, 403 as for every write", async () => {
    const owner = await actor();
    const project = await provisioned(owner);
    const admin = await acceptedMember(owner, project, "admin");
    const studioId = project.studioId;
    const calls = [
      [
        cstudioApi,
        "/api/app/activate-cstudio",
        { studioId, value: "true", schemaVersion: 6, sites: [] },
        "isCStudioEnabled",
      ],
      [gptApi, "/api/app/gpt3", { studioId, value: "true", netlifySiteId: null }, "isGPT3Enabled"],
      [
        newsletterApi,
        "/api/app/newsletter",
        { studioId, action: "enable", schemaVersion: 6 },
        "isAINewsletterEnabled",
      ],
      [
        socialApi,
        "/api/app/studios/social-media",
        { studioId, action: "enable" },
        "isSocialMediaEnabled",
      ],
      [e2eApi, "/api/app/e2e-tests", { studioId, action: "enable" }, "isEndToEndTestsEnabled"],
      [
        chromaticApi,
        "/api/app/chromatic",
        { studioId, action: "enable", chromaticProjectToken: "chpt_0123456789" },
        "isVisualTestsEnabled",
      ],
    ] as const;
    for (const [route, path, body, column] of calls) {
      const res = await put(route, path, admin.cookie, body);
      expect(res.status, path).toBe(200);
      expect(await res.json(), path).toMatchObject({ ok: true, enabled: true, changed: true });
      const [row] = await db().select().from(projects).where(eq(projects.id, project._id));
      expect(row[column], path).toBe(true);
    }
    expect(
      (await put(gptApi, "/api/app/gpt3", admin.cookie, { studioId, value: "yes" })).status,
    ).toBe(400);
    expect(
      (await put(gptApi, "/api/app/gpt3", undefined, { studioId, value: "false" })).status,
    ).toBe(401);
    const editor = await acceptedMember(owner, project, "editor");
    expect(
      (await put(gptApi, "/api/app/gpt3", editor.cookie, { studioId, value: "false" })).status,
    ).toBe(403);
    const stranger = await actor();
    expect(
      (await put(gptApi, "/api/app/gpt3", stranger.cookie, { studioId, value: "false" })).status,
    ).toBe(404);
    const badToken = await put(chromaticApi, "/api/app/chromatic", owner.cookie, {
      studioId,
      action: "enable",
      chromaticProjectToken: "nope",
    });
    expect(badToken.status).toBe(400);
  });
});
