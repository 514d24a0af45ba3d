import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, queriesRun } from "~/db/client.server";
import {
  analyticsPageDays,
  analyticsReferrerDays,
  eventLogs,
  formMailDays,
  formNotificationAddresses,
  forms,
  formSubmissions,
  localDeploys,
  localSites,
  members,
  newsletterDomains,
  newsletterSavedTemplates,
  newsletterSettings,
  paymentAccounts,
  projects,
  projectSites,
  socialAccounts,
  users,
} from "~/db/schema";
import { loader as analyticsLoader } from "~/routes/_app._project.sites.analytics.$studioId";
import { loader as formsLoader } from "~/routes/_app._project.sites.forms.$studioId";
import { loader as newsletterLoader } from "~/routes/_app._project.sites.newsletter.$studioId";
import { loader as settingsLoader } from "~/routes/_app._project.sites.settings.$studioId";
import { loader as socialLoader } from "~/routes/_app._project.sites.social-media.$studioId";
import { loader as websiteLoader } from "~/routes/_app._project.sites.website.$studioId";
import { loader as versionLoader } from "~/routes/_app.sites.$studioId_.version";
import { utcDay } from "~/services/analytics/analytics.schema";
import { forgetSite } from "~/services/core/provider-cache.server";
import { encryptSecret } from "~/utils/secrets.server";
import type { SectionPage } from "~/web/section-version.server";
import { call, createUser, makeRequest, projectOnLocalSite, sessionCookie } from "../helpers";

/**
 * The data version of each project navigation page: what the page's loader hands its 60 s
 * refresh, and what /sites/{id}/version?section= answers (304 while nothing changed). Every
 * kind of change a page shows must change its version; a change another page shows leaves it
 * alone, so an open page reloads only for what it shows.
 */

const LOADERS = {
  website: websiteLoader,
  analytics: analyticsLoader,
  forms: formsLoader,
  newsletter: newsletterLoader,
  "social-media": socialLoader,
  settings: settingsLoader,
} as const;
const PAGES = Object.keys(LOADERS) as SectionPage[];

const setup = () => projectOnLocalSite("Paula Pages");

async function pageVersion(page: SectionPage, cookie: string, studioId: string): Promise<string> {
  const res = await call(LOADERS[page], makeRequest(`/sites/${page}/${studioId}`, { cookie }), {
    studioId,
  });
  expect(res.status, `${page} loads`).toBe(200);
  return ((await res.json()) as { dataVersion: string }).dataVersion;
}

function askVersion(page: string, cookie: string | undefined, studioId: string, version?: string) {
  const headers = version ? { "If-None-Match": `"${version}"` } : undefined;
  return call(
    versionLoader,
    makeRequest(`/sites/${studioId}/version?section=${page}`, { cookie, headers }),
    { studioId },
  );
}

/**
 * Follows one page's version through changes: `changed` expects another version than the
 * current one, `unchanged` the current one; each time the version route agrees with the page
 * (304). (Undoing a change may bring an earlier version back: the version is of the state.)
 */
async function follow(page: SectionPage, cookie: string, studioId: string) {
  // The first view may write what the page shows from then on (the Forms page's Contact form).
  await pageVersion(page, cookie, studioId);
  let current = await pageVersion(page, cookie, studioId);
  const read = async () => {
    const version = await pageVersion(page, cookie, studioId);
    expect((await askVersion(page, cookie, studioId, version)).status).toBe(304);
    return version;
  };
  expect((await askVersion(page, cookie, studioId, current)).status).toBe(304);
  return {
    changed: async (what: string) => {
      const version = await read();
      expect(version, `${what} changes the ${page} page's version`).not.toBe(current);
      current = version;
    },
    unchanged: async (what: string) => {
      expect(await read(), `${what} leaves the ${page} page's version`).toBe(current);
    },
  };
}

/** Changes that belong to other pages (the dashboard's activity, payments). */
async function otherPagesChange(projectId: string) {
  await db().insert(eventLogs).values({ projectId, type: "project.updated", content: "Elsewhere" });
  await db()
    .insert(paymentAccounts)
    .values({
      projectId,
      accountName: "Shop",
      publishableKey: `pk_test_${randomUUID()}`,
      secretKeyEncrypted: "sealed",
      secretKeyLast4: "4242",
      apiVersion: "2024-06-20",
    });
}

async function addMember(projectId: string, role: "editor" | "admin" = "editor") {
  const member = await createUser({ name: "Max Member" });
  const [row] = await db()
    .insert(members)
    .values({ projectId, userId: member.id, invitedEmail: member.email, status: "accepted", role })
    .returning();
  return { member, row: row! };
}

/** A submission of `formId`, as the public endpoint stores it. */
async function submit(formId: string, message: string) {
  const [row] = await db()
    .insert(formSubmissions)
    .values({ formId, data: { message }, searchText: message.toLowerCase() })
    .returning();
  return row!;
}

describe("each project page's data version", () => {
  it.each(PAGES)(
    "%s: the page and the version route agree, and an unchanged check is 304 and empty",
    async (page) => {
      const { project, cookie } = await setup();
      await pageVersion(page, cookie, project.studioId);
      const version = await pageVersion(page, cookie, project.studioId);
      expect(version).toMatch(/^[\w-]{22}$/);
      const fresh = await askVersion(page, cookie, project.studioId);
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get("ETag")).toBe(`"${version}"`);
      expect(await fresh.json()).toEqual({ version });
      const unchanged = await askVersion(page, cookie, project.studioId, version);
      expect(unchanged.status).toBe(304);
      expect(await unchanged.text()).toBe("");
    },
  );

  it("Website: moves with a deploy at the provider, the site's addresses, the project and the viewer's rights; not with another page's change", async () => {
    const { project, siteId, cookie } = await setup();
    const website = await follow("website", cookie, project.studioId);

    // Deploys at the provider: seen once the provider cache has them (here forgotten, as after
    // our own deploy; otherwise within the cache's fresh window). A build under way is not
    // on the page; published, it is.
    const deployId = `dep-${randomUUID()}`;
    await db()
      .insert(localDeploys)
      .values({ id: deployId, siteId, state: "building", title: "New deploy" });
    forgetSite("netlify", siteId);
    await website.unchanged("a build under way");

    await db().update(localDeploys).set({ state: "ready" }).where(eq(localDeploys.id, deployId));
    await db()
      .update(localSites)
      .set({ publishedDeployId: deployId })
      .where(eq(localSites.id, siteId));
    forgetSite("netlify", siteId);
    await website.changed("the deploy published");

    await db()
      .insert(localDeploys)
      .values({ id: `dep-${randomUUID()}`, siteId, state: "ready", title: "Newer deploy" });
    forgetSite("netlify", siteId);
    await website.changed("another ready deploy (a roll back target)");

    await db()
      .update(projectSites)
      .set({ customDomain: `shop-${randomUUID().slice(0, 8)}.example` })
      .where(eq(projectSites.projectId, project.id));
    await website.changed("a site's custom domain");

    await db().update(projects).set({ name: "Renamed site" }).where(eq(projects.id, project.id));
    await website.changed("the project renamed");

    await otherPagesChange(project.id);
    const [form] = await db()
      .insert(forms)
      .values({ projectId: project.id, name: "Contact" })
      .returning();
    await submit(form!.id, "Hello");
    await website.unchanged("an activity entry, a payment account and a form submission");
  });

  it("the viewer's role moves a page's version (what it offers depends on it)", async () => {
    const { project } = await setup();
    const { member, row } = await addMember(project.id, "editor");
    const cookie = await sessionCookie(member.id);
    const website = await follow("website", cookie, project.studioId);
    await db().update(members).set({ role: "admin" }).where(eq(members.id, row.id));
    await website.changed("the viewer made an admin");
  });

  it("Analytics: moves with a page view and a referrer counted today; not with another page's change", async () => {
    const { project, cookie } = await setup();
    const analytics = await follow("analytics", cookie, project.studioId);
    const day = utcDay(new Date());

    await db()
      .insert(analyticsPageDays)
      .values({ projectId: project.id, day, path: "/", views: 1 });
    await analytics.changed("a first view today");

    await db()
      .update(analyticsPageDays)
      .set({ views: 2 })
      .where(eq(analyticsPageDays.projectId, project.id));
    await analytics.changed("another view of the same page");

    await db()
      .insert(analyticsReferrerDays)
      .values({ projectId: project.id, day, referrer: "search.example", views: 1 });
    await analytics.changed("a referrer");

    await otherPagesChange(project.id);
    await analytics.unchanged("an activity entry and a payment account");
  });

  it("Forms: moves with a submission added or deleted, the form's settings, an address confirmed and held mails; not with another page's change", async () => {
    const { project, siteId, cookie } = await setup();
    const formsPage = await follow("forms", cookie, project.studioId);
    // The page's first view made the site's Contact form.
    const [form] = await db().select().from(forms).where(eq(forms.projectId, project.id));
    expect(form?.name).toBe("Contact");

    const first = await submit(form!.id, "First message");
    await formsPage.changed("a new submission");

    await submit(form!.id, "Second message");
    await formsPage.changed("another submission");

    await db().delete(formSubmissions).where(eq(formSubmissions.id, first.id));
    await formsPage.changed("a submission deleted");

    await db().update(forms).set({ enabled: false }).where(eq(forms.id, form!.id));
    await formsPage.changed("the form turned off");

    const email = "alerts@example.com";
    await db()
      .update(forms)
      .set({ notificationEmails: [email] })
      .where(eq(forms.id, form!.id));
    await db().insert(formNotificationAddresses).values({ formId: form!.id, email });
    await formsPage.changed("a notification address added");

    await db()
      .update(formNotificationAddresses)
      .set({ confirmedAt: new Date() })
      .where(eq(formNotificationAddresses.formId, form!.id));
    await formsPage.changed("the address confirmed");

    await db()
      .insert(formMailDays)
      .values({
        projectId: project.id,
        day: utcDay(new Date()),
        sent: 100,
        held: 1,
        firstHeldAt: new Date(),
      });
    await formsPage.changed("a notification mail held");

    await otherPagesChange(project.id);
    await db()
      .insert(localDeploys)
      .values({ id: `dep-${randomUUID()}`, siteId, state: "building", title: "New deploy" });
    forgetSite("netlify", siteId);
    await formsPage.unchanged("an activity entry, a payment account and a deploy");
  });

  it("Newsletter: moves with the settings saved and a sender domain added, verified and deleted, a template saved, renamed and deleted; not with another page's change", async () => {
    const { project, cookie } = await setup();
    const newsletter = await follow("newsletter", cookie, project.studioId);

    await db()
      .insert(newsletterSettings)
      .values({ projectId: project.id, settings: { fromName: "Shop" } });
    await newsletter.changed("the settings saved");

    await db()
      .update(newsletterSettings)
      .set({ settings: { fromName: "Shop News" }, updatedAt: new Date(Date.now() + 1000) })
      .where(eq(newsletterSettings.projectId, project.id));
    await newsletter.changed("the settings saved again");

    const [domain] = await db()
      .insert(newsletterDomains)
      .values({
        projectId: project.id,
        providerDomainId: `dom-${randomUUID()}`,
        name: `news-${randomUUID().slice(0, 8)}.example`,
        status: "pending",
      })
      .returning();
    await newsletter.changed("a sender domain added");

    await db()
      .update(newsletterDomains)
      .set({ status: "verified" })
      .where(eq(newsletterDomains.id, domain!.id));
    await newsletter.changed("the sender domain verified");

    await otherPagesChange(project.id);
    await newsletter.unchanged("an activity entry and a payment account");

    await db().delete(newsletterDomains).where(eq(newsletterDomains.id, domain!.id));
    await newsletter.changed("the sender domain deleted");

    const [template] = await db()
      .insert(newsletterSavedTemplates)
      .values({ projectId: project.id, name: "Monthly", subject: "News", body: "<p>Hi</p>" })
      .returning();
    await newsletter.changed("a template saved");

    await db()
      .update(newsletterSavedTemplates)
      .set({ name: "Monthly news", updatedAt: new Date(Date.now() + 1000) })
      .where(eq(newsletterSavedTemplates.id, template!.id));
    await newsletter.changed("the template renamed");

    await db()
      .delete(newsletterSavedTemplates)
      .where(eq(newsletterSavedTemplates.id, template!.id));
    await newsletter.changed("the template deleted");
  });

  it("Social Media: moves with an account linked, its profile renamed and unlinked; not with another page's change", async () => {
    const { project, cookie } = await setup();
    const social = await follow("social-media", cookie, project.studioId);
    const userName = `shop.${randomUUID().slice(0, 8)}`;

    const [account] = await db()
      .insert(socialAccounts)
      .values({
        projectId: project.id,
        platform: "instagram",
        providerUserId: randomUUID(),
        userName,
        accessTokenEncrypted: encryptSecret(`IGLOCAL${randomUUID()}`),
        tokenExpiresAt: new Date(Date.now() + 50 * 86_400_000),
      })
      .returning();
    await social.changed("an account linked");

    await db()
      .update(socialAccounts)
      .set({ profileName: "The Shop" })
      .where(eq(socialAccounts.id, account!.id));
    await social.changed("the account's profile name");

    await otherPagesChange(project.id);
    await social.unchanged("an activity entry and a payment account");

    await db().delete(socialAccounts).where(eq(socialAccounts.id, account!.id));
    await social.changed("the account unlinked");
  });

  it("Settings: moves with a rename, the schema version, members and an admin's account; not with another page's change", async () => {
    const { project, cookie } = await setup();
    const settings = await follow("settings", cookie, project.studioId);

    await db().update(projects).set({ name: "Renamed" }).where(eq(projects.id, project.id));
    await settings.changed("the project renamed");

    await db().update(projects).set({ schemaVersion: 3 }).where(eq(projects.id, project.id));
    await settings.changed("the schema version raised");

    const { member, row } = await addMember(project.id, "admin");
    await settings.changed("an admin added (the transfer list)");

    await db().update(users).set({ name: "Max Renamed" }).where(eq(users.id, member.id));
    await settings.changed("the admin's account renamed");

    await db().delete(members).where(eq(members.id, row.id));
    await settings.changed("the admin removed");

    await otherPagesChange(project.id);
    await settings.unchanged("an activity entry and a payment account");
  });

  it.each(PAGES)(
    "%s: an unchanged check is two queries, the session with its account and the project with its digest",
    async (page) => {
      const { project, cookie } = await setup();
      await pageVersion(page, cookie, project.studioId);
      const version = await pageVersion(page, cookie, project.studioId);
      // The first check fills the provider cache (the Website page's deployments).
      expect((await askVersion(page, cookie, project.studioId, version)).status).toBe(304);
      const before = queriesRun();
      expect((await askVersion(page, cookie, project.studioId, version)).status).toBe(304);
      expect(queriesRun() - before).toBe(2);
    },
  );

  it("answers 400 for a page it does not know, 404 to someone outside the project", async () => {
    const { project, cookie } = await setup();
    const unknown = await askVersion("billing", cookie, project.studioId);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: "Unknown page" });

    const stranger = await createUser();
    const hidden = await askVersion("forms", await sessionCookie(stranger.id), project.studioId);
    expect(hidden.status).toBe(404);
  });
});
