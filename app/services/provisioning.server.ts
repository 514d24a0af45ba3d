/**
 * The project lifecycle behind the jobs in app/jobs/lifecycle.server.ts: provisioning (content
 * studio, then a site on the primary hosting provider, then the first deployment), polling the
 * deployment to success or failure, automatic deployment, and the sweep that resumes work a
 * crashed instance left behind.
 *
 * Every step is idempotent, so a job re-run after a crash at any point finishes the work without
 * duplicates: the vendors' create calls carry idempotency keys, deployments carry trigger keys,
 * and each recorded transition is a conditional UPDATE from the state before it.
 *
 * Statuses:
 *   studioCreationStatus  pending -> created (studio exists) -> success (dataset, CORS, invite)
 *   siteCreationStatus    pending -> created (site exists) -> deployed (deployment triggered)
 *                         -> success (deployment ready) | failed (error, or a permanent
 *                         provider error while provisioning; lastProvisionError says why)
 */
import { createHash, randomUUID } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull, ne, notInArray, or, sql } from "drizzle-orm";
import type PgBoss from "pg-boss";
import { db, type Tx } from "~/db/client.server";
import { projects, projectSites, users, type HostingDetails } from "~/db/schema";
import { sendJob } from "~/jobs/queue.server";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import type { ContentStudioProvider } from "~/providers/content-studio/types";
import { ProviderError } from "~/providers/errors";
import { hostingProvider } from "~/providers/hosting/index.server";
import { forgetSite } from "./provider-cache.server";
import type {
  Deployment,
  HostedSite,
  HostingProvider,
  HostingProviderName,
} from "~/providers/hosting/types";
import { env } from "~/utils/env.server";
import type { User } from "./accounts.server";
import { MAX_DEPLOY_RETRIES } from "./deployments.schema";
import type { CreateProjectInput } from "./projects.schema";
import { createProject } from "./projects.server";

export const PROVISION_JOB = "project.provision";
export const POLL_JOB = "project.poll";
export const DEPLOY_JOB = "project.deploy";
export const SWEEP_JOB = "project.sweep";

/** The sweep runs on a one-minute cron and, between ticks, re-enqueues itself this often. */
export const SWEEP_EVERY_SECONDS = 10;
/**
 * A project whose provisioning or polling has not written to its row for this long has lost its
 * job (the instance running it died): the sweep resumes it. Running jobs heartbeat well inside it.
 */
export const STALL_SECONDS = 30;
const HEARTBEAT_MS = 5_000;

/** The providers the lifecycle talks to; tests pass wrappers around the real local ones. */
export type LifecycleProviders = {
  studio: () => ContentStudioProvider;
  hosting: (name: HostingProviderName) => HostingProvider;
};
const PROVIDERS: LifecycleProviders = {
  studio: contentStudioProvider,
  hosting: hostingProvider,
};

type ProjectRow = typeof projects.$inferSelect;
type CreationStatus = ProjectRow["siteCreationStatus"];

const RETRY = { retryLimit: 5, retryDelay: 5, retryBackoff: true } as const;

/** Business sites are primary on the second provider (Vercel), enterprise on the first. */
export function primaryProvider(siteType: ProjectRow["siteType"]): HostingProviderName {
  return siteType === "enterprise" ? "netlify" : "vercel";
}

/** Where the project's site lives: recorded once created, otherwise where it will be created. */
export function siteProvider(
  project: Pick<ProjectRow, "siteId" | "isSiteOnVercel" | "siteType">,
): HostingProviderName {
  if (project.siteId) return project.isSiteOnVercel ? "vercel" : "netlify";
  return primaryProvider(project.siteType);
}

/** The vendor-side site name: a slug of the project name plus its studioId (unique, stable). */
export function siteName(project: Pick<ProjectRow, "name" | "studioId">): string {
  const slug = project.name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return slug ? `${slug}-${project.studioId}` : `site-${project.studioId}`;
}

/**
 * The deployment a project in 'deployed' is waiting for: the latest retry's, else the first one.
 * (Automatic and manual deployments are newer still and are found as the latest deployment.)
 */
export function expectedTriggerKey(project: Pick<ProjectRow, "id" | "deployRetryCount">) {
  return project.deployRetryCount > 0
    ? `${project.id}:retry:${project.deployRetryCount}`
    : `${project.id}:initial`;
}

const TERMINAL = new Set<Deployment["status"]>(["ready", "error", "canceled"]);

function pollSeconds() {
  return env().PROVIDERS === "local" ? 2 : 10;
}

// ---------------------------------------------------------------------------------------------
// Enqueueing

async function send(
  name: string,
  data: Record<string, unknown>,
  options: PgBoss.SendOptions = {},
  tx?: Tx,
) {
  return sendJob(name, data, { ...RETRY, ...options }, tx);
}

/**
 * A job id per (key, time slot): chains that re-enqueue themselves (polling, the sweep) ask for
 * the slot their next run starts in, so however many instances or code paths ask for the same
 * slot, pg-boss inserts one job (the rest hit the primary key and insert nothing).
 */
function slotJobId(key: string, startAfterSeconds: number, slotSeconds: number) {
  const slot = Math.floor((Date.now() / 1000 + startAfterSeconds) / slotSeconds);
  const hex = createHash("sha256").update(`${key}\u0000${slot}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Starts (or keeps alive) the sweep between its cron ticks: one run per slot, cluster-wide. */
export async function kickSweep(tx?: Tx) {
  await send(
    SWEEP_JOB,
    {},
    {
      id: slotJobId("sweep", SWEEP_EVERY_SECONDS, SWEEP_EVERY_SECONDS),
      startAfter: SWEEP_EVERY_SECONDS,
      retryLimit: 0,
      expireInSeconds: 120,
    },
    tx,
  );
}

export async function enqueueProvisioning(projectId: string, tx?: Tx) {
  await send(PROVISION_JOB, { projectId }, { expireInSeconds: 600 }, tx);
  await kickSweep(tx);
}

type PollData = { projectId: string; deployId?: string };

async function enqueuePoll(data: PollData, options: { now?: boolean; tx?: Tx } = {}) {
  const seconds = pollSeconds();
  const delay = options.now ? 0 : seconds;
  await send(
    POLL_JOB,
    data,
    {
      // A chain's next poll: one per project and slot, so two chains (two paths started one)
      // merge into one. A first poll starts now, whatever ran in this slot before.
      ...(options.now
        ? {}
        : { id: slotJobId(`poll:${data.projectId}:${data.deployId ?? ""}`, delay, seconds) }),
      startAfter: delay,
      expireInSeconds: 120,
    },
    options.tx,
  );
}

async function enqueueDeploy(projectId: string, triggerKey: string, tx?: Tx) {
  await send(DEPLOY_JOB, { projectId, triggerKey }, { expireInSeconds: 300 }, tx);
}

// ---------------------------------------------------------------------------------------------
// Creating a project

/**
 * Creates the project (projects.server.ts) and, once its transaction has committed, enqueues its
 * provisioning. A repeated idempotency key enqueues again, which is harmless (every step is
 * idempotent) and covers a crash between the commit and the enqueue.
 */
export async function createProjectAndProvision(user: User, input: CreateProjectInput) {
  const result = await createProject(user, input);
  await enqueueProvisioning(result.project._id);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Row helpers

async function loadProject(projectId: string): Promise<ProjectRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(projectId)) return undefined;
  const [row] = await db().select().from(projects).where(eq(projects.id, projectId));
  return row;
}

async function reload(project: ProjectRow): Promise<ProjectRow> {
  const row = await loadProject(project.id);
  if (!row) throw new Error(`Project ${project.id} disappeared during provisioning`);
  return row;
}

async function touch(projectId: string) {
  await db()
    .update(projects)
    .set({ updatedAt: sql`now()` })
    .where(eq(projects.id, projectId));
}

/** Keeps the row's updated_at fresh while a long step runs, so the sweep does not resume it. */
function heartbeat(projectId: string) {
  const timer = setInterval(() => {
    touch(projectId).catch(() => undefined);
  }, HEARTBEAT_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}

function errorText(error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 1000);
}

async function recordError(projectId: string, error: unknown) {
  await db()
    .update(projects)
    .set({ lastProvisionError: errorText(error), updatedAt: sql`now()` })
    .where(eq(projects.id, projectId));
}

/** A permanent provider error: the project is 'failed' until someone retries it. */
async function markFailed(projectId: string, error: unknown, studioToo: boolean) {
  await db()
    .update(projects)
    .set({
      siteCreationStatus: "failed",
      ...(studioToo ? { studioCreationStatus: "failed" as const } : {}),
      lastProvisionError: errorText(error),
      updatedAt: sql`now()`,
    })
    .where(and(eq(projects.id, projectId), ne(projects.siteCreationStatus, "success")));
}

/**
 * Runs a provider step: a retryable error is recorded and rethrown (pg-boss retries the job with
 * backoff); a permanent one marks the project failed and stops provisioning (returns false).
 */
async function step(
  project: ProjectRow,
  failStudio: boolean,
  run: () => Promise<void>,
): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    if (error instanceof ProviderError && !error.retryable) {
      // The vendor's words stay here and in last_provision_error; members see a generic message.
      console.error(`[lifecycle] ${project.id}: permanent provider error: ${error.message}`);
      await markFailed(project.id, error, failStudio);
      return false;
    }
    await recordError(project.id, error).catch(() => undefined);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Provisioning

/** The provisioning job: studio, site, first deployment, then hands over to polling. */
export async function provisionProject(projectId: string, providers = PROVIDERS) {
  const initial = await loadProject(projectId);
  if (!initial || initial.permanentErrorAt) return;
  const stop = heartbeat(projectId);
  try {
    let project = initial;
    if (project.siteCreationStatus === "failed" || project.studioCreationStatus === "failed") {
      return; // waits for a retry
    }
    if (project.siteCreationStatus === "success") return;

    if (project.studioCreationStatus !== "success") {
      if (!(await step(project, true, () => provisionStudio(project, providers)))) return;
      project = await reload(project);
    }

    if (!project.siteId) {
      if (!(await step(project, false, () => createSite(project, providers)))) return;
      project = await reload(project);
    }

    if (project.siteCreationStatus === "created" && project.siteId) {
      const siteId = project.siteId;
      const hosting = providers.hosting(siteProvider(project));
      const ok = await step(project, false, async () => {
        await hosting.triggerDeployment(siteId, {
          triggerKey: `${project.id}:initial`,
          title: "StackShift: first deployment",
        });
        forgetSite(siteProvider(project), siteId);
        await db()
          .update(projects)
          .set({ siteCreationStatus: "deployed", updatedAt: sql`now()` })
          .where(and(eq(projects.id, project.id), eq(projects.siteCreationStatus, "created")));
      });
      if (!ok) return;
      project = await reload(project);
    }

    if (project.siteCreationStatus === "deployed") await enqueuePoll({ projectId }, { now: true });
  } finally {
    stop();
  }
}

async function provisionStudio(project: ProjectRow, providers: LifecycleProviders) {
  const studio = providers.studio();
  const created = await studio.createStudio({
    displayName: project.name,
    // The project id, not the client's idempotency key: that key is unique per owner only.
    idempotencyKey: `${project.id}:studio`,
  });
  await db()
    .update(projects)
    .set({
      studioSanityId: created.projectId,
      studioUrl: created.studioUrl,
      studioCreationStatus: "created",
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(projects.id, project.id),
        inArray(projects.studioCreationStatus, ["pending", "created"]),
      ),
    );
  await studio.ensureDataset(created.projectId, "production");
  await studio.addCorsOrigin(created.projectId, env().APP_URL);
  const [owner] = await db()
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, project.ownerId));
  // Invite once: a re-run after a crash must not e-mail the owner a second time.
  if (owner && (await studio.invitationStatus(created.projectId, owner.email)) === "none") {
    await studio.inviteMember(created.projectId, { email: owner.email, role: "administrator" });
  }
  await db()
    .update(projects)
    .set({ studioCreationStatus: "success", updatedAt: sql`now()` })
    .where(and(eq(projects.id, project.id), eq(projects.studioCreationStatus, "created")));
}

async function createSite(project: ProjectRow, providers: LifecycleProviders) {
  const provider = primaryProvider(project.siteType);
  const site = await providers.hosting(provider).createSite({
    name: siteName(project),
    idempotencyKey: `${project.id}:site`,
  });
  await db().transaction(async (tx) => {
    await tx
      .update(projects)
      .set({
        siteId: site.id,
        siteUrl: site.url,
        isSiteOnVercel: provider === "vercel",
        updatedAt: sql`now()`,
      })
      .where(and(eq(projects.id, project.id), isNull(projects.siteId)));
    await tx
      .update(projects)
      .set({ siteCreationStatus: "created" })
      .where(and(eq(projects.id, project.id), eq(projects.siteCreationStatus, "pending")));
    await tx
      .insert(projectSites)
      .values({ projectId: project.id, provider, siteId: site.id, url: site.url })
      .onConflictDoUpdate({
        target: [projectSites.projectId, projectSites.provider],
        set: { siteId: site.id, url: site.url },
      });
  });
}

// ---------------------------------------------------------------------------------------------
// Polling

/** The API's siteDetails from what the provider reports. `state` is the latest deployment's. */
export function siteDetailsOf(site: HostedSite, latest: Deployment | null): HostingDetails {
  return {
    state: latest?.state ?? site.state,
    ssl: site.ssl,
    published_deploy: site.publishedDeploy
      ? {
          id: site.publishedDeploy.id,
          ...(site.publishedDeploy.publishedAt
            ? { published_at: site.publishedDeploy.publishedAt }
            : {}),
        }
      : null,
    custom_domain: site.customDomain,
    domain_aliases: site.domainAliases,
    build_settings: site.repoUrl ? { repo_url: site.repoUrl } : {},
    targets: {
      production: {
        ...(site.productionReadyState ? { readyState: site.productionReadyState } : {}),
        alias: site.productionAlias,
      },
    },
  };
}

/**
 * The polling job. A project in 'deployed' is tracked: its latest deployment decides success or
 * failure, and the deployment it waits for (expectedTriggerKey) is triggered if it is missing
 * (a crash between a retry's commit and its trigger). Otherwise (`deployId`: a manual deployment
 * of a finished project) it only refreshes siteDetails until that deployment finishes.
 */
export async function pollProject(data: PollData, providers = PROVIDERS) {
  const project = await loadProject(data.projectId);
  if (!project?.siteId) return;
  const siteId = project.siteId;
  const tracking = project.siteCreationStatus === "deployed" && !data.deployId;
  if (!tracking && !data.deployId) return;
  const hosting = providers.hosting(siteProvider(project));

  let site: HostedSite;
  let current: Deployment | null;
  try {
    if (data.deployId) {
      current = await hosting.getDeployment(siteId, data.deployId);
    } else {
      const page = await hosting.listDeployments(siteId, { perPage: 1 });
      current = page.results[0] ?? null;
      if (!current || TERMINAL.has(current.status)) {
        // About to conclude: make sure the deployment we wait for exists (idempotent).
        const expected = await hosting.triggerDeployment(siteId, {
          triggerKey: expectedTriggerKey(project),
          title:
            project.deployRetryCount > 0 ? "StackShift: retry" : "StackShift: first deployment",
        });
        forgetSite(siteProvider(project), siteId);
        if (!current || !TERMINAL.has(expected.status)) current = expected;
      }
    }
    site = await hosting.getSite(siteId);
  } catch (error) {
    if (error instanceof ProviderError && !error.retryable) {
      console.error(`[lifecycle] ${project.id}: permanent provider error: ${error.message}`);
      if (tracking) await markFailed(project.id, error, false);
      return;
    }
    await recordError(project.id, error).catch(() => undefined);
    throw error;
  }

  const siteDetails = siteDetailsOf(site, current);
  const done = current !== null && TERMINAL.has(current.status);
  if (tracking && done && current) {
    const succeeded = current.status === "ready";
    const permanent = !succeeded && project.deployRetryCount >= MAX_DEPLOY_RETRIES;
    const failure =
      current.errorMessage ?? `Deployment ${current.id} ended in state ${current.state}`;
    if (!succeeded) console.error(`[lifecycle] ${project.id}: deployment failed: ${failure}`);
    // Conditional on the state we read: a retry committed meanwhile is not overwritten.
    await db()
      .update(projects)
      .set({
        siteDetails,
        siteCreationStatus: succeeded ? "success" : "failed",
        lastProvisionError: succeeded ? null : failure,
        ...(permanent ? { permanentErrorAt: sql`now()` } : {}),
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(projects.id, project.id),
          eq(projects.siteCreationStatus, "deployed"),
          eq(projects.deployRetryCount, project.deployRetryCount),
        ),
      );
    return;
  }
  await db()
    .update(projects)
    .set({ siteDetails, updatedAt: sql`now()` })
    .where(eq(projects.id, project.id));
  if (!done) await enqueuePoll(data);
}

// ---------------------------------------------------------------------------------------------
// Deployments on request (manual, automatic)

const IN_PROGRESS: CreationStatus[] = ["pending", "created", "deployed"];

/** The deployment job: triggers (idempotently per trigger key) and starts polling. */
export async function deployProject(
  data: { projectId: string; triggerKey: string },
  providers = PROVIDERS,
) {
  const project = await loadProject(data.projectId);
  if (!project?.siteId || project.permanentErrorAt) return;
  const siteId = project.siteId;
  let deployment: Deployment;
  try {
    deployment = await providers.hosting(siteProvider(project)).triggerDeployment(siteId, {
      triggerKey: data.triggerKey,
      title: data.triggerKey.endsWith(":auto")
        ? "StackShift: automatic deployment"
        : "StackShift: deployment",
    });
    // Site Builds shows the new deployment on the next view, not after the cache's window.
    forgetSite(siteProvider(project), siteId);
  } catch (error) {
    if (error instanceof ProviderError && !error.retryable) {
      if (IN_PROGRESS.includes(project.siteCreationStatus)) {
        await markFailed(project.id, error, false);
      }
      console.error(`[lifecycle] ${project.id}: deployment refused: ${error.message}`);
      return;
    }
    await recordError(project.id, error).catch(() => undefined);
    throw error;
  }
  if (IN_PROGRESS.includes(project.siteCreationStatus)) {
    // Still coming up (the automatic deployment's case): this deployment now decides it.
    await db()
      .update(projects)
      .set({ siteCreationStatus: "deployed", updatedAt: sql`now()` })
      .where(and(eq(projects.id, project.id), inArray(projects.siteCreationStatus, IN_PROGRESS)));
    await enqueuePoll({ projectId: project.id });
  } else {
    await enqueuePoll({ projectId: project.id, deployId: deployment.id });
  }
}

/** Queues a deployment of the project now (POST /api/app/deployments); a fresh trigger key. */
export async function enqueueManualDeployment(projectId: string) {
  const triggerKey = `${projectId}:manual:${randomUUID()}`;
  await enqueueDeploy(projectId, triggerKey);
  return triggerKey;
}

/**
 * Marks a failed project for another attempt inside the caller's transaction (the retry's
 * counter and status commit together with its job): with a site, the poll job triggers the
 * retry's deployment (`{id}:retry:{n}`) and follows it; without one, provisioning runs again.
 */
export async function scheduleRetry(tx: Tx, project: ProjectRow, retryCount: number) {
  if (project.siteId) {
    await tx
      .update(projects)
      .set({
        deployRetryCount: retryCount,
        siteCreationStatus: "deployed",
        lastProvisionError: null,
        updatedAt: sql`now()`,
      })
      .where(eq(projects.id, project.id));
    await enqueuePoll({ projectId: project.id }, { now: true, tx });
  } else {
    await tx
      .update(projects)
      .set({
        deployRetryCount: retryCount,
        siteCreationStatus: "pending",
        ...(project.studioCreationStatus === "failed"
          ? { studioCreationStatus: "pending" as const }
          : {}),
        lastProvisionError: null,
        updatedAt: sql`now()`,
      })
      .where(eq(projects.id, project.id));
    await enqueueProvisioning(project.id, tx);
  }
}

// ---------------------------------------------------------------------------------------------
// The sweep: automatic deployment and resuming lost work

/**
 * Automatic deployment: once a project is AUTO_DEPLOY_AFTER_MINUTES old and its site is
 * neither failed nor successful, deploy it once. Each candidate is claimed with a conditional
 * UPDATE whose row lock makes exactly one instance win, and the deployment job is enqueued in
 * the same transaction: claimed if and only if the job exists. Returns the claimed project ids.
 */
export async function autoDeploySweep(): Promise<string[]> {
  const minutes = env().AUTO_DEPLOY_AFTER_MINUTES;
  const eligible = and(
    isNull(projects.autoDeployedAt),
    isNull(projects.permanentErrorAt),
    isNotNull(projects.siteId),
    notInArray(projects.siteCreationStatus, ["failed", "success"]),
    sql`${projects.createdAt} <= now() - (${minutes}::double precision * interval '1 minute')`,
  );
  const candidates = await db()
    .select({ id: projects.id })
    .from(projects)
    .where(eligible)
    .orderBy(projects.createdAt)
    .limit(100);
  const claimed: string[] = [];
  for (const { id } of candidates) {
    const won = await db().transaction(async (tx) => {
      const [row] = await tx
        .update(projects)
        .set({ autoDeployedAt: sql`now()` })
        .where(and(eq(projects.id, id), eligible))
        .returning({ id: projects.id });
      if (row) await enqueueDeploy(id, `${id}:auto`, tx);
      return Boolean(row);
    });
    if (won) claimed.push(id);
  }
  return claimed;
}

/**
 * Projects still on their way whose row nobody has touched for STALL_SECONDS lost their job (an
 * instance died mid-provisioning or mid-poll): provisioning runs again and carries on from where
 * the row says it is. One resume per project per minute, however many instances sweep.
 */
export async function resumeStalledProjects(): Promise<string[]> {
  const rows = await db()
    .select({ id: projects.id })
    .from(projects)
    .where(
      and(
        isNull(projects.permanentErrorAt),
        ne(projects.siteCreationStatus, "failed"),
        ne(projects.studioCreationStatus, "failed"),
        or(
          inArray(projects.siteCreationStatus, IN_PROGRESS),
          inArray(projects.studioCreationStatus, ["pending", "created"]),
        ),
        sql`${projects.updatedAt} < now() - (${STALL_SECONDS} * interval '1 second')`,
      ),
    )
    .limit(100);
  for (const { id } of rows) {
    await send(
      PROVISION_JOB,
      { projectId: id },
      { singletonKey: `resume:${id}`, singletonSeconds: 60, expireInSeconds: 600 },
    );
  }
  return rows.map((r) => r.id);
}

export async function runLifecycleSweep() {
  try {
    await autoDeploySweep();
    await resumeStalledProjects();
  } finally {
    await kickSweep();
  }
}
