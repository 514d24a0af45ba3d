/**
 * A deleted project's sites and studio are deleted at their providers however long that takes:
 * the deletion records them as pending in its own transaction, the cleanup job clears what it
 * deletes, and what it cannot delete, even past its ten retries, the scheduled retry
 * (deletions.retry) tries again with backoff until the provider answers (a 404 counts as done).
 * With the local providers, and with Sanity's and Netlify's stand-ins (PROVIDERS=live).
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { externalDeletions, localSites, localStudios, projects, projectSites } from "~/db/schema";
import { JOBS, QUEUES } from "~/jobs/index.server";
import { queue } from "~/jobs/queue.server";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { hostingProvider } from "~/providers/hosting/index.server";
import {
  DELETION_RETRY_JOB,
  pendingDeletions,
  retryExternalDeletions,
} from "~/services/projects/external-deletions.server";
import { deleteProject, PROJECT_CLEANUP_JOB } from "~/services/projects/project-deletion.server";
import { resetEnv } from "~/utils/env.server";
import { metricsRegistry } from "~/utils/metrics.server";
import { createUser, insertProject, runQueuedJobs } from "../helpers";
import { startNetlifyStandIn, type NetlifyStandIn } from "../stand-ins/netlify";
import { startSanityStandIn, type SanityStandIn } from "../stand-ins/sanity";
import { asUser } from "./studio-fixtures";

const HOUR = 3_600_000;

const pendingRows = () => db().select().from(externalDeletions);

/** The queued cleanup job of a project, by its studio (the job carries no project id). */
async function cleanupJobFor(studio: string) {
  const jobs = (await queue().fetch<Record<string, unknown>>(PROJECT_CLEANUP_JOB, {
    batchSize: 50,
  })) as { id: string; data: Record<string, unknown> }[];
  const mine = jobs.find((j) => j.data.studioProjectId === studio);
  expect(mine).toBeDefined();
  return mine!;
}

/** Inserts into external_deletions fail while `fn` runs (a trigger, dropped afterwards). */
async function withFailingPendingInsert<T>(fn: () => Promise<T>): Promise<T> {
  await db().execute(
    sql.raw(
      "create or replace function deletions_test_fail() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$",
    ),
  );
  await db().execute(
    sql.raw(
      "create trigger deletions_test_fail before insert on external_deletions for each row execute function deletions_test_fail()",
    ),
  );
  try {
    return await fn();
  } finally {
    await db().execute(sql.raw("drop trigger if exists deletions_test_fail on external_deletions"));
  }
}

describe("with the local providers", () => {
  it("the deletion records its site and studio as pending in its transaction; the cleanup job clears them", async () => {
    const owner = await createUser();
    const tag = randomUUID().slice(0, 8);
    const studio = `st${tag}`;
    const siteId = `site-${tag}`;
    await db()
      .insert(localStudios)
      .values({ id: studio, displayName: "Gone", idempotencyKey: `k-${tag}` });
    await db()
      .insert(localSites)
      .values({ id: siteId, provider: "netlify", name: "gone", idempotencyKey: `i-${tag}` });
    const project = await insertProject(owner.id, { name: "Gone Bakery", studioSanityId: studio });
    await db().insert(projectSites).values({ projectId: project.id, provider: "netlify", siteId });

    // The pending rows cannot be written: the project is not deleted either.
    await expect(
      withFailingPendingInsert(() => deleteProject(asUser(owner), project.studioId, "Gone Bakery")),
    ).rejects.toThrow();
    expect(await db().select().from(projects).where(eq(projects.id, project.id))).toHaveLength(1);
    expect(await pendingRows()).toEqual([]);

    await deleteProject(asUser(owner), project.studioId, "Gone Bakery");
    expect(
      (await pendingRows()).map(({ target, resourceId, projectName, attempts }) => ({
        target,
        resourceId,
        projectName,
        attempts,
      })),
    ).toEqual(
      expect.arrayContaining([
        { target: "netlify", resourceId: siteId, projectName: "Gone Bakery", attempts: 0 },
        { target: "studio", resourceId: studio, projectName: "Gone Bakery", attempts: 0 },
      ]),
    );
    expect(await pendingDeletions()).toHaveLength(2);
    // Operators see them on /metrics.
    const scraped = await metricsRegistry().metrics();
    expect(scraped).toMatch(/^stackshift_external_deletions_pending\{target="studio"\} 1$/m);
    expect(scraped).toMatch(/^stackshift_external_deletions_pending\{target="netlify"\} 1$/m);

    expect(await runQueuedJobs(PROJECT_CLEANUP_JOB)).toBeGreaterThanOrEqual(1);
    expect(await pendingRows()).toEqual([]);
    expect(await db().select().from(localStudios).where(eq(localStudios.id, studio))).toEqual([]);
    expect(await db().select().from(localSites).where(eq(localSites.id, siteId))).toEqual([]);
    expect(await pendingDeletions()).toEqual([]);
  });

  it("the retry is a scheduled job like the others, so its runs are counted in /metrics", () => {
    const job = JOBS.find((j) => j.name === DELETION_RETRY_JOB);
    expect(job?.schedule).toBe("*/10 * * * *");
    // Every queue in QUEUES is worked through work(), which counts completions and failures.
    expect(QUEUES).toContain(DELETION_RETRY_JOB);
  });
});

describe("with Sanity and Netlify (PROVIDERS=live) against the stand-ins", () => {
  let sanity: SanityStandIn;
  let netlify: NetlifyStandIn;
  const ENV = ["PROVIDERS", "SANITY_AUTH_TOKEN", "SANITY_API_URL"];
  const HOSTING_ENV = ["NETLIFY_AUTH_TOKEN", "NETLIFY_API_URL"];

  beforeEach(async () => {
    sanity = await startSanityStandIn();
    netlify = await startNetlifyStandIn();
    process.env.PROVIDERS = "live";
    process.env.SANITY_AUTH_TOKEN = sanity.token;
    process.env.SANITY_API_URL = sanity.url;
    process.env.NETLIFY_AUTH_TOKEN = netlify.token;
    process.env.NETLIFY_API_URL = netlify.url;
    resetEnv();
  });
  afterEach(async () => {
    for (const key of [...ENV, ...HOSTING_ENV]) delete process.env[key];
    resetEnv();
    await sanity.close();
    await netlify.close();
  });

  /** A project with a studio at Sanity and a site at Netlify, deleted by its owner. */
  async function deletedProject(name: string) {
    const owner = await createUser();
    const key = randomUUID();
    const studio = await contentStudioProvider().createStudio({
      displayName: name,
      idempotencyKey: key,
    });
    const site = await hostingProvider("netlify").createSite({
      name: `gone-${key.slice(0, 8)}`,
      idempotencyKey: key,
    });
    const project = await insertProject(owner.id, { name, studioSanityId: studio.projectId });
    await db()
      .insert(projectSites)
      .values({ projectId: project.id, provider: "netlify", siteId: site.id });
    await deleteProject(asUser(owner), project.studioId, name);
    return { studio: studio.projectId, siteId: site.id };
  }

  const down = { status: 503, body: { statusCode: 503, error: "Unavailable", message: "down" } };

  it("what fails past the cleanup job's ten retries is tried again later, with backoff, until the providers answer", async () => {
    const { studio, siteId } = await deletedProject("Stubborn Bakery");
    const studioPath = new RegExp(`^/v2021-06-07/projects/${studio}$`);
    // Both vendors are down for the cleanup job's every try: the first and its ten retries.
    for (let i = 0; i < 11; i += 1) sanity.failNext(studioPath, down, "DELETE");
    netlify.fail({
      method: "DELETE",
      path: new RegExp(`^/sites/${siteId}$`),
      status: 503,
      times: 11,
    });
    const job = await cleanupJobFor(studio);
    const cleanup = JOBS.find((j) => j.name === PROJECT_CLEANUP_JOB)!.handler;
    for (let i = 0; i < 11; i += 1) await expect(cleanup(job.data)).rejects.toThrow();
    // pg-boss would now fail the job for good.
    await queue().fail(PROJECT_CLEANUP_JOB, job.id, { message: "out of retries" });

    const stuck = await pendingRows();
    expect(stuck.map((r) => [r.target, r.resourceId, r.attempts]).sort()).toEqual(
      [
        ["netlify", siteId, 11],
        ["studio", studio, 11],
      ].sort(),
    );
    expect(stuck.every((r) => /503|down|Unavailable/i.test(r.lastError ?? ""))).toBe(true);
    // The backoff doubled from ten minutes and is capped at twelve hours.
    for (const row of stuck) {
      const wait = row.nextAttemptAt.getTime() - Date.now();
      expect(wait).toBeGreaterThan(11.9 * HOUR);
      expect(wait).toBeLessThanOrEqual(12 * HOUR);
    }
    expect(sanity.projects.has(studio)).toBe(true);

    // Not due yet: the scheduled run tries nothing.
    expect(await retryExternalDeletions()).toEqual({ attempted: 0, deleted: 0, failed: 0 });

    // Half a day on, Sanity is still down, Netlify is back.
    sanity.failNext(studioPath, down, "DELETE");
    const later = new Date(Date.now() + 13 * HOUR);
    expect(await retryExternalDeletions({ now: later })).toEqual({
      attempted: 2,
      deleted: 1,
      failed: 1,
    });
    expect((await pendingRows()).map((r) => [r.target, r.resourceId, r.attempts])).toEqual([
      ["studio", studio, 12],
    ]);

    // A day later Sanity answers: the studio goes, and nothing is pending any more.
    const evenLater = new Date(later.getTime() + 13 * HOUR);
    expect(await retryExternalDeletions({ now: evenLater })).toEqual({
      attempted: 1,
      deleted: 1,
      failed: 0,
    });
    expect(sanity.projects.has(studio)).toBe(false);
    expect(await pendingRows()).toEqual([]);
    // The job as pg-boss's schedule runs it: nothing left to do.
    await JOBS.find((j) => j.name === DELETION_RETRY_JOB)!.handler({});
  });

  it("a refusal (403) stays pending for the schedule; a studio already gone (404) counts as deleted", async () => {
    const { studio, siteId } = await deletedProject("Refused Bakery");
    const studioPath = new RegExp(`^/v2021-06-07/projects/${studio}$`);
    sanity.failNext(
      studioPath,
      { status: 403, body: { statusCode: 403, error: "Forbidden", message: "Not allowed" } },
      "DELETE",
    );
    // A refusal is not retried by pg-boss (the job completes), but it is not forgotten.
    expect(await runQueuedJobs(PROJECT_CLEANUP_JOB)).toBeGreaterThanOrEqual(1);
    expect(
      netlify.requests.some((r) => r.method === "DELETE" && r.path === `/sites/${siteId}`),
    ).toBe(true);
    const [row] = await pendingRows();
    expect(row).toMatchObject({ target: "studio", resourceId: studio, attempts: 1 });
    expect(row.lastError).toMatch(/Not allowed/);

    // Someone deleted it in Sanity's own interface meanwhile: the next try finds it gone.
    sanity.projects.delete(studio);
    const later = new Date(Date.now() + HOUR);
    expect(await retryExternalDeletions({ now: later })).toEqual({
      attempted: 1,
      deleted: 1,
      failed: 0,
    });
    expect(await pendingRows()).toEqual([]);
  });
});
