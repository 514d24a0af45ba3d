/**
 * Members, invitations and roles: the Members table, the invite form, the invitation card, and
 * the members API.
 *
 * A member row goes invited -> accepted (accept) and is deleted when revoked, removed or when the
 * member leaves. Every change writes its activity-log event in the same transaction; e-mails and
 * their mail jobs are recorded in that transaction too, and so is the job of the content studio
 * invitation that follows an acceptance, and the job that brings the studio in line after a
 * removal, a departure or a role change (studio-access.server.ts).
 *
 * This module holds the Members table, revoke / remove / leave / role and what the member
 * modules share; invitations are in member-invitations.server.ts (invite, resend),
 * invitation-answers.server.ts (the card, accept, decline) and member-studio-job.server.ts.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { members, type projects, users } from "~/db/schema";
import { type User } from "~/services/accounts/index.server";
import { queueStudioSync } from "~/services/studio/index.server";
import { logEvent } from "~/services/activity/index.server";
import { emitProjectEvent } from "~/services/events/index.server";
import { ConflictError, ForbiddenError, NotFoundError } from "~/services/core";
import type { RemoveMemberInput } from "./members-api.schema";
import { INVITATION_TTL_DAYS, ROLE_LABEL, type MemberRole } from "./members.schema";
import {
  can,
  ProjectNotFoundError,
  projectForAction,
  withProjectAction,
} from "~/services/permissions/index.server";

export type ProjectRow = typeof projects.$inferSelect;
export type MemberRow = typeof members.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Who may do what is permissions.server.ts's answer ("members.add", "members.remove",
// "members.change-role", "members.view-all", "members.leave"), read fresh in the change's
// transaction, so a role change or removal applies on the very next request.

export async function ownerOf(tx: Queryable, project: ProjectRow) {
  const [owner] = await tx
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, project.ownerId));
  return owner;
}

/** 32 random bytes, base64url (43 characters): the credential in the invitation link. */
export function newInvitationKey(): string {
  return randomBytes(32).toString("base64url");
}

export const expiresIn = () => sql`now() + make_interval(days => ${INVITATION_TTL_DAYS})`;

export function invitationPath(key: string) {
  // Keys are base64url, so this changes nothing for a real one; a forged key with other
  // characters must not reach the Location header raw.
  return `/invitations/${encodeURIComponent(key)}`;
}

const displayName = (name: string | null | undefined) => name?.trim() || "Guest";

// ---------------------------------------------------------------------------------------------
// The member table

export type DisplayedMember = {
  /** The member row's id; the owner's row carries the owner's user id. */
  id: string;
  name: string;
  email: string;
  status: "invited" | "accepted";
  role: MemberRole | "owner";
  roleLabel: string;
  isOwner: boolean;
  isSelf: boolean;
  /** An invitation past its 7 days (it can be resent). */
  expired: boolean;
  /** Only while invited, and only for those who manage members: the key accepts the invitation. */
  memberInvitationKey: string | null;
};

export type MembersView = {
  /** Owner, member admins and platform admins: everyone, with the actions. */
  canManage: boolean;
  /** The viewer may leave (accepted members; never the owner). */
  canLeave: boolean;
  members: DisplayedMember[];
  /** Rows the table has in all; more than `members.length` when a limit cut the list. */
  total: number;
  /** Addresses the invite form must refuse (already invited, a member, or the owner). */
  takenEmails: string[];
};

/** The dashboard's Members table shows this many rows until 'Show all members'. */
export const MEMBERS_PAGE_SIZE = 20;

/**
 * The Members table: owner, member admins and platform admins see
 * everyone; a plain member sees only their own row.
 */
export async function listMembers(
  user: User,
  studioId: string,
  { limit }: { limit?: number } = {},
): Promise<MembersView> {
  const { project, actor } = await projectForAction(user, studioId, "project.view");
  const canManage = can(actor, "members.view-all");
  const rows = await db()
    .select({ member: members, userName: users.name })
    .from(members)
    .leftJoin(users, eq(users.id, members.userId))
    .where(eq(members.projectId, project.id))
    .orderBy(asc(members.createdAt), asc(members.id));
  const owner = await ownerOf(db(), project);
  const now = Date.now();

  const list: DisplayedMember[] = [];
  if (canManage && owner) {
    list.push({
      id: owner.id,
      name: displayName(owner.name),
      email: owner.email,
      status: "accepted",
      role: "owner",
      roleLabel: ROLE_LABEL.owner,
      isOwner: true,
      isSelf: owner.id === user.id,
      expired: false,
      memberInvitationKey: null,
    });
  }
  for (const { member, userName } of rows) {
    const isSelf = member.userId === user.id && member.status === "accepted";
    if (!canManage && !isSelf) continue;
    const invited = member.status === "invited";
    list.push({
      id: member.id,
      name: displayName(userName),
      email: member.invitedEmail,
      status: member.status,
      role: member.role ?? "editor",
      roleLabel: ROLE_LABEL[member.role ?? "editor"],
      isOwner: false,
      isSelf,
      expired: invited && (member.invitationExpiresAt?.getTime() ?? Infinity) <= now,
      memberInvitationKey: invited && canManage ? member.invitationKey : null,
    });
  }
  return {
    canManage,
    canLeave: can(actor, "members.leave"),
    // The rows are cheap to read; what costs is rendering a form per control of each (a project
    // with many members renders the first page, then all on request).
    members: limit === undefined ? list : list.slice(0, limit),
    total: list.length,
    takenEmails: canManage
      ? [...(owner ? [owner.email] : []), ...rows.map((r) => r.member.invitedEmail)]
      : [],
  };
}

// ---------------------------------------------------------------------------------------------
// Revoke, remove, leave, role

/**
 * DELETE /api/app/members and the table's Revoke / Remove: an invited member's invitation is
 * revoked (members.invitation.revoked), an accepted member removed (members.removed). The owner
 * cannot be removed, and nobody removes themselves (that is Leave). Access ends on the very next
 * request.
 */
export async function removeMember(
  user: User,
  input: RemoveMemberInput,
): Promise<{ outcome: "revoked" | "removed"; email: string }> {
  return withProjectAction(user, input.studioId, "members.remove", async ({ project, tx }) => {
    const owner = await ownerOf(tx, project);
    if (input.memberId === project.ownerId || (owner && input.memberEmail === owner.email)) {
      throw new ForbiddenError("The project owner cannot be removed");
    }
    const [row] = await tx
      .select()
      .from(members)
      .where(
        and(
          eq(members.projectId, project.id),
          input.memberId
            ? eq(members.id, input.memberId)
            : eq(members.invitedEmail, input.memberEmail!),
        ),
      )
      .for("update");
    if (!row) throw new NotFoundError("Member not found");
    if (input.memberEmail && input.memberEmail !== row.invitedEmail) {
      throw new ConflictError("memberEmail does not match this member");
    }
    // Leaving is its own action (and event): nobody removes themselves.
    if (row.status === "accepted" && row.userId === user.id) {
      throw new ForbiddenError("You cannot remove yourself: leave the project instead");
    }
    if (input.memberInvitationKey && input.memberInvitationKey !== row.invitationKey) {
      throw new ConflictError(
        "This invitation changed meanwhile (resent or accepted). Reload and try again.",
      );
    }
    await tx.delete(members).where(eq(members.id, row.id));
    // The content studio follows (an invitation too: a studio invitation may be pending).
    await queueStudioSync(tx, { projectId: project.id, email: row.invitedEmail });
    const revoked = row.status === "invited";
    await logEvent(tx, {
      projectId: project.id,
      type: revoked ? "members.invitation.revoked" : "members.removed",
      content: revoked
        ? `${user.name} revoked the invitation of ${row.invitedEmail}`
        : `${user.name} removed ${row.invitedEmail}`,
      label: revoked ? "Invitation revoked" : "Member removed",
      metadata: { role: row.role, email: row.invitedEmail },
      actorId: user.id,
    });
    if (!revoked) {
      await emitProjectEvent(tx, {
        projectId: project.id,
        type: "member.removed",
        payload: { memberId: row.id, email: row.invitedEmail, role: row.role },
      });
    }
    return { outcome: revoked ? "revoked" : "removed", email: row.invitedEmail };
  });
}

/** Leave (PATCH {studioId, action: leave}): an accepted member leaves; the owner cannot. */
export async function leaveProject(user: User, studioId: string): Promise<{ projectName: string }> {
  return withProjectAction(user, studioId, "members.leave", async ({ project, tx }) => {
    const [row] = await tx
      .delete(members)
      .where(
        and(
          eq(members.projectId, project.id),
          eq(members.userId, user.id),
          eq(members.status, "accepted"),
        ),
      )
      .returning();
    if (!row) throw new ProjectNotFoundError();
    await queueStudioSync(tx, { projectId: project.id, email: row.invitedEmail });
    await logEvent(tx, {
      projectId: project.id,
      type: "members.leaved",
      content: `${user.name} left the project`,
      label: "Member left",
      metadata: { role: row.role, email: row.invitedEmail },
      actorId: user.id,
    });
    await emitProjectEvent(tx, {
      projectId: project.id,
      type: "member.left",
      payload: { memberId: row.id, email: row.invitedEmail, role: row.role },
    });
    return { projectName: project.name };
  });
}

/**
 * Change a member's role (PATCH {studioId, action: "role", memberId, role}): owner, member admins
 * and platform admins; logged as members.role.changed. It applies from the very next request.
 */
export async function changeMemberRole(
  user: User,
  input: { studioId: string; memberId: string; role: MemberRole },
): Promise<{ changed: boolean; email: string; role: MemberRole }> {
  return withProjectAction(user, input.studioId, "members.change-role", async ({ project, tx }) => {
    if (input.memberId === project.ownerId) {
      throw new ForbiddenError("The project owner's role cannot be changed");
    }
    const [row] = await tx
      .select()
      .from(members)
      .where(and(eq(members.id, input.memberId), eq(members.projectId, project.id)))
      .for("update");
    if (!row) throw new NotFoundError("Member not found");
    if (row.role === input.role) return { changed: false, email: row.invitedEmail, role: row.role };
    await tx
      .update(members)
      .set({ role: input.role, updatedAt: new Date() })
      .where(eq(members.id, row.id));
    // An accepted member's studio role follows; an invitee has none yet.
    if (row.status === "accepted") {
      await queueStudioSync(tx, { projectId: project.id, email: row.invitedEmail });
    }
    await logEvent(tx, {
      projectId: project.id,
      type: "members.role.changed",
      content: `${user.name} changed the role of ${row.invitedEmail} from ${ROLE_LABEL[row.role]} to ${ROLE_LABEL[input.role]}`,
      label: "Role changed",
      metadata: { role: input.role, email: row.invitedEmail },
      actorId: user.id,
    });
    await emitProjectEvent(tx, {
      projectId: project.id,
      type: "member.roleChanged",
      payload: {
        memberId: row.id,
        email: row.invitedEmail,
        role: input.role,
        previousRole: row.role,
      },
    });
    return { changed: true, email: row.invitedEmail, role: input.role };
  });
}
