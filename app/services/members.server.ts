/**
 * Members, invitations and roles: the Members table, the invite form, the invitation card, and
 * the members API.
 *
 * A member row goes invited -> accepted (accept) and is deleted when revoked, removed or when the
 * member leaves. Every change writes its activity-log event in the same transaction; e-mails and
 * their mail jobs are recorded in that transaction too, and so is the job of the content studio
 * invitation that follows an acceptance, and the job that brings the studio in line after a
 * removal, a departure or a role change (studio-access.server.ts).
 */
import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, gt, isNull, ne, or, sql } from "drizzle-orm";
import { db, type Queryable, type Tx } from "~/db/client.server";
import { members, projects, users } from "~/db/schema";
import { RETRY, sendJob } from "~/jobs/queue.server";
import type { JobDefinition } from "~/jobs/types";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { ProviderError } from "~/providers/errors";
import { isPlatformAdmin, type User } from "./accounts.server";
import { consume, POLICIES } from "./rate-limit.server";
import { queueStudioSync, STUDIO_ROLE } from "./studio-access.server";
import { logEvent } from "./activity.server";
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from "./errors";
import { addressProof } from "./address-proof.server";
import { absoluteUrl, dispatchMail, queueMail } from "./mail.server";
import {
  DUPLICATE_MEMBER_MESSAGE,
  INVITATION_KEY_PATTERN,
  INVITATION_TTL_DAYS,
  ROLE_LABEL,
  type InviteMemberInput,
  type MemberRole,
  type RemoveMemberInput,
} from "./members.schema";
import {
  actorForProject,
  authorizeOn,
  can,
  findProjectRow,
  projectRowFor,
  invitationsAddressedTo,
  isSupport,
  type Action,
  type Actor,
} from "./permissions.server";

type ProjectRow = typeof projects.$inferSelect;
type MemberRow = typeof members.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------------------------
// Who may do what is permissions.server.ts's answer ("members.add", "members.remove",
// "members.change-role", "members.view-all", "members.leave"), read fresh in the caller's
// transaction, so a role change or removal applies on the very next request.

/** Hidden from this user (or missing): 404, never 403, so project ids cannot be probed. */
export class ProjectNotFoundError extends NotFoundError {
  constructor() {
    super("Project not found");
  }
}

/**
 * The project and the actor on it, once the actor may do `action` (ForbiddenError when they see
 * the project but may not; ProjectNotFoundError when they cannot see it).
 */
async function authorize(tx: Queryable, user: User, ref: string, action: Action) {
  const project = await projectRowFor(user, ref, tx);
  if (!project) throw new ProjectNotFoundError();
  try {
    // Records support access too, in `tx`: a platform admin's change logs with the change.
    const actor = await authorizeOn(user, project, action, tx);
    return { project, actor };
  } catch (error) {
    if (error instanceof NotFoundError) throw new ProjectNotFoundError();
    throw error;
  }
}

async function ownerOf(tx: Queryable, project: ProjectRow) {
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

const expiresIn = () => sql`now() + make_interval(days => ${INVITATION_TTL_DAYS})`;

export function invitationPath(key: string) {
  // Keys are base64url, so this changes nothing for a real one; a forged key with other
  // characters must not reach the Location header raw.
  return `/invitations/${encodeURIComponent(key)}`;
}

const displayName = (name: string | null | undefined) => name?.trim() || "Guest";

function invitationMail(input: {
  to: string;
  key: string;
  projectName: string;
  role: MemberRole;
  inviter: User;
  resent: boolean;
  hasAccount: boolean;
}) {
  // The proof lets a new invitee sign up without a second (confirmation) mail: only the mailbox
  // has it, while the inviter sees the key. Both are removed from the stored copy once delivered.
  const proof = addressProof(input.to, INVITATION_TTL_DAYS);
  const link = absoluteUrl(`${invitationPath(input.key)}?proof=${proof}`);
  return {
    secrets: [input.key, proof],
    to: input.to,
    subject: `You are invited to collaborate on ${input.projectName}`,
    text: [
      `Hello,`,
      "",
      `${input.inviter.name} (${input.inviter.email}) ${input.resent ? "sent you a new invitation" : "invited you"} to collaborate on the StackShift project ${input.projectName} as ${ROLE_LABEL[input.role]}.`,
      "",
      `Open the invitation to accept it:`,
      "",
      link,
      "",
      input.hasAccount
        ? "You already have a StackShift account: log in with it, no new password is needed."
        : "You will be asked to create your StackShift account with this email address first.",
      "",
      `The invitation expires in ${INVITATION_TTL_DAYS} days.${input.resent ? " Links in earlier invitations no longer work." : ""} If you did not expect it, ignore this email.`,
    ].join("\n"),
  };
}

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
  const { project, actor } = await authorize(db(), user, studioId, "project.view");
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
// Invite and resend

export const SUPPORT_INVITES_STAFF_MESSAGE =
  "Support cannot invite a platform admin as a member: the project's owner or admins can";

/**
 * Support (a platform admin outside the project, decision 011) adds members for the customer,
 * never itself or another platform admin: a member row would turn support into a member, no
 * longer logged as support, with a studio account of the customer's.
 */
function refuseStaffBySupport(actor: Actor, address: string) {
  if (isSupport(actor) && isPlatformAdmin(address)) {
    throw new InvalidError(SUPPORT_INVITES_STAFF_MESSAGE, {
      email: [SUPPORT_INVITES_STAFF_MESSAGE],
    });
  }
}

/** The e-mail is already invited or a member: 409 with `DUPLICATE_MEMBER_MESSAGE`. */
export class DuplicateMemberError extends ConflictError {
  readonly fieldErrors = { email: [DUPLICATE_MEMBER_MESSAGE] };
  constructor() {
    super(DUPLICATE_MEMBER_MESSAGE);
  }
}

export type InviteOutcome = {
  outcome: "sent" | "resent";
  member: { id: string; email: string; role: MemberRole; status: "invited" };
};

type Mailing = { to: string; key: string; role: MemberRole; resent: boolean; hasAccount: boolean };

/** Renews the key and expiry of a still-invited member, logs and queues the mail, in `tx`. */
async function renewInvitation(
  tx: Queryable,
  user: User,
  project: ProjectRow,
  row: MemberRow,
): Promise<Mailing> {
  const key = newInvitationKey();
  const [renewed] = await tx
    .update(members)
    .set({
      invitationKey: key,
      invitationExpiresAt: expiresIn(),
      invitedBy: user.id,
      updatedAt: new Date(),
    })
    .where(and(eq(members.id, row.id), eq(members.status, "invited")))
    .returning();
  // Accepted between the read and now: nothing to resend.
  if (!renewed) throw new DuplicateMemberError();
  await logEvent(tx, {
    projectId: project.id,
    type: "members.invitation.sent",
    content: `${user.name} resent the invitation to ${renewed.invitedEmail}`,
    label: "Invitation resent",
    metadata: { role: renewed.role, email: renewed.invitedEmail },
    actorId: user.id,
  });
  return {
    to: renewed.invitedEmail,
    key,
    role: renewed.role,
    resent: true,
    hasAccount: Boolean(renewed.userId),
  };
}

/**
 * Spends one invitation mail of each limit (docs/configuration.md, Limits): the inviter's hour,
 * the project's day, the recipient's day. Called in the invitation's transaction once every other
 * check has passed and just before anything is written, so the counts commit only with a mail
 * that is sent: a refusal by one limit (or a later failure) rolls the others back and writes
 * nothing. Only a project's owner, admins and support get here, so only their mails spend an
 * address's three a day (decision 031). Always in this order, so no two transactions wait on
 * each other's counters in a cycle.
 */
async function spendInvitationLimits(tx: Queryable, user: User, project: ProjectRow, to: string) {
  await consume("invite", `user:${user.id}`, {
    tx,
    what: `You have sent ${POLICIES.invite.points} invitations within an hour, the most allowed.`,
  });
  await consume("inviteProject", `project:${project.id}`, {
    tx,
    what: `This project has sent ${POLICIES.inviteProject.points} invitations within a day, the most allowed.`,
  });
  await consume("inviteRecipient", `email:${to}`, {
    tx,
    what: `${to} has already been sent ${POLICIES.inviteRecipient.points} invitation emails within a day, the most allowed.`,
  });
}

async function sendMail(tx: Queryable, project: ProjectRow, user: User, mailing: Mailing) {
  return queueMail(tx, invitationMail({ ...mailing, projectName: project.name, inviter: user }));
}

/**
 * Invite (POST /api/app/members and the invite form): creates the invited member with a fresh
 * key valid for 7 days, logs members.invitation.sent and mails the link to the invitation card.
 * An e-mail already invited is resent (`onExisting: "resend"`, the API) or refused with the
 * duplicate message (`"reject"`, the form); an accepted member or the owner is always refused.
 * Past an invitation limit: RateLimitedError (429, Retry-After), and nothing written or mailed.
 */
export async function inviteMember(
  user: User,
  input: InviteMemberInput,
  options: { onExisting: "resend" | "reject" } = { onExisting: "resend" },
): Promise<InviteOutcome> {
  const address = input.email.trim().toLowerCase();
  const { mailId, outcome } = await db().transaction(async (tx) => {
    const { project, actor } = await authorize(tx, user, input.studioId, "members.add");
    refuseStaffBySupport(actor, address);
    const owner = await ownerOf(tx, project);
    if (owner?.email === address) throw new DuplicateMemberError();

    const [existing] = await tx
      .select()
      .from(members)
      .where(and(eq(members.projectId, project.id), eq(members.invitedEmail, address)))
      .for("update");
    if (existing) {
      if (existing.status !== "invited" || options.onExisting === "reject") {
        throw new DuplicateMemberError();
      }
      await spendInvitationLimits(tx, user, project, address);
      const mailing = await renewInvitation(tx, user, project, existing);
      return {
        mailId: await sendMail(tx, project, user, mailing),
        outcome: {
          outcome: "resent" as const,
          member: {
            id: existing.id,
            email: address,
            role: existing.role,
            status: "invited" as const,
          },
        },
      };
    }

    const [account] = await tx.select({ id: users.id }).from(users).where(eq(users.email, address));
    await spendInvitationLimits(tx, user, project, address);
    const key = newInvitationKey();
    const [created] = await tx
      .insert(members)
      .values({
        projectId: project.id,
        userId: account?.id ?? null,
        invitedEmail: address,
        role: input.role,
        status: "invited",
        invitationKey: key,
        invitationExpiresAt: expiresIn(),
        invitedBy: user.id,
      })
      // A concurrent invite of the same address won the race.
      .onConflictDoNothing()
      .returning();
    if (!created) throw new DuplicateMemberError();
    await logEvent(tx, {
      projectId: project.id,
      type: "members.invitation.sent",
      content: `${user.name} invited ${address} as ${ROLE_LABEL[created.role]}`,
      label: "Invitation sent",
      metadata: { role: created.role, email: address },
      actorId: user.id,
    });
    const mailId = await sendMail(tx, project, user, {
      to: address,
      key,
      role: created.role,
      resent: false,
      hasAccount: Boolean(account),
    });
    return {
      mailId,
      outcome: {
        outcome: "sent" as const,
        member: { id: created.id, email: address, role: created.role, status: "invited" as const },
      },
    };
  });
  await dispatchMail([mailId]);
  return outcome;
}

/**
 * The table's Resend ('Invitaton resent!'): a fresh key and expiry, a new e-mail; the old
 * link stops working. Expired invitations can be resent. A resend counts against the same
 * limits as an invitation.
 */
export async function resendInvitation(
  user: User,
  input: { studioId: string; memberId: string },
): Promise<{ email: string }> {
  const { mailId, email } = await db().transaction(async (tx) => {
    const { project, actor } = await authorize(tx, user, input.studioId, "members.add");
    const [row] = await tx
      .select()
      .from(members)
      .where(and(eq(members.id, input.memberId), eq(members.projectId, project.id)))
      .for("update");
    if (!row) throw new NotFoundError("This invitation no longer exists");
    refuseStaffBySupport(actor, row.invitedEmail);
    if (row.status !== "invited") {
      throw new ConflictError("This invitation was already accepted");
    }
    await spendInvitationLimits(tx, user, project, row.invitedEmail);
    const mailing = await renewInvitation(tx, user, project, row);
    return { mailId: await sendMail(tx, project, user, mailing), email: row.invitedEmail };
  });
  await dispatchMail([mailId]);
  return { email };
}

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
        ),
      )
      .returning();
    return row ? logAcceptance(tx, user, row) : null;
  });
  if (!accepted) throw await whyNotAcceptable(db(), user, key, projectId);
  return accepted;
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
  const project = await projectRowFor(user, studioId);
  if (!project) return null;
  const actor = await actorForProject(user, project);
  if (!can(actor, "invitation.respond") || !actor.membership) return null;
  const [row] = await db()
    .select({
      member: members,
      inviterName: users.name,
      expired: sql<boolean>`coalesce(${members.invitationExpiresAt} <= now(), false)`,
    })
    .from(members)
    .leftJoin(users, eq(users.id, members.invitedBy))
    .where(and(eq(members.id, actor.membership.id), eq(members.status, "invited")));
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
  const accepted = await db().transaction(async (tx) => {
    const { actor } = await authorize(tx, user, studioId, "invitation.respond");
    const memberId = actor.membership!.id;
    const [row] = await tx
      .update(members)
      .set(acceptedColumns(user))
      .where(and(eq(members.id, memberId), invitationsAddressedTo(user), stillValid()))
      .returning();
    // In the transaction: PGlite has one connection, a query beside it would wait forever.
    if (!row) throw await whyNotAnswerable(tx, memberId);
    return logAcceptance(tx, user, row);
  });
  return accepted;
}

/** Decline from /sites or the dashboard's card (expired invitations can be declined too). */
export async function declineProjectInvitation(
  user: User,
  studioId: string,
): Promise<{ projectName: string; studioId: string }> {
  return db().transaction(async (tx) => {
    const { actor } = await authorize(tx, user, studioId, "invitation.respond");
    const memberId = actor.membership!.id;
    const [row] = await tx
      .delete(members)
      .where(and(eq(members.id, memberId), invitationsAddressedTo(user)))
      .returning();
    if (!row) throw await whyNotAnswerable(tx, memberId);
    return logDecline(tx, user, row);
  });
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
  return db().transaction(async (tx) => {
    const { project } = await authorize(tx, user, input.studioId, "members.remove");
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
    return { outcome: revoked ? "revoked" : "removed", email: row.invitedEmail };
  });
}

/** Leave (PATCH {studioId, action: leave}): an accepted member leaves; the owner cannot. */
export async function leaveProject(user: User, studioId: string): Promise<{ projectName: string }> {
  return db().transaction(async (tx) => {
    const { project } = await authorize(tx, user, studioId, "members.leave");
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
  return db().transaction(async (tx) => {
    const { project } = await authorize(tx, user, input.studioId, "members.change-role");
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
    return { changed: true, email: row.invitedEmail, role: input.role };
  });
}

// ---------------------------------------------------------------------------------------------
// The content studio invitation after an acceptance (a job, so a slow or failing provider never
// holds up the request, and pg-boss retries what is retryable).

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
      console.warn(`[members] studio invitation of ${row.email} refused: ${error.message}`);
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
