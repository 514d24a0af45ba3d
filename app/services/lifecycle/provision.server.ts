/** Provisioning a new project: content studio, then a site, then its first deployment. */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { projects, projectSites, users } from "~/db/schema";
import { forgetSite } from "~/services/core/index.server";
import { env } from "~/utils/env.server";
import type { User } from "~/services/accounts/index.server";
import type { CreateProjectInput } from "~/services/projects";
import { createProject } from "~/services/projects/index.server";
import {
  type LifecycleProviders,
  PROVIDERS,
  type ProjectRow,
  heartbeat,
  loadProject,
  primaryProvider,
  reload,
  siteName,
  siteProvider,
  step,
} from "./common.server";
import { enqueuePoll, enqueueProvisioning } from "./queue.server";
import { emitProjectEvent } from "~/services/events/index.server";

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
        const deployment = await hosting.triggerDeployment(siteId, {
          triggerKey: `${project.id}:initial`,
          title: "StackShift: first deployment",
        });
        forgetSite(siteProvider(project), siteId);
        await db().transaction(async (tx) => {
          await tx
            .update(projects)
            .set({ siteCreationStatus: "deployed", updatedAt: sql`now()` })
            .where(and(eq(projects.id, project.id), eq(projects.siteCreationStatus, "created")));
          await emitProjectEvent(tx, {
            projectId: project.id,
            type: "deployment.started",
            payload: { deploymentId: deployment.id, trigger: "initial" },
            dedupeKey: deployment.id,
          });
        });
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
