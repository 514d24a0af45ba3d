/**
 * Retrying failed deployments: the API, the
 * 'Oops! Failed Deployment...' page's form, three failed retries making a permanent 'Deployment
 * Error', and the refusal of a fourth.
 */
import { and, eq, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localDeploys, localSites, members, projects, users } from "~/db/schema";
import { action as retryApi, loader as retryGet } from "~/routes/api.app.retry";
import {
  action as failedAction,
  loader as failedLoader,
} from "~/routes/_app._project.sites.$studioId_.failed-deployment";
import { loader as errorLoader } from "~/routes/_app._project.sites.$studioId_.deployment-error";
import { getUser } from "~/services/accounts/accounts.server";
import {
  listPermanentErrors,
  PERMANENT_ERROR_MESSAGE,
  PROVIDER_ERROR_MESSAGE,
} from "~/services/deployments/deployments.server";
import { ForbiddenError } from "~/services/core/errors";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";
import {
  configure,
  createThroughApi,
  projectRow,
  startWorkers,
  waitForStatus,
} from "./lifecycle-support";

beforeAll(async () => {
  configure({
    PROVIDERS: "local",
    LOCAL_DEPLOY_STEP_SECONDS: "0.2",
    LOCAL_DEPLOY_FAILURE_RATE: "0",
  });
  await startWorkers();
});

function retryThroughApi(cookie: string | undefined, body: unknown, raw?: string) {
  return call(
    retryApi,
    makeRequest("/api/app/retry", {
      method: "POST",
      cookie,
      ...(raw !== undefined
        ? { body: raw, headers: { "Content-Type": "application/json" } }
        : { json: body }),
    }),
  );
}

function page(loader: typeof failedLoader | typeof errorLoader, studioId: string, cookie?: string) {
  return call(loader, makeRequest(`/sites/${studioId}/page`, { cookie }), { studioId });
}

function retryThroughPage(studioId: string, cookie: string, form: Record<string, string>) {
  return call(failedAction, makeRequest(`/sites/${studioId}/failed-deployment`, { cookie, form }), {
    studioId,
  });
}

async function deploysOf(projectId: string) {
  return db()
    .select({ triggerKey: localDeploys.triggerKey, state: localDeploys.state })
    .from(localDeploys)
    .where(like(localDeploys.triggerKey, `${projectId}:%`))
    .orderBy(localDeploys.seq);
}

/** The platform admin of this test file (PLATFORM_ADMIN_EMAILS), created on first use. */
async function platformAdmin() {
  const [existing] = await db().select().from(users).where(eq(users.email, "admin@example.com"));
  return existing ?? (await createUser({ email: "admin@example.com" }));
}

describe("retrying a failed deployment", () => {
  it("retries from the page and the API; the third failed retry is permanent and a fourth is refused", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const created = await createThroughApi(cookie, { name: "Retry fail-deploy" });
    let row = await waitForStatus(created._id, ["failed", "success"]);
    expect(row.siteCreationStatus).toBe("failed");

    // The page offers the retry with the site's name and idempotency key. Why it failed: the
    // generic message; the vendor's build output stays in the database.
    const view = await page(failedLoader, row.studioId, cookie);
    expect(view.status).toBe(200);
    const viewText = await view.text();
    expect(JSON.parse(viewText).view).toMatchObject({
      name: "Retry fail-deploy",
      idempotencyKey: created.idempotencyKey,
      retriesLeft: 3,
      lastError: PROVIDER_ERROR_MESSAGE,
    });
    expect(row.lastProvisionError).toContain("local failure");
    expect(viewText).not.toContain("local failure");
    expect(viewText).not.toContain("exited with 1");

    // Retry 1: the page's form; back to the project list with the spec's toast.
    const res = await retryThroughPage(row.studioId, cookie, {
      name: "Retry fail-deploy",
      idempotencyKey: created.idempotencyKey,
    });
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/");
    await expect(res).toSendToast({
      title: "Retrying Deployment!",
      description: "StackShift deploying once again...",
    });
    row = await projectRow(row.id);
    expect(row.deployRetryCount).toBe(1);
    expect(row.siteCreationStatus).not.toBe("failed");
    row = await waitForStatus(row.id, ["failed", "success"]);
    expect(row.siteCreationStatus).toBe("failed");
    expect(row.permanentErrorAt).toBeNull();

    // Retries 2 and 3: the API.
    for (const n of [2, 3]) {
      const api = await retryThroughApi(cookie, {
        name: "Retry fail-deploy",
        idempotencyKey: created.idempotencyKey,
      });
      expect(api.status).toBe(202);
      expect(await api.json()).toMatchObject({
        status: "retrying",
        deployRetryCount: n,
        retriesLeft: 3 - n,
        studioId: row.studioId,
      });
      row = await waitForStatus(row.id, ["failed", "success"]);
      expect(row.siteCreationStatus).toBe("failed");
    }
    expect(row.permanentErrorAt).not.toBeNull();
    expect(row.deployRetryCount).toBe(3);
    expect((await deploysOf(row.id)).map((d) => [d.triggerKey, d.state])).toEqual([
      [`${row.id}:initial`, "ERROR"],
      [`${row.id}:retry:1`, "ERROR"],
      [`${row.id}:retry:2`, "ERROR"],
      [`${row.id}:retry:3`, "ERROR"],
    ]);

    // A fourth is refused, clearly, by the API and by the page.
    const fourth = await retryThroughApi(cookie, {
      name: "Retry fail-deploy",
      idempotencyKey: created.idempotencyKey,
    });
    expect(fourth.status).toBe(409);
    expect((await fourth.json()).error).toBe(PERMANENT_ERROR_MESSAGE);
    const fromPage = await retryThroughPage(row.studioId, cookie, {
      name: "Retry fail-deploy",
      idempotencyKey: created.idempotencyKey,
    });
    expect(fromPage.status).toBe(302);
    expect(fromPage).toHaveRedirect(`/sites/${row.studioId}/deployment-error`);
    expect((await projectRow(row.id)).deployRetryCount).toBe(3);

    // The pages: failed-deployment sends to the permanent page, which explains it.
    const failedPage = await page(failedLoader, row.studioId, cookie);
    expect(failedPage.status).toBe(302);
    expect(failedPage).toHaveRedirect(`/sites/${row.studioId}/deployment-error`);
    const errorPage = await page(errorLoader, row.studioId, cookie);
    expect(errorPage.status).toBe(200);
    expect((await errorPage.json()).view).toEqual({
      studioId: row.studioId,
      name: "Retry fail-deploy",
      retries: 3,
    });

    // Platform admins see it; nobody else may list them.
    const admin = (await getUser((await platformAdmin()).id))!;
    const listed = await listPermanentErrors(admin);
    expect(listed).toContainEqual(
      expect.objectContaining({
        projectId: row.id,
        studioId: row.studioId,
        ownerEmail: owner.email,
        deployRetryCount: 3,
        siteProvider: "vercel",
        lastError: expect.stringContaining("fail-deploy"),
      }),
    );
    await expect(listPermanentErrors((await getUser(owner.id))!)).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  }, 90_000);

  it("succeeds when the cause is fixed, and counts the retry", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const created = await createThroughApi(cookie, { name: "Fixable fail-deploy" });
    const failed = await waitForStatus(created._id, ["failed", "success"]);
    expect(failed.siteCreationStatus).toBe("failed");
    // Fixed at the vendor (the stand-in fails sites named "fail-deploy").
    await db()
      .update(localSites)
      .set({ name: "fixed-now" })
      .where(eq(localSites.id, failed.siteId!));
    const res = await retryThroughApi(cookie, {
      name: "Fixable fail-deploy",
      idempotencyKey: created.idempotencyKey,
    });
    expect(res.status).toBe(202);
    const row = await waitForStatus(created._id, ["failed", "success"]);
    expect(row.siteCreationStatus).toBe("success");
    expect(row.deployRetryCount).toBe(1);
    expect(row.lastProvisionError).toBeNull();
    expect(row.siteDetails?.published_deploy).toBeTruthy();
    // A successful project has nothing to retry.
    const again = await retryThroughApi(cookie, {
      name: "Fixable fail-deploy",
      idempotencyKey: created.idempotencyKey,
    });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatch(/Only a failed deployment/);
    const pageRes = await page(failedLoader, row.studioId, cookie);
    expect(pageRes.status).toBe(302);
    expect(pageRes).toHaveRedirect(`/sites/${row.studioId}`);
  }, 60_000);

  it("re-runs provisioning when the site was never created", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const created = await createThroughApi(cookie, { name: "Provisioning failed" });
    await waitForStatus(created._id, ["success"]);
    // As if createSite had been refused for good: no site, failed, with the vendor's reason.
    await db()
      .update(projects)
      .set({
        siteId: null,
        siteCreationStatus: "failed",
        lastProvisionError: "Name taken",
        siteDetails: null,
      })
      .where(eq(projects.id, created._id));
    await db().execute(sql`delete from project_sites where project_id = ${created._id}`);
    const res = await retryThroughApi(cookie, {
      name: "Provisioning failed",
      idempotencyKey: created.idempotencyKey,
    });
    expect(res.status).toBe(202);
    const row = await waitForStatus(created._id, ["failed", "success"]);
    expect(row.siteCreationStatus).toBe("success");
    // The provider's idempotency returns the same site: nothing duplicated.
    const sites = await db()
      .select()
      .from(localSites)
      .where(like(localSites.idempotencyKey, `${created._id}:%`));
    expect(sites).toHaveLength(1);
    expect(row.siteId).toBe(sites[0].id);
  }, 60_000);

  it("counts two simultaneous retries once", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const created = await createThroughApi(cookie, { name: "Twice fail-deploy" });
    await waitForStatus(created._id, ["failed"]);
    const body = { name: "Twice fail-deploy", idempotencyKey: created.idempotencyKey };
    const results = await Promise.all([
      retryThroughApi(cookie, body),
      retryThroughApi(cookie, body),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([202, 409]);
    expect((await projectRow(created._id)).deployRetryCount).toBe(1);
  }, 60_000);
});

describe("bad input and outsiders", () => {
  it("answers 400 for bad bodies, 404 for projects the caller cannot see, 401 anonymous, 405 GET", async () => {
    const owner = await createUser();
    const outsider = await createUser();
    const cookie = await sessionCookie(owner.id);
    const [p] = await db()
      .insert(projects)
      .values({
        name: "Failed one",
        ownerId: owner.id,
        idempotencyKey: "failed-one-key",
        studioId: `failedone${Date.now().toString(36)}`,
        siteCreationStatus: "failed",
      })
      .returning();

    for (const body of [
      {},
      { name: "Failed one" },
      { idempotencyKey: "failed-one-key" },
      { name: "", idempotencyKey: "failed-one-key" },
      { name: "Failed one", idempotencyKey: "short" },
      { name: "Failed one", idempotencyKey: "bad key with spaces" },
      { name: 5, idempotencyKey: "failed-one-key" },
      [],
      null,
    ]) {
      const res = await retryThroughApi(cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error).toEqual(expect.any(String));
    }
    expect((await retryThroughApi(cookie, undefined, "{nope")).status).toBe(400);
    const good = { name: "Failed one", idempotencyKey: "failed-one-key" };
    expect((await retryThroughApi(await sessionCookie(outsider.id), good)).status).toBe(404);
    expect((await retryThroughApi(cookie, { ...good, name: "Other name" })).status).toBe(404);
    expect((await retryThroughApi(undefined, good)).status).toBe(401);
    expect((await call(retryGet, makeRequest("/api/app/retry", { cookie }))).status).toBe(405);

    // The page: outsiders 404; a form without its fields is a 400 with a message.
    expect((await page(failedLoader, p.studioId, await sessionCookie(outsider.id))).status).toBe(
      404,
    );
    expect((await page(errorLoader, p.studioId, await sessionCookie(outsider.id))).status).toBe(
      404,
    );
    const empty = await retryThroughPage(p.studioId, cookie, {});
    expect(empty.status).toBe(400);
    expect(Object.values((await empty.json()).result.error).flat()[0]).toEqual(expect.any(String));
    const anonymous = await page(failedLoader, p.studioId);
    expect(anonymous.status).toBe(302);
    expect(anonymous).toHaveRedirect(/^\/auth\/login/);
    // The failed project's permanent page is not shown: it goes to the retry page.
    const notYet = await page(errorLoader, p.studioId, cookie);
    expect(notYet).toHaveRedirect(`/sites/${p.studioId}/failed-deployment`);
    // Still failed, never counted by the refused attempts.
    const [after] = await db()
      .select()
      .from(projects)
      .where(and(eq(projects.id, p.id)));
    expect(after.deployRetryCount).toBe(0);
  });
});

describe("what the failed-deployment page says about the cause", () => {
  const VENDOR_TEXT =
    "Token tok_live_9f8e7d6c lacks scope deployments:write on team acme-internal (req 7f3a)";

  it("shows members a generic message and platform admins the provider's words, which the database keeps", async () => {
    const owner = await createUser();
    const admin = await platformAdmin();
    const [p] = await db()
      .insert(projects)
      .values({
        name: "Refused by the vendor",
        ownerId: owner.id,
        idempotencyKey: `refused-${Date.now()}`,
        studioId: `refused${Date.now().toString(36)}`,
        siteCreationStatus: "failed",
        lastProvisionError: VENDOR_TEXT,
      })
      .returning();
    // The platform admin can see the project only as one of its members (permissions rule 1).
    await db().insert(members).values({
      projectId: p.id,
      userId: admin.id,
      invitedEmail: admin.email,
      role: "admin",
      status: "accepted",
    });

    const forOwner = await page(failedLoader, p.studioId, await sessionCookie(owner.id));
    expect(forOwner.status).toBe(200);
    const ownerText = await forOwner.text();
    expect(JSON.parse(ownerText).view.lastError).toBe(
      "The hosting provider reported an error. Our team has the details.",
    );
    expect(ownerText).not.toContain("tok_live_9f8e7d6c");
    expect(ownerText).not.toContain("acme-internal");

    const forAdmin = await page(failedLoader, p.studioId, await sessionCookie(admin.id));
    expect(forAdmin.status).toBe(200);
    expect((await forAdmin.json()).view.lastError).toBe(VENDOR_TEXT);

    // The detail is kept where the team looks for it.
    const [after] = await db().select().from(projects).where(eq(projects.id, p.id));
    expect(after.lastProvisionError).toBe(VENDOR_TEXT);
  });
});
