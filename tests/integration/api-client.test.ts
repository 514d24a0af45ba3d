/**
 * The typed client (client/index.ts) against a real server process (scripts/start.mjs) on the
 * test's PostgreSQL database: a read-write personal access token of a real user calls every
 * operation of the server's /api/openapi.json through it. Each answer's status is one the
 * document lists for its operation and its body matches the document's schema for that status;
 * successes are read through their generated types. An operation the document gains without a
 * call here fails the typecheck (the steps are keyed by the generated operation ids) and this
 * test (the calls are compared with the served document). A read token is refused on a change.
 * PostgreSQL only: the embedded PGlite database belongs to one process.
 */
import Ajv2020 from "ajv/dist/2020";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { projectEvents, webhookDeliveries, webhooks } from "~/db/schema";
import { action as integrationsAction } from "~/routes/api.app.integrations.$integrationId";
import { createApiToken } from "~/services/accounts/api-tokens.server";
import { ensureDefaultForm } from "~/services/forms/forms.server";
import { createStackShiftClient, type StackShiftClient, type operations } from "../../client/index";
import { authorizeInstagram } from "./instagram-support";
import { call, insertProject, makeRequest } from "../helpers";
import { startApiServer, stopServer, waitForStatus, type Server } from "./lifecycle-support";
import { actor, api as membersApi, keyOf, memberRow, type Actor } from "./members-support";
import { specProblems } from "../spec-client/check";

type Document = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        responses: Record<string, { content: Record<string, { schema: object }> }>;
      }
    >
  >;
};

const postgres = Boolean(process.env.DATABASE_URL);
const ajv = new Ajv2020({ strict: false, allErrors: true });
const SITE = "https://client-bakery.netlify.app";

let server: Server;
let document: Document;
let owner: Actor;
let client: StackShiftClient;
let readClient: StackShiftClient;
/** Operation id -> the statuses its calls were answered with. */
const answered = new Map<string, number[]>();

/**
 * Every answer the clients get is checked against the served document: its operation is there,
 * lists the status, and the body matches that status's schema. A failed check rejects the call.
 */
const documented = {
  async onResponse({
    schemaPath,
    request,
    response,
  }: {
    schemaPath: string;
    request: Request;
    response: Response;
  }) {
    const where = `${request.method} ${schemaPath}`;
    const operation = document.paths[schemaPath]?.[request.method.toLowerCase()];
    expect(operation, `${where} is in the document`).toBeDefined();
    const listed = operation.responses[String(response.status)];
    expect(listed, `${where} lists status ${response.status}`).toBeDefined();
    const record = () =>
      answered.set(operation.operationId, [
        ...(answered.get(operation.operationId) ?? []),
        response.status,
      ]);
    if (listed.content["text/csv"]) {
      // A file, not JSON: the answer is the media type the document lists.
      expect(response.headers.get("content-type"), where).toMatch(/^text\/csv/);
      record();
      return undefined;
    }
    const body: unknown = await response.clone().json();
    const validate = ajv.compile(listed.content["application/json"].schema);
    expect(
      validate(body),
      `${where} ${response.status}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body).slice(0, 400)}`,
    ).toBe(true);
    // ... and read as a client written from the specification reads it (tests/spec-client/).
    const { status } = response;
    const url = request.url;
    expect(specProblems({ method: request.method, path: schemaPath, status, body, url })).toEqual(
      [],
    );
    record();
    return undefined;
  },
};

/** The success body of a call answered with `status`, typed as the generated client gives it. */
function answer<D, E>(result: { data?: D; error?: E; response: Response }, status: number): D {
  expect(result.response.status, JSON.stringify(result.error)).toBe(status);
  if (result.data === undefined) throw new Error(`${status} without a body`);
  return result.data;
}

/** The error body of a call refused with `status`. */
function refusal<D, E>(result: { data?: D; error?: E; response: Response }, status: number): E {
  expect(result.response.status).toBe(status);
  if (result.error === undefined) throw new Error(`${status} without an error body`);
  return result.error;
}

async function tokenFor(scope: "read" | "read-write") {
  const { token } = await createApiToken(owner.user, {
    name: `Client ${scope}`,
    scope,
    lifetimeDays: 7,
    projectIds: [],
  });
  return token;
}

beforeAll(async () => {
  if (!postgres) return;
  server = await startApiServer("api-client");
  document = (await (await fetch(`${server.base}/api/openapi.json`)).json()) as Document;
  owner = await actor({ name: "Cleo Client" });
  client = createStackShiftClient({ baseUrl: server.base, token: await tokenFor("read-write") });
  client.use(documented);
  readClient = createStackShiftClient({ baseUrl: server.base, token: await tokenFor("read") });
  readClient.use(documented);
}, 180_000);

afterAll(async () => {
  if (server) await stopServer(server);
});

/** What the steps share: the project the client creates, and what later steps make. */
const made = {
  project: { _id: "", studioId: "", name: "", idempotencyKey: "" },
  memberId: "",
  paymentAccountId: "",
  socialAccountId: "",
  senderDomainId: "",
  templateId: "",
  webhookId: "",
  deliveryId: "",
  formId: "",
  submissionId: "",
};

/** The client's project once its studio and site exist (the server's own workers make them). */
async function provisioned() {
  await waitForStatus(made.project._id, ["success"], { timeout: 60_000 });
  return made.project;
}

/** One call per operation of the document, keyed by operationId, in the order they run. */
const steps = {
  async createProject() {
    const idempotencyKey = `client-${Date.now()}`;
    const body = { name: "Client bakery", idempotencyKey };
    const project = answer(await client.POST("/api/app/create", { body }), 201);
    expect(project.name).toBe("Client bakery");
    expect(project.idempotencyKey).toBe(idempotencyKey);
    expect(project.isOwner).toBe(true);
    made.project = project;
  },

  async getCurrentUser() {
    const me = answer(await client.GET("/api/user"), 200);
    expect(me.email).toBe(owner.email);
    expect(me.isMemberInvited).toBe(false);
  },

  async listProjects() {
    const list = answer(await client.GET("/api/app", { params: { query: { limit: 5 } } }), 200);
    expect(list.data.map((p) => p.studioId)).toContain(made.project.studioId);
  },

  async getProject() {
    const { studioId } = made.project;
    const project = answer(
      await client.GET("/api/app/{id}", { params: { path: { id: studioId } } }),
      200,
    );
    expect(project._id).toBe(made.project._id);
    expect(project.owner.email).toBe(owner.email);
    expect(Array.isArray(project.eventLogs)).toBe(true);
  },

  async listDeployments() {
    const { studioId } = await provisioned();
    const list = answer(
      await client.GET("/api/deployments/{studioId}", { params: { path: { studioId } } }),
      200,
    );
    expect(Array.isArray(list.results)).toBe(true);
    expect(typeof list.isSiteOnVercel).toBe("boolean");
  },

  async requestDeployment() {
    const { _id } = await provisioned();
    const queued = answer(await client.POST("/api/app/deployments", { body: { id: _id } }), 202);
    expect(queued.status).toBe("queued");
    expect(queued.projectId).toBe(_id);
  },

  async rollBackDeployment() {
    // The deployment the site publishes now (its first, ready once provisioned), published again.
    const { studioId } = await provisioned();
    const list = answer(
      await client.GET("/api/deployments/{studioId}", { params: { path: { studioId } } }),
      200,
    );
    const ready = list.results.find((d) => d.state.toLowerCase() === "ready");
    if (!ready) throw new Error("no ready deployment to roll back to");
    const restored = answer(
      await client.POST("/api/app/rollback", { body: { studioId, deployId: ready.id } }),
      200,
    );
    expect(restored.id).toBe(ready.id);
    expect(restored.label).toBe("Published");
  },

  async retryDeployment() {
    // A project whose site creation failed: the only kind a retry accepts.
    const failed = await insertProject(owner.id, { siteCreationStatus: "failed" });
    const retry = answer(
      await client.POST("/api/app/retry", {
        body: { name: failed.name, idempotencyKey: failed.idempotencyKey },
      }),
      202,
    );
    expect(retry).toMatchObject({ status: "retrying", projectId: failed.id, deployRetryCount: 1 });
    expect(retry.retriesLeft).toBe(2);
  },

  async resendStudioInvite() {
    const { _id } = await provisioned();
    const sent = answer(
      await client.POST("/api/app/project-invite", {
        body: { projectId: _id, email: owner.email },
      }),
      200,
    );
    expect(sent.email).toBe(owner.email);
    expect(["resent", "invited", "accepted"]).toContain(sent.outcome);
  },

  async changeCustomDomain() {
    const { studioId } = await provisioned();
    const domain = `client-${Date.now()}.example`;
    const changed = answer(
      await client.PUT("/api/app/domains", {
        body: { type: "site", action: "update", studioId, domain },
      }),
      200,
    );
    expect(changed).toEqual({ ok: true, action: "update", domain, changed: true });
  },

  async setEcommerceAddon() {
    const { studioId } = made.project;
    const body = { studioId, value: "true" as const };
    const change = answer(await client.PUT("/api/app/activate-cstudio", { body }), 200);
    expect(change.enabled).toBe(true);
    expect(change.changed).toBe(true);
  },

  async setGptAddon() {
    const { studioId } = made.project;
    const body = { studioId, value: "true" as const };
    expect(answer(await client.PUT("/api/app/gpt3", { body }), 200).enabled).toBe(true);
  },

  async setNewsletterAddon() {
    const body = { studioId: made.project.studioId, action: "enable" as const };
    expect(answer(await client.PUT("/api/app/newsletter", { body }), 200).enabled).toBe(true);
  },

  async setSocialMediaAddon() {
    const body = { studioId: made.project.studioId, action: "enable" as const };
    const change = answer(await client.PUT("/api/app/studios/social-media", { body }), 200);
    expect(change.enabled).toBe(true);
  },

  async setEndToEndTestsAddon() {
    const body = { studioId: made.project.studioId, action: "enable" as const };
    expect(answer(await client.PUT("/api/app/e2e-tests", { body }), 200).enabled).toBe(true);
  },

  async setVisualTestsAddon() {
    const body = {
      studioId: made.project.studioId,
      action: "enable" as const,
      chromaticProjectToken: "chpt_client0123456",
    };
    expect(answer(await client.PUT("/api/app/chromatic", { body }), 200).enabled).toBe(true);
  },

  async listEndToEndTestRuns() {
    const repo = `client-sites/site-${Date.now()}`;
    await insertProject(owner.id, {
      siteDetails: { build_settings: { repo_url: `https://github.com/${repo}` } },
    });
    const { workflow_runs: runs } = answer(
      await client.GET("/api/app/e2e-test-runs", { params: { query: { repo } } }),
      200,
    );
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) expect(run.html_url).toContain(repo);
  },

  async changePaymentAccounts() {
    const added = answer(
      await client.POST("/api/app/integrations/{integrationId}", {
        params: { path: { integrationId: "payments" } },
        body: {
          action: "add-account",
          studio: { pagebuilderId: made.project.studioId },
          stripeAccounts: {
            accountName: "Client shop",
            stripePKey: `pk_test_client${Date.now()}`,
            stripeSKey: "sk_test_Client12345",
          },
        },
      }),
      201,
    );
    if (!("account" in added)) throw new Error("201 without the added account");
    expect(added.account.accountName).toBe("Client shop");
    made.paymentAccountId = added.account.id;
  },

  async listPaymentAccounts() {
    const { accounts } = answer(
      await client.GET("/api/app/integrations/{integrationId}", {
        params: {
          path: { integrationId: "payments" },
          query: { action: "get-accounts", studioId: made.project.studioId },
        },
      }),
      200,
    );
    expect(accounts.map((a) => a.id)).toEqual([made.paymentAccountId]);
    expect(JSON.stringify(accounts)).not.toContain("sk_test_Client12345");
  },

  async listStripeCatalog() {
    const page = answer(
      await client.POST("/api/payments/stripe", {
        params: { query: { resource: "prices", action: "list" } },
        body: { accountId: made.paymentAccountId, limit: 2 },
      }),
      200,
    );
    expect(page.data).toHaveLength(2);
    expect(typeof page.hasMore).toBe("boolean");
  },

  async linkSocialAccount() {
    // The OAuth round trip is a browser's: Connect on the project's card (its session), then
    // Authorize on the local provider's page; the return carries the code and the state.
    const { studioId } = made.project;
    const back = await authorizeInstagram(owner.cookie, studioId, `client.${Date.now()}`);
    const exchange = {
      action: "exchange_token" as const,
      integration: { platform: "instagram" as const },
      pageBuilderId: studioId,
      authorizationCode: back.searchParams.get("code")!,
      state: back.searchParams.get("state")!,
    };
    // The state is bound to the session that began the round trip: a token alone cannot finish
    // it (a script never holds a browser's OAuth return), and nothing is linked or spent.
    const refused = refusal(
      await client.POST("/api/app/integrations/social-accounts", { body: exchange }),
      400,
    );
    expect(Object.keys(refused.fieldErrors ?? {})).toEqual(["state"]);
    // The browser that began it finishes it, for the unlink below.
    const linked = await call(
      integrationsAction,
      makeRequest("/api/app/integrations/social-accounts", {
        cookie: owner.cookie,
        json: exchange,
      }),
      { integrationId: "social-accounts" },
    );
    expect(linked.status).toBe(201);
    made.socialAccountId = ((await linked.json()) as { account: { id: string } }).account.id;
  },

  async unlinkSocialAccount() {
    const done = answer(
      await client.PATCH("/api/app/integrations/social-accounts", {
        body: {
          action: "unlink_account",
          integration: { platform: "instagram" },
          pageBuilderId: made.project.studioId,
          accountId: made.socialAccountId,
        },
      }),
      200,
    );
    expect(done.ok).toBe(true);
  },

  async addOrVerifyNewsletterDomain() {
    const domain = `news${Date.now().toString(36)}.example`;
    const created = answer(
      await client.POST("/api/newsletter", {
        params: { query: { path: "domains" } },
        body: { studioId: made.project.studioId, domain, region: "us-east-1" },
      }),
      201,
    );
    expect(created.data.customDomain).toBe(domain);
    expect(created.data.isVerified).toBe(false);
    expect(created.data.records.length).toBeGreaterThan(0);
    made.senderDomainId = created.data.id;
  },

  async getNewsletterDomains() {
    const list = answer(
      await client.GET("/api/newsletter", {
        params: { query: { path: "domains", studioId: made.project.studioId } },
      }),
      200,
    );
    expect(list.data.map((d) => d.id)).toEqual([made.senderDomainId]);
  },

  async updateNewsletterDomain() {
    const updated = answer(
      await client.PATCH("/api/newsletter", {
        params: { query: { path: `domains/${made.senderDomainId}` } },
        body: { metadata: { label: "main" } },
      }),
      200,
    );
    expect(updated.data.metadata).toEqual({ label: "main" });
  },

  async deleteNewsletterDomain() {
    const deleted = answer(
      await client.DELETE("/api/newsletter", {
        params: { query: { path: `domains/${made.senderDomainId}` } },
      }),
      200,
    );
    expect(deleted).toMatchObject({ ok: true });
  },

  async saveNewsletterTemplate() {
    const body = {
      studioId: made.project.studioId,
      name: "Weekly issue",
      subject: "This week",
      body: "<p>Hello</p>",
    };
    const saved = answer(await client.POST("/api/app/newsletter/templates", { body }), 201);
    expect(saved.name).toBe("Weekly issue");
    made.templateId = saved.id;
  },

  async getNewsletterSettings() {
    const settings = answer(
      await client.GET("/api/app/newsletter", {
        params: { query: { studioId: made.project.studioId } },
      }),
      200,
    );
    expect(settings.brandColor).toBe("#296EFF");
    expect(settings.savedTemplates.map((t) => t.id)).toEqual([made.templateId]);
  },

  async renameNewsletterTemplate() {
    const renamed = answer(
      await client.PATCH("/api/app/newsletter/templates/{templateId}", {
        params: { path: { templateId: made.templateId } },
        body: { name: "Friday letter" },
      }),
      200,
    );
    expect(renamed.name).toBe("Friday letter");
  },

  async deleteNewsletterTemplate() {
    const deleted = answer(
      await client.DELETE("/api/app/newsletter/templates/{templateId}", {
        params: { path: { templateId: made.templateId } },
      }),
      200,
    );
    expect(deleted).toMatchObject({ ok: true });
  },

  async addWebhook() {
    // A public address literal: saved without a DNS lookup. No event it listens to happens here.
    const body = {
      studioId: made.project.studioId,
      url: "https://93.184.215.14/hooks/client",
      events: ["project.deleted" as const],
    };
    const added = answer(await client.POST("/api/app/webhooks", { body }), 201);
    expect(added.secret).toMatch(/^whsec_/);
    expect(added).toMatchObject({ format: "standard", enabled: true, lastDelivery: null });
    made.webhookId = added.id;
  },

  async listWebhooks() {
    const list = answer(
      await client.GET("/api/app/webhooks", {
        params: { query: { studioId: made.project.studioId } },
      }),
      200,
    );
    expect(list.data.map((w) => w.id)).toEqual([made.webhookId]);
    expect(JSON.stringify(list)).not.toContain("whsec_");
  },

  async listWebhookDeliveries() {
    // One delivery, written as the fan-out would, to a webhook now pointing at loopback: its
    // redelivery is refused by the address guard at delivery time, so nothing leaves the machine.
    await db()
      .update(webhooks)
      .set({ url: "https://127.0.0.1:9/hooks/client" })
      .where(eq(webhooks.id, made.webhookId));
    const [event] = await db()
      .insert(projectEvents)
      .values({
        projectId: made.project._id,
        studioId: made.project.studioId,
        projectName: made.project.name,
        type: "project.deleted",
        payload: {},
      })
      .returning();
    const [delivery] = await db()
      .insert(webhookDeliveries)
      .values({ webhookId: made.webhookId, eventId: event.id, eventType: event.type })
      .returning();
    made.deliveryId = delivery.id;
    const log = answer(
      await client.GET("/api/app/webhooks/{id}/deliveries", {
        params: { path: { id: made.webhookId } },
      }),
      200,
    );
    expect(log.data.map((d) => [d.id, d.eventType])).toEqual([[delivery.id, "project.deleted"]]);
  },

  async redeliverWebhookDelivery() {
    const queued = answer(
      await client.POST("/api/app/webhooks/{id}/deliveries/{deliveryId}/redeliver", {
        params: { path: { id: made.webhookId, deliveryId: made.deliveryId } },
      }),
      202,
    );
    expect(queued).toMatchObject({ ok: true });
  },

  async removeWebhook() {
    const removed = answer(
      await client.DELETE("/api/app/webhooks/{id}", { params: { path: { id: made.webhookId } } }),
      200,
    );
    expect(removed).toMatchObject({ ok: true });
  },

  async getForm() {
    // A form with two submissions, posted by the site to the real server's public endpoint.
    const project = await insertProject(owner.id, { siteUrl: SITE });
    made.formId = await ensureDefaultForm(project.id);
    for (const name of ["Ada", "Grace"]) {
      const posted = await fetch(`${server.base}/forms/${made.formId}`, {
        method: "POST",
        headers: { Origin: SITE, Accept: "application/json", "Content-Type": "application/json" },
        body: JSON.stringify({ name, email: `${name.toLowerCase()}@example.com`, message: "Hi" }),
      });
      expect(posted.ok, await posted.text()).toBe(true);
    }
    const read = answer(
      await client.GET("/api/app/forms/{id}", { params: { path: { id: made.formId } } }),
      200,
    );
    expect(read.form.submissions).toBe(2);
    expect(read.submissions).toHaveLength(2);
    made.submissionId = read.submissions[0].id;
  },

  async exportFormSubmissions() {
    const result = await client.GET("/api/app/forms/export/{id}", {
      params: { path: { id: made.formId } },
      parseAs: "text",
    });
    const csv = answer(result, 200);
    const [header, ...rows] = csv.trim().split(/\r?\n/);
    expect(header).toContain("email");
    expect(rows).toHaveLength(2);
    expect(csv).toContain("ada@example.com");
    expect(csv).toContain("grace@example.com");
  },

  async updateFormSettings() {
    const changed = answer(
      await client.POST("/api/app/forms/settings", {
        body: { formId: made.formId, redirectUrl: `${SITE}/thanks` },
      }),
      200,
    );
    expect(changed.form.redirectUrl).toBe(`${SITE}/thanks`);
    expect(changed.form.enabled).toBe(true);
  },

  async deleteFormSubmission() {
    const deleted = answer(
      await client.POST("/api/app/forms/submissions/delete/{id}", {
        params: { path: { id: made.submissionId } },
        body: { formId: made.formId },
      }),
      200,
    );
    expect(deleted.ok).toBe(true);
  },

  async deleteAllFormSubmissions() {
    const deleted = answer(
      await client.POST("/api/app/forms/submissions/deleteAll/{id}", {
        params: { path: { id: made.formId } },
        body: { formId: made.formId },
      }),
      200,
    );
    expect(deleted).toEqual({ ok: true, deleted: 1 });
  },

  async inviteMember() {
    const guest = await actor();
    const { studioId, _id } = made.project;
    const sent = answer(
      await client.POST("/api/app/members", { body: { studioId, email: guest.email } }),
      201,
    );
    expect(sent.outcome).toBe("sent");
    // The guest accepts in their own session, so the next steps have a member to change.
    const accepted = await membersApi("PATCH", guest.cookie, {
      studioId,
      action: "accept",
      memberInvitationKey: await keyOf(_id, guest.email),
      email: guest.email,
    });
    expect(accepted.status).toBe(200);
    made.memberId = (await memberRow(_id, guest.email)).id;
  },

  async changeMember() {
    const body = {
      action: "role" as const,
      studioId: made.project.studioId,
      memberId: made.memberId,
      role: "developer" as const,
    };
    const changed = answer(await client.PATCH("/api/app/members", { body }), 200);
    expect(changed.ok).toBe(true);
  },

  async removeMember() {
    const body = { studioId: made.project.studioId, memberId: made.memberId };
    expect(answer(await client.DELETE("/api/app/members", { body }), 200).ok).toBe(true);
  },
  // The document's `webhooks` (…Event) are requests this server sends, not calls a client makes.
} satisfies Record<Exclude<keyof operations, `${string}Event`>, () => Promise<void>>;

describe.runIf(postgres)("the typed client with a read-write token", () => {
  for (const [operationId, step] of Object.entries(steps)) {
    it(`${operationId}: a documented answer of the expected shape`, step, 90_000);
  }

  it("called every operation of the served document, and only those", () => {
    const inDocument = Object.values(document.paths)
      .flatMap((operations) => Object.values(operations).map((op) => op.operationId))
      .sort();
    expect(Object.keys(steps).sort()).toEqual(inDocument);
    expect([...answered.keys()].sort()).toEqual(inDocument);
  });
});

describe.runIf(postgres)("the typed client with a read token", () => {
  it("reads, and is refused with 403 on a change", async () => {
    const list = answer(await readClient.GET("/api/app"), 200);
    expect(list.data.length).toBeGreaterThan(0);
    const refused = refusal(
      await readClient.POST("/api/app/create", {
        body: { name: "Never made", idempotencyKey: `client-read-${Date.now()}` },
      }),
      403,
    );
    expect(refused.error).toMatch(/can only read/);
  });

  it("is refused with 403 on every changing operation of the document, and reaches every read", async () => {
    const { studioId } = await insertProject(owner.id, { name: "Read token target" });
    const readToken = await tokenFor("read");
    const checked: string[] = [];
    for (const [template, operations] of Object.entries(document.paths)) {
      const url = `${server.base}${template.replace(/\{[^}]+\}/g, studioId)}`;
      for (const [method, operation] of Object.entries(operations)) {
        const response = await fetch(url, {
          method: method.toUpperCase(),
          headers: {
            Authorization: `Bearer ${readToken}`,
            ...(method === "get" ? {} : { "Content-Type": "application/json" }),
          },
          ...(method === "get" ? {} : { body: JSON.stringify({ studioId }) }),
        });
        const where = `${operation.operationId} (${method.toUpperCase()} ${template})`;
        if (method === "get") {
          expect([401, 403], `${where} reads`).not.toContain(response.status);
        } else {
          expect(response.status, `${where} refused`).toBe(403);
        }
        checked.push(operation.operationId);
      }
    }
    expect(checked.sort()).toEqual(Object.keys(steps).sort());
  });
});
