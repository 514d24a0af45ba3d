/**
 * Deleting a project: the owner (or a platform admin) confirms by typing its name; the project
 * and everything of it in our database go in one transaction, so it leaves every list at once,
 * and a job removes its hosted sites and content studio at the providers, retrying while they
 * cannot be reached (the job is sent in the same transaction: it exists exactly when the delete
 * commits).
 */
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { projects, projectSites } from "~/db/schema";
import { sendJob } from "~/jobs/queue.server";
import type { JobDefinition } from "~/jobs/types";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { ProviderError } from "~/providers/errors";
import { hostingProvider } from "~/providers/hosting/index.server";
import type { HostingProviderName } from "~/providers/hosting/types";
import type { User } from "./accounts.server";
import { InvalidError } from "./errors";
import { actorOn, assertCan, authorizeOn } from "./permissions.server";

export const PROJECT_CLEANUP_JOB = "project.cleanup";

type CleanupData = {
  name: string;
  studioProjectId: string | null;
  sites: { provider: HostingProviderName; siteId: string }[];
};

const NAME_MISMATCH = "Type the project's name exactly to delete it";

export async function deleteProject(
  user: User,
  studioId: string,
  typedName: string,
): Promise<{ name: string }> {
  const actor = await actorOn(user, studioId);
  assertCan(actor, "project.delete");
  const project = actor.project!;
  return db().transaction(async (tx) => {
    await authorizeOn(user, project, "project.delete", tx);
    const [row] = await tx.select().from(projects).where(eq(projects.id, project.id)).for("update");
    if (row.name !== typedName.trim()) {
      throw new InvalidError(NAME_MISMATCH, { confirmName: [NAME_MISMATCH] });
    }
    const sites = await tx
      .select({ provider: projectSites.provider, siteId: projectSites.siteId })
      .from(projectSites)
      .where(eq(projectSites.projectId, row.id));
    const data: CleanupData = {
      name: row.name,
      studioProjectId: row.studioSanityId,
      sites: sites.filter((s): s is { provider: HostingProviderName; siteId: string } =>
        Boolean(s.siteId),
      ),
    };
    await tx.delete(projects).where(eq(projects.id, row.id));
    await sendJob(
      PROJECT_CLEANUP_JOB,
      data,
      { retryLimit: 10, retryDelay: 30, retryBackoff: true },
      tx,
    );
    console.info(`[projects] ${row.name} (${row.studioId}) deleted by ${user.email}`);
    return { name: row.name };
  });
}

/**
 * The job: deletes each site and the studio (each delete is idempotent, so a retry after a
 * partial run repeats nothing harmful). A provider that refuses for good is logged and skipped;
 * one that cannot be reached fails the job, which pg-boss retries with backoff.
 */
export async function cleanUpDeletedProject(data: CleanupData): Promise<void> {
  let retry: ProviderError | null = null;
  const attempt = async (what: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      console.warn(`[projects] removing ${what} of ${data.name}: ${error.message}`);
      if (error.retryable) retry = error;
    }
  };
  for (const site of data.sites) {
    await attempt(`${site.provider} site ${site.siteId}`, () =>
      hostingProvider(site.provider).deleteSite(site.siteId),
    );
  }
  if (data.studioProjectId) {
    const studio = data.studioProjectId;
    await attempt(`studio ${studio}`, () => contentStudioProvider().deleteStudio(studio));
  }
  if (retry) throw retry;
}

export const projectDeletionJobs: JobDefinition[] = [
  {
    name: PROJECT_CLEANUP_JOB,
    handler: async (data) => cleanUpDeletedProject(data as unknown as CleanupData),
  },
];
