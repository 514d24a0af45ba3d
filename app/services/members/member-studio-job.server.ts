/**
 * The content studio invitation after an acceptance: a job, so a slow or failing provider never
 * holds up the request, and pg-boss retries what is retryable.
 */
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { members, projects } from "~/db/schema";
import type { JobDefinition } from "~/jobs/types";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { ProviderError } from "~/providers/errors";
import { STUDIO_ROLE } from "~/services/studio/index.server";
import { UUID } from "~/utils/uuid";
import { log } from "~/utils/logger.server";

export const MEMBER_STUDIO_INVITE_JOB = "members.studio-invite";

/**
 * Invites an accepted member to the project's content studio, once: a member already invited
 * there (or who left meanwhile) needs nothing. A studio not provisioned yet is skipped; the
 * member can ask for it later with Resend Invitation on the dashboard.
 */
export async function inviteMemberToStudio(memberId: string): Promise<"invited" | "skipped"> {
  if (!UUID.test(memberId)) return "skipped";
  const [row] = await db()
    .select({
      email: members.invitedEmail,
      role: members.role,
      status: members.status,
      studio: projects.studioSanityId,
    })
    .from(members)
    .innerJoin(projects, eq(projects.id, members.projectId))
    .where(eq(members.id, memberId));
  if (!row || row.status !== "accepted" || !row.studio) return "skipped";
  const provider = contentStudioProvider();
  try {
    if ((await provider.invitationStatus(row.studio, row.email)) !== "none") return "skipped";
    await provider.inviteMember(row.studio, { email: row.email, role: STUDIO_ROLE[row.role] });
    return "invited";
  } catch (error) {
    if (error instanceof ProviderError && !error.retryable) {
      log().warn(
        { area: "members", email: row.email, reason: error.message },
        "studio invitation refused",
      );
      return "skipped";
    }
    throw error; // retried by pg-boss
  }
}

export const memberJobs: JobDefinition[] = [
  {
    name: MEMBER_STUDIO_INVITE_JOB,
    handler: async (data) => {
      await inviteMemberToStudio(typeof data.memberId === "string" ? data.memberId : "");
    },
  },
];
