/**
 * Deleting a project: the owner (or a platform admin) confirms by typing its name; the project
 * and everything of it in our database go in one transaction, so it leaves every list at once,
 * and a job removes its hosted sites and content studio at the providers, retrying while they
 * cannot be reached (the job is sent in the same transaction: it exists exactly when the delete
 * commits). The same transaction records each site and studio as a pending external deletion
 * (external-deletions.server.ts): what the job cannot delete, even past its retries, stays
 * pending and is tried again by the scheduled retry until its provider confirms.
 *
 * Every deletion leaves a row in the audit log (audit-log.server.ts), which outlives the project.
 * A platform admin deleting a project they do not own also mails its owner and admins, through
 * the outbox in the deletion's transaction: the customer learns of it from us, not from a
 * missing site.
 */
import { and, eq, or } from "drizzle-orm";
import { type Queryable } from "~/db/client.server";
import { members, projects, projectSites, users } from "~/db/schema";
import { sendJob } from "~/jobs/queue.server";
import type { JobDefinition } from "~/jobs/types";
import { ProviderError } from "~/providers/errors";
import type { HostingProviderName } from "~/providers/hosting/types";
import type { User } from "~/services/accounts/index.server";
import { appendAudit } from "~/services/activity/index.server";
import { emitProjectEvent } from "~/services/events/index.server";
import { InvalidError } from "~/services/core";
import { attemptDeletion, recordExternalDeletions } from "./external-deletions.server";
import { dispatchMail, queueMail } from "~/services/core/index.server";
import { withProjectAction } from "~/services/permissions/index.server";
import { log } from "~/utils/logger.server";

export const PROJECT_CLEANUP_JOB = "project.cleanup";

type CleanupData = {
  name: string;
  studioProjectId: string | null;
  sites: { provider: HostingProviderName; siteId: string }[];
};

const NAME_MISMATCH = "Type the project's name exactly to delete it";

/** The owner and the accepted member admins of a project: who hears of its deletion. */
/** The owner and the accepted admin members (their accounts), who are told of what concerns the project. */
export async function ownerAndAdmins(tx: Queryable, projectId: string, ownerId: string) {
  const rows = await tx
    .selectDistinct({ id: users.id, email: users.email })
    .from(users)
    .leftJoin(
      members,
      and(
        eq(members.userId, users.id),
        eq(members.projectId, projectId),
        eq(members.status, "accepted"),
        eq(members.role, "admin"),
      ),
    )
    .where(or(eq(users.id, ownerId), eq(members.projectId, projectId)));
  return rows;
}

function deletionMail(to: string, projectName: string, by: User) {
  return {
    to,
    subject: `Your project ${projectName} was deleted`,
    text: [
      "Hello,",
      "",
      `${by.name || by.email} (${by.email}) of the StackShift support team deleted the project ${projectName}, with its website and content studio.`,
      "",
      "The owner finds this in their User Settings, under 'Support on deleted projects'. If you did not ask for it, reply to this email or open a support ticket.",
      "",
      "The StackShift team",
    ].join("\n"),
  };
}

export async function deleteProject(
  user: User,
  studioId: string,
  typedName: string,
): Promise<{ name: string }> {
  const { name, mailIds } = await withProjectAction(
    user,
    studioId,
    "project.delete",
    async ({ project, tx }) => {
      const [row] = await tx
        .select()
        .from(projects)
        .where(eq(projects.id, project.id))
        .for("update");
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
      // A platform admin deleting someone else's project (support, or a member using the
      // platform-admin right): the owner and admins are told.
      const byPlatformAdmin = user.isAdmin && row.ownerId !== user.id;
      const told = byPlatformAdmin
        ? (await ownerAndAdmins(tx, row.id, row.ownerId)).filter((p) => p.id !== user.id)
        : [];
      const [owner] = await tx
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, row.ownerId));
      await appendAudit(tx, {
        action: "project.deleted",
        actor: user,
        project: { id: row.id, name: row.name, ownerId: row.ownerId },
        details: {
          studioId: row.studioId,
          name: user.name,
          byPlatformAdmin,
          ownerEmail: owner?.email ?? null,
          mailedTo: told.map((p) => p.email.toLowerCase()).sort(),
        },
      });
      const mailIds: string[] = [];
      for (const person of told) {
        mailIds.push(await queueMail(tx, deletionMail(person.email, row.name, user)));
      }
      // Before the row goes: the event names the project as it was.
      await emitProjectEvent(tx, { projectId: row.id, type: "project.deleted", payload: {} });
      await tx.delete(projects).where(eq(projects.id, row.id));
      await recordExternalDeletions(tx, {
        projectName: row.name,
        studio: data.studioProjectId,
        sites: data.sites,
      });
      await sendJob(
        PROJECT_CLEANUP_JOB,
        data,
        { retryLimit: 10, retryDelay: 30, retryBackoff: true },
        tx,
      );
      log().info({ area: "projects", studioId: row.studioId, name: row.name }, "project deleted");
      return { name: row.name, mailIds };
    },
  );
  await dispatchMail(mailIds);
  return { name };
}

/**
 * The job: deletes each site and the studio (each delete is idempotent, so a retry after a
 * partial run repeats nothing harmful). Each one done clears its pending deletion; each failure
 * is recorded on it (external-deletions.server.ts), so the scheduled retry takes over whatever
 * this job leaves. One that cannot be reached fails the job, which pg-boss retries with backoff;
 * a refusal (401, 403) is left to the scheduled retry alone.
 */
export async function cleanUpDeletedProject(data: CleanupData): Promise<void> {
  let retry: ProviderError | null = null;
  const items = [
    ...data.sites.map((s) => ({ target: s.provider, resourceId: s.siteId })),
    ...(data.studioProjectId
      ? [{ target: "studio" as const, resourceId: data.studioProjectId }]
      : []),
  ];
  for (const item of items) {
    const outcome = await attemptDeletion({ ...item, projectName: data.name });
    if (outcome instanceof ProviderError && outcome.retryable) retry = outcome;
  }
  if (retry) throw retry;
}

export const projectDeletionJobs: JobDefinition[] = [
  {
    name: PROJECT_CLEANUP_JOB,
    handler: async (data) => cleanUpDeletedProject(data as unknown as CleanupData),
  },
];
