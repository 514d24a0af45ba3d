/** Inviting a member and resending an invitation: the limits, the mail and the member row, in one transaction. */
import { and, eq } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { members, users } from "~/db/schema";
import { type User } from "~/services/accounts/index.server";
import { env } from "~/utils/env.server";
import { consume, POLICIES } from "~/services/core/index.server";
import { logEvent } from "~/services/activity/index.server";
import { emitProjectEvent } from "~/services/events/index.server";
import { ConflictError, InvalidError, NotFoundError } from "~/services/core";
import { addressProof } from "~/services/accounts/index.server";
import { absoluteUrl, dispatchMail, queueMail } from "~/services/core/index.server";
import {
  DUPLICATE_MEMBER_MESSAGE,
  INVITATION_TTL_DAYS,
  ROLE_LABEL,
  type InviteMemberInput,
  type MemberRole,
} from "./members.schema";
import { sameMailbox } from "~/services/accounts";
import {
  isSupport,
  projectForAction,
  type Actor,
  withProjectAction,
} from "~/services/permissions/index.server";
import {
  type MemberRow,
  type ProjectRow,
  expiresIn,
  invitationPath,
  newInvitationKey,
  ownerOf,
} from "./members.server";

/** Whether the invited address has an account, and whether its owner proved they read it. */
type Recipient = { hasAccount: boolean; proven: boolean };

/**
 * The invitation mail. To an address nobody proved (no account, or one whose address was never
 * confirmed) it carries nothing a user typed (decision 028, amended): no project name, no
 * inviter's name or address, which anyone could choose to make our mail say what they like to a
 * stranger. The card behind the link shows both. To a proved account's address it names them.
 */
function invitationMail(input: {
  to: string;
  key: string;
  projectName: string;
  role: MemberRole;
  inviter: User;
  resent: boolean;
  recipient: Recipient;
}) {
  // The proof lets a new invitee sign up without a second (confirmation) mail: only the mailbox
  // has it, while the inviter sees the key. Both are removed from the stored copy once delivered.
  const proof = addressProof(input.to, INVITATION_TTL_DAYS);
  const link = absoluteUrl(`${invitationPath(input.key)}?proof=${proof}`);
  const { hasAccount, proven } = input.recipient;
  const role = ROLE_LABEL[input.role];
  return {
    secrets: [input.key, proof],
    to: input.to,
    subject: proven
      ? `You are invited to collaborate on ${input.projectName}`
      : "You are invited to collaborate on a StackShift project",
    text: [
      `Hello,`,
      "",
      proven
        ? `${input.inviter.name} (${input.inviter.email}) ${input.resent ? "sent you a new invitation" : "invited you"} to collaborate on the StackShift project ${input.projectName} as ${role}.`
        : `You ${input.resent ? "have a new invitation" : "are invited"} to collaborate on a StackShift project as ${role}.`,
      "",
      proven
        ? `Open the invitation to accept it:`
        : "Open the invitation to see the project and who invited you, and to accept it:",
      "",
      link,
      "",
      hasAccount
        ? "You already have a StackShift account: log in with it, no new password is needed."
        : "You will be asked to create your StackShift account with this email address first.",
      "",
      `The invitation expires in ${INVITATION_TTL_DAYS} days.${input.resent ? " Links in earlier invitations no longer work." : ""} If you did not expect it, ignore this email.`,
    ].join("\n"),
  };
}

/** The invited address's account, read in the invitation's transaction. */
async function recipientOf(tx: Queryable, address: string): Promise<Recipient> {
  const [account] = await tx
    .select({ verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.email, address));
  return { hasAccount: Boolean(account), proven: Boolean(account?.verifiedAt) };
}

// ---------------------------------------------------------------------------------------------
// Invite and resend

/** What support's entry says of an invitation it sends (only support's entries use it). */
const supportInvitationWords = (address: string) => `added a member (invited ${address})`;

/**
 * The words of support's entry for a resend, which names the address too; undefined for anyone
 * else (no entry), or when the invitation is not this project's (the change then says so). The
 * check reads the page view's actor; the change checks again in its transaction.
 */
async function supportResendWords(user: User, input: { studioId: string; memberId: string }) {
  const { project, actor } = await projectForAction(user, input.studioId, "members.add", {
    mode: "check",
  });
  if (!isSupport(actor)) return undefined;
  const [row] = await db()
    .select({ email: members.invitedEmail })
    .from(members)
    .where(and(eq(members.id, input.memberId), eq(members.projectId, project.id)));
  return row ? `resent the invitation to ${row.email}` : undefined;
}

export const SUPPORT_INVITES_STAFF_MESSAGE =
  "Support cannot invite a platform admin, under any spelling of their address, as a member: the project's owner or admins can";

/**
 * Support (a platform admin outside the project, decision 011) adds members for the customer,
 * never itself or another platform admin: a member row would turn support into a member, no
 * longer logged as support, with a studio account of the customer's. An address is a platform
 * admin's when it reaches the same mailbox (admin+x@..., another case, Gmail's dots; decision
 * 043): an alias would make a second account that is no platform admin, and a member.
 */
function refuseStaffBySupport(actor: Actor, address: string) {
  if (!isSupport(actor)) return;
  if ([...env().adminEmails].some((admin) => sameMailbox(admin, address))) {
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

type Mailing = { to: string; key: string; role: MemberRole; resent: boolean };

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
  const recipient = await recipientOf(tx, mailing.to);
  return queueMail(
    tx,
    invitationMail({ ...mailing, projectName: project.name, inviter: user, recipient }),
  );
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
  const { mailId, outcome } = await withProjectAction(
    user,
    input.studioId,
    "members.add",
    async ({ project, actor, tx }) => {
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

      const [account] = await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, address));
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
      await emitProjectEvent(tx, {
        projectId: project.id,
        type: "member.invited",
        payload: { memberId: created.id, email: address, role: created.role },
      });
      const mailId = await sendMail(tx, project, user, {
        to: address,
        key,
        role: created.role,
        resent: false,
      });
      return {
        mailId,
        outcome: {
          outcome: "sent" as const,
          member: {
            id: created.id,
            email: address,
            role: created.role,
            status: "invited" as const,
          },
        },
      };
    },
    // Support's entry (Activity Log and audit log) names the address: a membership support made
    // stays attributable to it, whoever accepts (decision 043).
    { change: supportInvitationWords(address) },
  );
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
  const change = await supportResendWords(user, input);
  const { mailId, email } = await withProjectAction(
    user,
    input.studioId,
    "members.add",
    async ({ project, actor, tx }) => {
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
    },
    { change },
  );
  await dispatchMail([mailId]);
  return { email };
}
