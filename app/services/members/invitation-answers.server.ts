/** Answering an invitation: by its mailed key (the invitation card) or, signed in, from /sites and the project's dashboard. */
import { and, asc, desc, eq, gt, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { db, type Queryable, type Tx } from "~/db/client.server";
import { members, projects, users } from "~/db/schema";
import { RETRY, sendJob } from "~/jobs/queue.server";
import { type User } from "~/services/accounts/index.server";
import { logEvent } from "~/services/activity/index.server";
import { emitProjectEvent } from "~/services/events/index.server";
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from "~/services/core";
import { INVITATION_KEY_PATTERN } from "./members-api.schema";
import { ROLE_LABEL, type MemberRole } from "./members.schema";
import {
  projectForAction,
  tokenReaches,
  withProjectAction,
  ProjectNotFoundError,
} from "~/services/permissions/index.server";
import { invitationsAddressedTo } from "~/services/permissions/index.server";
import { findProjectRow } from "~/services/projects/index.server";
import { MEMBER_STUDIO_INVITE_JOB } from "./member-studio-job.server";
import { type MemberRow } from "./members.server";

// ---------------------------------------------------------------------------------------------
// The invitation card

export type InvitationView =
  | {
      state: "valid";
      key: string;
      studioId: string;
      projectName: string;
      role: MemberRole;
      roleLabel: string;
      invitedEmail: string;
      invitedBy: string | null;
      expiresAt: string;
      /** The invited e-mail has an account: no new password is needed. */
      accountExists: boolean;
      /** Who is looking: nobody signed in, the invitee, or someone else. */
      viewer: "anonymous" | "invitee" | "other";
    }
  | { state: "expired"; projectName: string; invitedEmail: string }
  | { state: "invalid" };

/**
 * What /invitations/{key} shows. Unknown, revoked, already used and malformed keys are "invalid";
 * keys past their 7 days "expired". The key is the credential: whoever holds it sees the project
 * name and role, nothing else.
 */
export async function getInvitation(key: string, viewer: User | null): Promise<InvitationView> {
  if (!INVITATION_KEY_PATTERN.test(key)) return { state: "invalid" };
  const [row] = await db()
    .select({
      member: members,
      projectName: projects.name,
      studioId: projects.studioId,
      inviterName: users.name,
      expired: sql<boolean>`${members.invitationExpiresAt} <= now()`,
    })
    .from(members)
    .innerJoin(projects, eq(projects.id, members.projectId))
    .leftJoin(users, eq(users.id, members.invitedBy))
    .where(and(eq(members.invitationKey, key), eq(members.status, "invited")))
    .limit(1);
  if (!row) return { state: "invalid" };
  const { member } = row;
  if (row.expired) {
    return { state: "expired", projectName: row.projectName, invitedEmail: member.invitedEmail };
  }
  const [account] = await db()
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, member.invitedEmail));
  return {
    state: "valid",
    key,
    studioId: row.studioId,
    projectName: row.projectName,
    role: member.role,
    roleLabel: ROLE_LABEL[member.role],
    invitedEmail: member.invitedEmail,
    invitedBy: row.inviterName ?? null,
    expiresAt: (member.invitationExpiresAt ?? new Date()).toISOString(),
    accountExists: Boolean(account),
    viewer: !viewer
      ? "anonymous"
      : viewer.email.toLowerCase() === member.invitedEmail
        ? "invitee"
        : "other",
  };
}

export type AcceptOutcome = { studioId: string; projectName: string; memberId: string };

/** Why an invitation cannot be answered, shared by the key and the project paths. */
const INVITATION_ERRORS = {
  gone: () =>
    new NotFoundError(
      "This invitation is no longer valid: it was revoked, resent or already accepted",
    ),
  expired: () =>
    new InvalidError("This invitation has expired. Ask the project admin to resend it."),
  changed: () => new ConflictError("This invitation changed meanwhile. Try again."),
};

/** Why a key cannot be accepted by this user, for a clear message (nothing was changed). */
async function whyNotAcceptable(tx: Queryable, user: User, key: string, projectId: string | null) {
  const [row] = await tx
    .select({
      email: members.invitedEmail,
      projectId: members.projectId,
      expired: sql<boolean>`${members.invitationExpiresAt} <= now()`,
    })
    .from(members)
    .where(and(eq(members.invitationKey, key), eq(members.status, "invited")))
    .limit(1);
  if (!row || (projectId && row.projectId !== projectId)) {
    return INVITATION_ERRORS.gone();
  }
  // A token limited to other projects does not see this one: the answer its list gives elsewhere.
  if (!tokenReaches(user, row.projectId)) {
    return new ProjectNotFoundError();
  }
  if (row.email !== user.email.toLowerCase()) {
    return new ForbiddenError(
      "This invitation was sent to another email address. Log in with that address to accept it.",
    );
  }
  if (row.expired) {
    return INVITATION_ERRORS.expired();
  }
  return INVITATION_ERRORS.changed();
}

/**
 * Accept (PATCH /api/app/members {action: accept} and the card's form): only the account whose
 * e-mail was invited, once. One conditional UPDATE ... WHERE status = 'invited' AND key = $key
 * decides, so concurrent accepts make one membership. After commit the member is invited to the
 * project's content studio by a job.
 */
export async function acceptInvitation(
  user: User,
  input: { memberInvitationKey: string; studioId?: string; email?: string },
): Promise<AcceptOutcome> {
  const address = user.email.toLowerCase();
  if (input.email && input.email.trim().toLowerCase() !== address) {
    throw new ForbiddenError(
      "This invitation was sent to another email address. Log in with that address to accept it.",
    );
  }
  const key = input.memberInvitationKey;
  if (!INVITATION_KEY_PATTERN.test(key)) {
    throw new NotFoundError("This invitation is no longer valid");
  }
  let projectId: string | null = null;
  if (input.studioId) {
    const project = await findProjectRow(db(), input.studioId);
    if (!project) throw new NotFoundError("This invitation is no longer valid");
    if (!tokenReaches(user, project.id)) throw new ProjectNotFoundError();
    projectId = project.id;
  }

  const accepted = await db().transaction(async (tx) => {
    const [row] = await tx
      .update(members)
      .set(acceptedColumns(user))
      .where(
        and(
          eq(members.invitationKey, key),
          eq(members.status, "invited"),
          eq(members.invitedEmail, address),
          gt(members.invitationExpiresAt, sql`now()`),
          projectId ? eq(members.projectId, projectId) : undefined,
          reachableProjects(user),
        ),
      )
      .returning();
    return row ? logAcceptance(tx, user, row) : null;
  });
  if (!accepted) throw await whyNotAcceptable(db(), user, key, projectId);
  return accepted;
}

/**
 * A key names its project by itself, so the key paths ask the token's project list in their
 * UPDATE or DELETE (permissions.server.ts's `tokenReaches`, as SQL): a token limited to chosen
 * projects answers no invitation to another (decision 029). Nothing for a session.
 */
function reachableProjects(user: User) {
  const limitedTo = user.apiToken?.projectIds;
  return limitedTo ? inArray(members.projectId, limitedTo) : undefined;
}

/** The columns an acceptance sets on the invited row (the key is spent). */
const acceptedColumns = (user: User) => ({
  status: "accepted" as const,
  userId: user.id,
  acceptedAt: new Date(),
  invitationKey: null,
  invitationExpiresAt: null,
  updatedAt: new Date(),
});

/**
 * members.invitation.accepted for the row just accepted, and the job that invites the member to
 * the content studio, both in the acceptance's transaction: the job exists exactly when the
 * acceptance commits (a crash right after the commit does not lose it).
 */
async function logAcceptance(tx: Tx, user: User, row: MemberRow): Promise<AcceptOutcome> {
  const [project] = await tx.select().from(projects).where(eq(projects.id, row.projectId));
  await logEvent(tx, {
    projectId: row.projectId,
    type: "members.invitation.accepted",
    content: `${user.name} accepted the invitation as ${ROLE_LABEL[row.role]}`,
    label: "Invitation accepted",
    metadata: { role: row.role, email: row.invitedEmail },
    actorId: user.id,
  });
  await emitProjectEvent(tx, {
    projectId: row.projectId,
    type: "member.joined",
    payload: { memberId: row.id, email: row.invitedEmail, role: row.role },
  });
  await sendJob(MEMBER_STUDIO_INVITE_JOB, { memberId: row.id }, RETRY, tx);
  return { studioId: project.studioId, projectName: project.name, memberId: row.id };
}

/** members.invitation.declined for the row just deleted by its invitee. */
async function logDecline(tx: Queryable, user: User, row: MemberRow) {
  const [project] = await tx.select().from(projects).where(eq(projects.id, row.projectId));
  await logEvent(tx, {
    projectId: row.projectId,
    type: "members.invitation.declined",
    content: `${user.name} declined the invitation`,
    label: "Invitation declined",
    metadata: { role: row.role, email: row.invitedEmail },
    actorId: user.id,
  });
  return { projectName: project.name, studioId: project.studioId };
}

/**
 * Ignore on the card, signed in as the invitee: the invitation is withdrawn by its invitee and
 * logged as members.invitation.declined.
 */
export async function declineInvitation(user: User, key: string): Promise<{ projectName: string }> {
  if (!INVITATION_KEY_PATTERN.test(key))
    throw new NotFoundError("This invitation is no longer valid");
  const address = user.email.toLowerCase();
  return db().transaction(async (tx) => {
    const [row] = await tx
      .delete(members)
      .where(
        and(
          eq(members.invitationKey, key),
          eq(members.status, "invited"),
          eq(members.invitedEmail, address),
          reachableProjects(user),
        ),
      )
      .returning();
    // In the transaction: PGlite has one connection, a query beside it would wait forever.
    if (!row) throw await whyNotAcceptable(tx, user, key, null);
    const { projectName } = await logDecline(tx, user, row);
    return { projectName };
  });
}

// ---------------------------------------------------------------------------------------------
// Invitations inside the product: /sites lists the signed-in user's pending
// invitations and a project's dashboard shows its card to the invitee. Both answer by project,
// without the key: the session proves who is answering, and permissions.server.ts decides that
// they are the invited actor ("invitation.respond": matched by account or by e-mail).

/** Not expired (a row recorded without an expiry never expires, as in the Members table). */
const stillValid = () =>
  or(isNull(members.invitationExpiresAt), gt(members.invitationExpiresAt, sql`now()`));

/** At most this many on /sites; more pending invitations than that is not a real case. */
export const PENDING_INVITATIONS_LIMIT = 50;

export type PendingInvitation = {
  studioId: string;
  projectName: string;
  role: MemberRole;
  roleLabel: string;
  invitedBy: string | null;
  expiresAt: string | null;
};

/** The user's pending, unexpired invitations, the most recently sent first (/sites). */
export async function listPendingInvitations(user: User): Promise<PendingInvitation[]> {
  const rows = await db()
    .select({
      studioId: projects.studioId,
      projectName: projects.name,
      role: members.role,
      invitedBy: users.name,
      expiresAt: members.invitationExpiresAt,
    })
    .from(members)
    .innerJoin(projects, eq(projects.id, members.projectId))
    .leftJoin(users, eq(users.id, members.invitedBy))
    .where(and(invitationsAddressedTo(user), stillValid(), ne(projects.ownerId, user.id)))
    .orderBy(desc(members.updatedAt), asc(members.id))
    .limit(PENDING_INVITATIONS_LIMIT);
  return rows.map((row) => ({
    ...row,
    roleLabel: ROLE_LABEL[row.role],
    invitedBy: row.invitedBy ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  }));
}

/**
 * The user entity's `isMemberInvited`: whether an invitation to someone else's project waits for
 * the user (pending and unexpired, the same as /sites lists).
 */
export async function hasPendingInvitations(user: User): Promise<boolean> {
  const [row] = await db()
    .select({ id: members.id })
    .from(members)
    .innerJoin(projects, eq(projects.id, members.projectId))
    .where(and(invitationsAddressedTo(user), stillValid(), ne(projects.ownerId, user.id)))
    .limit(1);
  return row !== undefined;
}

/** The invitation card on a project's dashboard: what /invitations/{key} shows, minus the key. */
export type ProjectInvitationView =
  | Omit<Extract<InvitationView, { state: "valid" }>, "key">
  | Extract<InvitationView, { state: "expired" }>;

/**
 * The card for `user` on this project when they are its invitee (expired invitations too, so
 * they learn to ask for a new one); null for everyone else, who gets the dashboard or a 404.
 */
export async function getProjectInvitation(
  user: User,
  studioId: string,
): Promise<ProjectInvitationView | null> {
  // Asked only after the project read as hidden: the page view's reads again, no extra query.
  const allowed = await projectForAction(user, studioId, "invitation.respond", {
    mode: "check",
  }).catch((error: unknown) => {
    if (error instanceof ProjectNotFoundError || error instanceof ForbiddenError) return null;
    throw error;
  });
  const membership = allowed?.actor.membership;
  if (!allowed || !membership) return null;
  const { project } = allowed;
  const [row] = await db()
    .select({
      member: members,
      inviterName: users.name,
      expired: sql<boolean>`coalesce(${members.invitationExpiresAt} <= now(), false)`,
    })
    .from(members)
    .leftJoin(users, eq(users.id, members.invitedBy))
    .where(and(eq(members.id, membership.id), eq(members.status, "invited")));
  if (!row) return null;
  const { member } = row;
  if (row.expired) {
    return { state: "expired", projectName: project.name, invitedEmail: member.invitedEmail };
  }
  return {
    state: "valid",
    studioId: project.studioId,
    projectName: project.name,
    role: member.role,
    roleLabel: ROLE_LABEL[member.role],
    invitedEmail: member.invitedEmail,
    invitedBy: row.inviterName ?? null,
    expiresAt: (member.invitationExpiresAt ?? new Date()).toISOString(),
    // Signed in: the invitee has an account, whatever the address.
    accountExists: true,
    viewer: "invitee",
  };
}

/** Why the invited row could not be answered (nothing was changed). */
async function whyNotAnswerable(tx: Queryable, memberId: string) {
  const [row] = await tx
    .select({ expired: sql<boolean>`${members.invitationExpiresAt} <= now()` })
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.status, "invited")));
  if (!row) {
    return INVITATION_ERRORS.gone();
  }
  if (row.expired) {
    return INVITATION_ERRORS.expired();
  }
  return INVITATION_ERRORS.changed();
}

/**
 * Accept from /sites or the dashboard's card: the signed-in user's invitation to this project.
 * ProjectNotFoundError when the project is hidden from them and they hold no invitation to it;
 * ForbiddenError for members and the owner. One conditional UPDATE decides, as for the key.
 */
export async function acceptProjectInvitation(
  user: User,
  studioId: string,
): Promise<AcceptOutcome> {
  const accepted = await withProjectAction(
    user,
    studioId,
    "invitation.respond",
    async ({ actor, tx }) => {
      const memberId = actor.membership!.id;
      const [row] = await tx
        .update(members)
        .set(acceptedColumns(user))
        .where(and(eq(members.id, memberId), invitationsAddressedTo(user), stillValid()))
        .returning();
      // In the transaction: PGlite has one connection, a query beside it would wait forever.
      if (!row) throw await whyNotAnswerable(tx, memberId);
      return logAcceptance(tx, user, row);
    },
  );
  return accepted;
}

/** Decline from /sites or the dashboard's card (expired invitations can be declined too). */
export async function declineProjectInvitation(
  user: User,
  studioId: string,
): Promise<{ projectName: string; studioId: string }> {
  return withProjectAction(user, studioId, "invitation.respond", async ({ actor, tx }) => {
    const memberId = actor.membership!.id;
    const [row] = await tx
      .delete(members)
      .where(and(eq(members.id, memberId), invitationsAddressedTo(user)))
      .returning();
    if (!row) throw await whyNotAnswerable(tx, memberId);
    return logDecline(tx, user, row);
  });
}
