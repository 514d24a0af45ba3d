/**
 * GET /api/app/{id}: the full project entity with its members[], eventLogs[] and
 * integrations[], each filtered by what the caller may see, exactly as the dashboard shows them.
 */
import { asc, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { members, users } from "~/db/schema";
import type { User } from "./accounts.server";
import { EVENT_LOG_PAGE, listActivityPage, type ActivityEntry } from "./activity-log.server";
import { can, requireProjectAction } from "./permissions.server";
import { getProject, type Project } from "./projects.server";

/** A member. `invitationKey` only while invited, and only for those who manage members. */
export type MemberEntity = {
  user: { _id: string; name: string; email: string; status: "invited" | "accepted" } | null;
  invitedEmail: string;
  role: "editor" | "developer" | "admin";
  status: "invited" | "accepted";
  invitationKey: string | null;
};

/** An integration; none exist until the integrations area lands. */
export type IntegrationEntity = { id: string; name: string; predefined: boolean };

export type ProjectEntity = Project & {
  members: MemberEntity[];
  eventLogs: ActivityEntry[];
  /** Fetches the older entries: GET /api/app/{id}?eventLogsCursor={this}. */
  eventLogsNextCursor: string | null;
  integrations: IntegrationEntity[];
};

export async function getProjectEntity(
  user: User,
  id: string,
  opts: { eventLogsCursor?: string } = {},
): Promise<ProjectEntity> {
  const project = await getProject(user, id);
  const actor = await requireProjectAction(user, project._id, "project.view");
  const manages = can(actor, "members.view-all");
  const rows = await db()
    .select({ member: members, account: users })
    .from(members)
    .leftJoin(users, eq(users.id, members.userId))
    .where(eq(members.projectId, project._id))
    .orderBy(asc(members.createdAt), asc(members.id));
  const visible = rows.filter(
    // A plain member sees only their own entry, as on the page.
    ({ member }) => manages || (member.userId === user.id && member.status === "accepted"),
  );
  const events = can(actor, "activity.view")
    ? await listActivityPage(user, project._id, {
        cursor: opts.eventLogsCursor,
        limit: EVENT_LOG_PAGE,
      })
    : { entries: [], nextCursor: null };
  return {
    ...project,
    members: visible.map(({ member, account }) => ({
      user: account
        ? { _id: account.id, name: account.name, email: account.email, status: member.status }
        : null,
      invitedEmail: member.invitedEmail,
      role: member.role ?? "editor",
      status: member.status,
      invitationKey: manages && member.status === "invited" ? member.invitationKey : null,
    })),
    eventLogs: events.entries,
    eventLogsNextCursor: events.nextCursor,
    integrations: [],
  };
}
