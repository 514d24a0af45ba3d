/**
 * Each event kind not covered by webhooks.test.ts, written by the real operation (a deployment
 * through the local hosting provider and real workers, a rollback, a domain set and reverted, an
 * invitation accepted, a support visit, a form submission) and delivered to a receiver on
 * 127.0.0.1: once, with a signature standardwebhooks' Webhook.verify accepts.
 */
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localSites, projects } from "~/db/schema";
import { hostingProvider } from "~/providers/hosting/index.server";
import { action as submitForm } from "~/routes/forms.$formId";
import { loader as dashboardLoader } from "~/routes/_app._project.sites.$studioId/route";
import type { ProjectEventType } from "~/services/events/catalog";
import { changeDomain } from "~/services/domains/domains.server";
import { ensureDefaultForm } from "~/services/forms/forms.server";
import { addWebhook, listDeliveries } from "~/services/webhooks/index.server";
import { redeploy, rollBack } from "~/services/deployments/website.server";
import { call, makeRequest } from "../helpers";
import {
  configure,
  createThroughApi,
  projectRow,
  startWorkers,
  waitFor,
  waitForStatus,
} from "./lifecycle-support";
import { acceptedMember, actor, ownedProject, withVercelSite, type Actor } from "./members-support";
import { startReceiver } from "./webhook-receiver";

const endpoint = startReceiver();

beforeAll(async () => {
  configure({
    PROVIDERS: "local",
    LOCAL_DEPLOY_STEP_SECONDS: "0.2",
    LOCAL_DEPLOY_FAILURE_RATE: "0",
    LOCAL_DOMAIN_VERIFY_SECONDS: "0",
  });
  // The workers run the fan-out and the deliveries as production does.
  await startWorkers();
});

type Hook = Awaited<ReturnType<typeof addWebhook>>;
type Verified = { type: string; data: Record<string, unknown> & { project: { studioId: string } } };

function hookFor(owner: Actor, studioId: string, events: ProjectEventType[]) {
  return addWebhook(owner.user, studioId, { url: endpoint.url, events, format: "standard" });
}

/** What the receiver got for this project, each checked with the webhook's secret. */
function verifiedFor(hook: Hook, studioId: string): Verified[] {
  return endpoint.received
    .map(({ headers, body }) =>
      new Webhook(hook.secret).verify(body, {
        "webhook-id": String(headers["webhook-id"]),
        "webhook-timestamp": String(headers["webhook-timestamp"]),
        "webhook-signature": String(headers["webhook-signature"]),
      }),
    )
    .map((payload) => payload as Verified)
    .filter((payload) => payload.data.project.studioId === studioId);
}

/**
 * Waits for the event's delivery, then checks it went out once: one verified body of that type,
 * and one delivery in the webhook's log, succeeded at its first attempt.
 */
async function deliveredOnce(
  owner: Actor,
  hook: Hook,
  studioId: string,
  type: ProjectEventType,
): Promise<Verified["data"]> {
  const log = await waitFor(
    async () => {
      const rows = (await listDeliveries(owner.user, studioId, hook.id)).filter(
        (d) => d.eventType === type,
      );
      return rows.length > 0 && rows.every((d) => d.status === "succeeded") ? rows : null;
    },
    { what: `${type} to be delivered`, timeout: 20_000 },
  );
  expect(log).toMatchObject([{ eventType: type, attempts: 1, responseStatus: 200 }]);
  const bodies = verifiedFor(hook, studioId).filter((b) => b.type === type);
  expect(bodies).toHaveLength(1);
  return bodies[0].data;
}

describe("deployment events", () => {
  it("started and succeeded for a deploy, rolled back for a rollback, failed with the error page", async () => {
    const owner = await actor({ name: "Dee Deployer" });
    const created = await createThroughApi(owner.cookie, { name: "Hooked deploys" });
    const row = await waitForStatus(created._id, ["success"]);
    const hook = await hookFor(owner, row.studioId, [
      "deployment.started",
      "deployment.succeeded",
      "deployment.failed",
      "deployment.rolledBack",
    ]);
    const initial = await hostingProvider("vercel").listDeployments(row.siteId!, { perPage: 5 });
    const initialId = initial.results[0].id;

    await redeploy(owner.user, row.studioId);
    const started = await deliveredOnce(owner, hook, row.studioId, "deployment.started");
    expect(started).toMatchObject({ trigger: "manual", deploymentId: expect.any(String) });
    expect(started.deploymentId).not.toBe(initialId);
    const succeeded = await deliveredOnce(owner, hook, row.studioId, "deployment.succeeded");
    expect(succeeded).toMatchObject({ deploymentId: started.deploymentId });
    expect(succeeded.url).toBe((await projectRow(row.id)).siteUrl);

    await rollBack(owner.user, row.studioId, initialId);
    const rolledBack = await deliveredOnce(owner, hook, row.studioId, "deployment.rolledBack");
    expect(rolledBack).toEqual({
      project: { studioId: row.studioId, name: "Hooked deploys" },
      deploymentId: initialId,
    });

    // The local provider fails every build of a site whose name says so (its documented hook).
    await db()
      .update(localSites)
      .set({ name: `hooked-deploys-fail-deploy-${row.studioId}` })
      .where(eq(localSites.id, row.siteId!));
    await redeploy(owner.user, row.studioId);
    const failed = await deliveredOnce(owner, hook, row.studioId, "deployment.failed");
    expect(failed).toMatchObject({ deploymentId: expect.any(String), permanent: false });
    expect(failed.errorPageUrl).toBe(
      `http://localhost:3000/sites/${row.studioId}/failed-deployment`,
    );
    // No secret, token or vendor error text in the body.
    expect(JSON.stringify(failed)).not.toMatch(/local failure|token|secret/i);
  }, 60_000);
});

describe("domain events", () => {
  it("verified and certificate ready when set, released when reverted", async () => {
    const owner = await actor({ name: "Dom Owner" });
    const project = await ownedProject(owner);
    await withVercelSite(project, "hooks");
    const hook = await hookFor(owner, project.studioId, [
      "domain.verified",
      "domain.certificateReady",
      "domain.released",
    ]);
    const domain = `www.hooks${Math.random().toString(36).slice(2, 8)}.example`;

    await changeDomain(owner.user, { studioId: project.studioId, domain });
    const expected = { project: { studioId: project.studioId }, domain, provider: "vercel" };
    expect(await deliveredOnce(owner, hook, project.studioId, "domain.verified")).toMatchObject(
      expected,
    );
    expect(
      await deliveredOnce(owner, hook, project.studioId, "domain.certificateReady"),
    ).toMatchObject(expected);

    await changeDomain(owner.user, { studioId: project.studioId, domain: "" });
    expect(await deliveredOnce(owner, hook, project.studioId, "domain.released")).toMatchObject({
      ...expected,
      reason: "reverted",
    });
  });
});

describe("people, support and forms", () => {
  it("member joined when an invitation is accepted", async () => {
    const owner = await actor({ name: "Jo Owner" });
    const project = await ownedProject(owner);
    const hook = await hookFor(owner, project.studioId, ["member.joined"]);
    const joiner = await acceptedMember(owner, project, "developer");
    expect(await deliveredOnce(owner, hook, project.studioId, "member.joined")).toMatchObject({
      memberId: joiner.memberId,
      email: joiner.email,
      role: "developer",
    });
  });

  it("support access when a platform admin opens the project", async () => {
    const owner = await actor({ name: "Sue Owner" });
    const project = await ownedProject(owner);
    const hook = await hookFor(owner, project.studioId, ["support.access"]);
    const support = await actor({ name: "Sam Support", email: "admin@example.com" });
    const res = await call(
      dashboardLoader,
      makeRequest(`/sites/${project.studioId}`, { cookie: support.cookie }),
      { studioId: project.studioId },
    );
    expect(res.status).toBe(200);
    const data = await deliveredOnce(owner, hook, project.studioId, "support.access");
    expect(data).toMatchObject({ access: "viewed", what: "viewed the project" });
    // The visitor is not named: support is one team, not a person the customer must know.
    expect(JSON.stringify(data)).not.toContain("admin@example.com");
  });

  it("form submission, without the visitor's fields", async () => {
    const owner = await actor({ name: "Fay Owner" });
    const project = await ownedProject(owner);
    const site = "https://hooked-form.example";
    // Submissions are taken from the project's own site only.
    await db().update(projects).set({ siteUrl: site }).where(eq(projects.id, project._id));
    const formId = await ensureDefaultForm(project._id);
    const hook = await hookFor(owner, project.studioId, ["form.submission"]);
    const res = await call(
      submitForm,
      makeRequest(`/forms/${formId}`, {
        form: { name: "Vi Visitor", email: "vi@example.com", message: "Hello there" },
        headers: { Origin: site },
      }),
      { formId },
      { clientIp: "203.0.113.77" },
    );
    expect(res.status).toBeLessThan(400);
    const data = await deliveredOnce(owner, hook, project.studioId, "form.submission");
    expect(data).toMatchObject({
      formId,
      formName: expect.any(String),
      submissionId: expect.any(String),
      submissionsUrl: `http://localhost:3000/sites/forms/${project.studioId}?form=${formId}`,
    });
    expect(JSON.stringify(data)).not.toMatch(/vi@example\.com|Hello there|Vi Visitor/);
  });
});
