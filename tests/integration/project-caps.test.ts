/**
 * Caps on what the platform provisions or proves for a project (docs/configuration.md
 * "Limits"): projects created per user per day (platform admins exempt), Stripe keys checked per
 * user and per project, sender domains per project, and unverified custom domains released after
 * seven days. Each refusal is checked to write nothing.
 */
import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import {
  eventLogs,
  localNewsletterDomains,
  newsletterDomains,
  paymentAccounts,
  projects,
  projectSites,
} from "~/db/schema";
import { hostingProvider } from "~/providers/hosting/index.server";
import { action as createApi } from "~/routes/api.app.create";
import { action as paymentsApi } from "~/routes/api.app.integrations.$integrationId";
import { action as newsletterApi } from "~/routes/api.newsletter";
import { action as domainsApi } from "~/routes/api.app.domains";
import { action as newsletterPage } from "~/routes/_app._project.sites.newsletter.$studioId";
import { action as sitesPage } from "~/routes/_app.sites._index";
import { action as paymentsPage } from "~/routes/_app._project.sites.integrations.$integrationId_.$studioId";
import {
  DOMAIN_REMOVE_JOB,
  releaseUnverifiedDomains,
  removeDomain,
} from "~/services/domains/domain-jobs.server";
import { MAX_SENDER_DOMAINS, NEWSLETTER_MESSAGES } from "~/services/newsletter/newsletter-rules";
import { POLICIES } from "~/services/core/rate-limit.server";
import { resetEnv } from "~/utils/env.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { toastOf } from "../setup/matchers";
import { actor, eventsOf, ownedProject, withVercelSite, type Actor } from "./members-support";

/** The platform admin of the test environment (PLATFORM_ADMIN_EMAILS=admin@example.com). */
let admin: Promise<Awaited<ReturnType<typeof createUser>>> | undefined;
const platformAdmin = () => (admin ??= createUser({ email: "admin@example.com" }));

const count = async (query: Promise<{ n: number }[]>) => (await query)[0].n;
const n = sql<number>`count(*)::int`;

/** Every row count a refusal could have touched, to compare before and after. */
async function writes(projectId?: string) {
  return {
    projects: await count(db().select({ n }).from(projects)),
    events: await count(db().select({ n }).from(eventLogs)),
    paymentAccounts: await count(db().select({ n }).from(paymentAccounts)),
    senderDomains: await count(db().select({ n }).from(newsletterDomains)),
    providerDomains: await count(db().select({ n }).from(localNewsletterDomains)),
    ...(projectId
      ? {
          projectEvents: await count(
            db().select({ n }).from(eventLogs).where(eq(eventLogs.projectId, projectId)),
          ),
        }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------

describe("projects created per user per day", () => {
  const LIMIT = POLICIES.projectsCreated.points;
  let seq = 0;
  const create = (cookie: string, body: Record<string, string>) =>
    call(createApi, makeRequest("/api/app/create", { cookie, json: body }));
  const fresh = () => {
    seq += 1;
    return { name: `Client site ${seq}`, idempotencyKey: `cap-${seq}-${Date.now()}` };
  };

  it(`creates ${LIMIT} projects in a day, then refuses the next with 429 and Retry-After, beside the dialog too, writing nothing`, async () => {
    const me = await createUser();
    const cookie = await sessionCookie(me.id);
    const first = fresh();
    for (let i = 0; i < LIMIT; i += 1) {
      const res = await create(cookie, i === 0 ? first : fresh());
      expect(res.status, `project ${i + 1}`).toBe(201);
    }
    const before = await writes();

    const refused = await create(cookie, fresh());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(20 * 3600);
    expect((await refused.json()).error).toMatch(
      new RegExp(`^You have created ${LIMIT} projects within a day.*Please wait \\d+ hours`),
    );

    // The Create New dialog (a plain form post): the same refusal, in the dialog.
    const form = await call(
      sitesPage,
      makeRequest("/sites?index", { cookie, form: { intent: "create", ...fresh() } }),
    );
    expect(form.status).toBe(429);
    expect(form.headers.get("Retry-After")).toBeTruthy();
    const reply = (await form.json()) as { result: { error: Record<string, string[]> } };
    expect(reply.result.error[""]?.[0]).toMatch(/^You have created \d+ projects within a day/);

    expect(await writes()).toEqual(before);
    // A repeated request (a used idempotency key) creates nothing and is still answered.
    const replay = await create(cookie, first);
    expect(replay.status).toBe(200);
  });

  it("does not limit platform admins, who set up projects for others", async () => {
    const cookie = await sessionCookie((await platformAdmin()).id);
    for (let i = 0; i <= LIMIT + 2; i += 1) {
      expect((await create(cookie, fresh())).status, `project ${i + 1}`).toBe(201);
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe("Stripe keys checked per project and per user", () => {
  let seq = 0;
  const keys = (secret?: string) => {
    seq += 1;
    return {
      publishableKey: `pk_test_cap${seq}x${Date.now()}`,
      secretKey: secret ?? `sk_test_Cap${seq}x${Date.now()}`,
    };
  };
  /** The local provider answers 401 (an invalid key) for this one: it counts like any check. */
  const INVALID = "sk_test_invalid12345";
  const page = (studioId: string) => `/sites/integrations/payments/${studioId}?dialog=add-stripe`;
  const addOnPage = (cookie: string, studioId: string, secret?: string) =>
    call(
      paymentsPage,
      makeRequest(page(studioId), {
        cookie,
        form: { intent: "payment-add", accountName: "Shop", ...keys(secret) },
      }),
      { integrationId: "payments", studioId },
    );
  const addThroughApi = (cookie: string, studioId: string, secret?: string) => {
    const { publishableKey, secretKey } = keys(secret);
    return call(
      paymentsApi,
      makeRequest("/api/app/integrations/payments", {
        cookie,
        json: {
          action: "add-account",
          studio: { pagebuilderId: studioId },
          stripeAccounts: {
            accountName: "Shop",
            stripePKey: publishableKey,
            stripeSKey: secretKey,
          },
        },
      }),
      { integrationId: "payments" },
    );
  };

  it("refuses a project's key check past its daily limit beside the key field (page) and with 429 + Retry-After (API), writing nothing", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const project = await insertProject(owner.id);
    for (let i = 0; i < POLICIES.stripeKeyChecksProject.points; i += 1) {
      const res = await addOnPage(cookie, project.studioId, INVALID);
      expect(await toastOf(res), `check ${i + 1}`).toMatchObject({
        title: "Stripe Secret Key Invalid: Account Not Added",
      });
    }
    const before = await writes(project.id);

    // A valid key now: refused before Stripe is asked, the dialog kept open with the reason.
    const refused = await addOnPage(cookie, project.studioId);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const reply = (await refused.json()) as {
      result: { error: Record<string, string[]>; initialValue?: Record<string, unknown> };
    };
    expect(reply.result.error.secretKey).toEqual([
      expect.stringMatching(/^Too many Stripe keys checked\. Please wait \d+ hours/),
    ]);
    expect(reply.result.initialValue?.secretKey).toBeUndefined();

    const api = await addThroughApi(cookie, project.studioId);
    expect(api.status).toBe(429);
    expect(Number(api.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await api.json()).error).toMatch(/^Too many Stripe keys checked/);

    expect(await writes(project.id)).toEqual(before);
    // Another project of the same person is not held back by this one's checks.
    const other = await insertProject(owner.id);
    expect((await addThroughApi(cookie, other.studioId)).status).toBe(201);
  });

  it("refuses a user's key checks past their daily limit across projects", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const perProject = POLICIES.stripeKeyChecksProject.points - 5;
    let checks = 0;
    let project = await insertProject(owner.id);
    while (checks < POLICIES.stripeKeyChecksUser.points) {
      if (checks > 0 && checks % perProject === 0) project = await insertProject(owner.id);
      const res = await addThroughApi(cookie, project.studioId, INVALID);
      expect(res.status, `check ${checks + 1}`).toBe(400);
      checks += 1;
    }
    const fresh = await insertProject(owner.id);
    const before = await writes(fresh.id);
    const refused = await addThroughApi(cookie, fresh.studioId);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBeTruthy();
    expect(await writes(fresh.id)).toEqual(before);
    // Someone else adds to that project as usual.
    const support = await sessionCookie((await platformAdmin()).id);
    expect((await addThroughApi(support, fresh.studioId)).status).toBe(201);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------

describe("sender domains per project", () => {
  const addThroughApi = (cookie: string, studioId: string, domain: string) =>
    call(
      newsletterApi,
      makeRequest("/api/newsletter?path=domains", { cookie, json: { studioId, domain } }),
    );
  const unique = () => Math.random().toString(36).slice(2, 10);

  it(`keeps ${MAX_SENDER_DOMAINS} per project; the next is refused with 409 (API) and beside 'Add' (page) before the provider is asked`, async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const project = await insertProject(owner.id);
    const tag = unique();
    for (let i = 1; i <= MAX_SENDER_DOMAINS; i += 1) {
      const res = await addThroughApi(cookie, project.studioId, `news${i}.${tag}.example`);
      expect(res.status, `domain ${i}`).toBe(201);
    }
    const before = await writes(project.id);

    const refused = await addThroughApi(cookie, project.studioId, `news6.${tag}.example`);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toBe(NEWSLETTER_MESSAGES.domainLimit);

    // The page adds the from-address's domain: saved first, then 'Add' is refused beside it.
    const pagePath = `/sites/newsletter/${project.studioId}`;
    const post = (form: Record<string, string>) =>
      call(newsletterPage, makeRequest(pagePath, { cookie, form }), {
        studioId: project.studioId,
      });
    const saved = await post({
      intent: "newsletter-save",
      fromName: "News",
      fromEmail: `hello@news7.${tag}.example`,
      brandColor: "#112233",
    });
    expect(saved.status).toBe(302);
    const beforePage = await writes(project.id);
    const onPage = await post({ intent: "sender-domain-add" });
    expect(onPage.status).toBe(409);
    const reply = (await onPage.json()) as { result: { error: Record<string, string[]> } };
    expect(reply.result.error.senderDomain).toEqual([NEWSLETTER_MESSAGES.domainLimit]);

    expect(await writes(project.id)).toEqual(beforePage);
    expect(beforePage.senderDomains).toBe(before.senderDomains);
    expect(beforePage.providerDomains).toBe(before.providerDomains);

    // Deleting one makes room again.
    const [one] = await db()
      .select({ id: newsletterDomains.id })
      .from(newsletterDomains)
      .where(eq(newsletterDomains.projectId, project.id))
      .limit(1);
    const deleted = await call(
      newsletterApi,
      makeRequest(`/api/newsletter?path=domains/${one.id}`, { cookie, method: "DELETE" }),
    );
    expect(deleted.status).toBe(200);
    expect((await addThroughApi(cookie, project.studioId, `news6.${tag}.example`)).status).toBe(
      201,
    );
  });

  it("lets concurrent adds past the cap by none", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const project = await insertProject(owner.id);
    const tag = unique();
    const answers = await Promise.all(
      Array.from({ length: MAX_SENDER_DOMAINS + 4 }, (_, i) =>
        addThroughApi(cookie, project.studioId, `burst${i}.${tag}.example`),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_SENDER_DOMAINS);
    expect(statuses.filter((s) => s === 409)).toHaveLength(4);
    expect(
      await count(
        db()
          .select({ n })
          .from(newsletterDomains)
          .where(eq(newsletterDomains.projectId, project.id)),
      ),
    ).toBe(MAX_SENDER_DOMAINS);
    // The provider holds no domain the project does not (a late refusal takes it back).
    const held = await db()
      .select({ n })
      .from(localNewsletterDomains)
      .where(sql`${localNewsletterDomains.name} like ${`%.${tag}.example`}`);
    expect(held[0].n).toBe(MAX_SENDER_DOMAINS);
  });
});

// ---------------------------------------------------------------------------------------------

describe("unverified custom domains released after seven days", () => {
  beforeEach(() => {
    // The local provider verifies a domain after this many seconds (unverified.* never).
    process.env.LOCAL_DOMAIN_VERIFY_SECONDS = "0";
    resetEnv();
    return () => {
      delete process.env.LOCAL_DOMAIN_VERIFY_SECONDS;
      resetEnv();
    };
  });

  async function projectWithDomain(owner: Actor, domain: string, daysAgo: number) {
    const project = await ownedProject(owner);
    const site = await withVercelSite(project, "release");
    const res = await call(
      domainsApi,
      makeRequest("/api/app/domains", {
        method: "PUT",
        cookie: owner.cookie,
        json: { action: "update", studioId: project.studioId, domain },
      }),
    );
    expect(res.status).toBe(200);
    await db()
      .update(projectSites)
      .set({ domainSetAt: sql`now() - make_interval(days => ${daysAgo})` })
      .where(eq(projectSites.projectId, project._id));
    return { ...project, siteId: site.id };
  }

  const siteRow = async (projectId: string) =>
    (await db().select().from(projectSites).where(eq(projectSites.projectId, projectId)))[0];

  it("releases a domain still pending 8 days after it was set, with an Activity Log entry and its removal at the provider", async () => {
    const owner = await actor({ name: "Rhea Releaser" });
    const tag = Math.random().toString(36).slice(2, 8);
    const stale = await projectWithDomain(owner, `unverified.${tag}-old.example`, 8);
    const recent = await projectWithDomain(owner, `unverified.${tag}-new.example`, 6);
    const verified = await projectWithDomain(owner, `www.${tag}-ok.example`, 8);
    expect((await siteRow(stale._id)).domainStatus).toBe("pending");
    expect((await siteRow(verified._id)).domainStatus).toBe("verified");

    expect(await releaseUnverifiedDomains()).toBe(1);

    expect(await siteRow(stale._id)).toMatchObject({
      customDomain: null,
      domainStatus: null,
      domainSetAt: null,
      domainRecords: [],
    });
    const [projectRow] = await db().select().from(projects).where(eq(projects.id, stale._id));
    expect(projectRow.siteCustomDomain).toBeNull();
    expect(
      (await eventsOf(stale._id, "domains.")).map((e) => [e.type, e.content, e.actorId]),
    ).toEqual([
      [
        "domains.set",
        `Rhea Releaser set the custom domain to unverified.${tag}-old.example`,
        owner.id,
      ],
      [
        "domains.released",
        `The custom domain unverified.${tag}-old.example was released: it was not verified within 7 days`,
        null,
      ],
    ]);
    // The removal job takes it off the hosting provider's site.
    const jobs = (await db().execute(
      sql`select data from pgboss.job where name = ${DOMAIN_REMOVE_JOB} and data->>'domain' = ${`unverified.${tag}-old.example`}`,
    )) as unknown as { rows: { data: { provider: "vercel"; siteId: string; domain: string } }[] };
    expect(jobs.rows).toHaveLength(1);
    await removeDomain(jobs.rows[0].data);
    expect((await hostingProvider("vercel").getSite(stale.siteId)).customDomain).toBeNull();

    // Six days pending, and verified domains, stay as they are; a second run releases nothing.
    expect(await siteRow(recent._id)).toMatchObject({
      customDomain: `unverified.${tag}-new.example`,
      domainStatus: "pending",
    });
    expect(await siteRow(verified._id)).toMatchObject({
      customDomain: `www.${tag}-ok.example`,
      domainStatus: "verified",
    });
    expect(await releaseUnverifiedDomains()).toBe(0);
    // The name is free for another project now.
    expect(
      await db()
        .select({ n })
        .from(projectSites)
        .where(and(eq(projectSites.customDomain, `unverified.${tag}-old.example`))),
    ).toEqual([{ n: 0 }]);
  });
});
