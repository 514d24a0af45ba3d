import { z } from "zod";
import { email } from "~/services/accounts";
import { DEFAULT_MEMBER_ROLE, DUPLICATE_MEMBER_MESSAGE, MEMBER_ROLES } from "./member-roles";

export {
  DEFAULT_MEMBER_ROLE,
  DUPLICATE_MEMBER_MESSAGE,
  INVITATION_TTL_DAYS,
  isTakenEmail,
  MEMBER_ROLES,
  MEMBER_TOASTS,
  ROLE_LABEL,
  type MemberRole,
} from "./member-roles";

/**
 * Input rules of members and invitations, shared by the JSON API, the
 * dashboard's forms (server) and the invite form's as-you-type check (client). No server imports.
 */
const studioId = z
  .string({ error: "studioId is required" })
  .trim()
  .min(1, "studioId is required")
  .max(100, "studioId is too long");

const role = z.enum(MEMBER_ROLES, { error: "Choose editor, developer or admin" });

/** 32 random bytes in base64url: 43 characters. Anything else cannot be a key we issued. */
export const INVITATION_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const invitationKey = z
  .string({ error: "memberInvitationKey is required" })
  .trim()
  .regex(INVITATION_KEY_PATTERN, "This invitation link is invalid");

const memberId = z
  .string({ error: "memberId is required" })
  .trim()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Invalid memberId")
  .transform((v) => v.toLowerCase());

/** POST /api/app/members {studioId, email, role}: invite, or resend to a still-invited e-mail. */
export const inviteMemberSchema = z.object({
  studioId,
  email,
  role: role.default(DEFAULT_MEMBER_ROLE),
});
export type InviteMemberInput = z.infer<typeof inviteMemberSchema>;

/**
 * The invite form on the client: the same rules plus the duplicate check against the member list
 * the page was rendered with (the action checks again against the database).
 */
export function inviteFormSchema(existingEmails: readonly string[]) {
  const taken = new Set(existingEmails.map((e) => e.toLowerCase()));
  return inviteMemberSchema.superRefine((value, ctx) => {
    if (taken.has(value.email)) {
      ctx.addIssue({ code: "custom", path: ["email"], message: DUPLICATE_MEMBER_MESSAGE });
    }
  });
}

export const acceptInvitationSchema = z.object({
  action: z.literal("accept"),
  studioId: studioId.optional(),
  memberInvitationKey: invitationKey,
  email: email.optional(),
});
export const leaveProjectSchema = z.object({ action: z.literal("leave"), studioId });
export const changeRoleSchema = z.object({
  action: z.literal("role"),
  studioId,
  memberId,
  role,
});

/**
 * The dashboard's role form: the fields it sends of `changeRoleSchema`, which the action parses
 * after adding the project from the URL and `action: "role"`.
 */
export const roleFormSchema = changeRoleSchema.pick({ memberId: true, role: true });

/** PATCH /api/app/members: accept, leave or role, by `action`. */
export const patchMemberSchema = z.discriminatedUnion(
  "action",
  [acceptInvitationSchema, leaveProjectSchema, changeRoleSchema],
  { error: "action must be accept, leave or role" },
);
export type PatchMemberInput = z.infer<typeof patchMemberSchema>;

/**
 * DELETE /api/app/members {memberEmail, memberId, memberInvitationKey, studioId}: revoke an
 * invitation or remove a member. memberId or memberEmail names the row; whatever else is given
 * must match it (a stale page cannot remove someone else).
 */
const blank = z.union([z.literal(""), z.null()]).transform(() => undefined);
export const removeMemberSchema = z
  .object({
    studioId,
    memberId: z.union([blank, memberId]).optional(),
    memberEmail: z.union([blank, email]).optional(),
    // Only invited members have a key; an accepted member's row sends none (or null, or "").
    memberInvitationKey: z.union([blank, invitationKey]).optional(),
  })
  .refine((v) => v.memberId || v.memberEmail, {
    message: "memberId or memberEmail is required",
    path: ["memberId"],
  });
export type RemoveMemberInput = z.infer<typeof removeMemberSchema>;

/** The table's Resend button. */
export const resendInvitationSchema = z.object({ studioId, memberId });

/** Accept or Decline of one's own invitation on /sites and the dashboard: the project is enough. */
export const projectInvitationSchema = z.object({ studioId });

/** The invitation card's form: Accept Invitation, or Ignore (signed in as the invitee). */
export const invitationCardSchema = z.object({
  intent: z.enum(["accept", "decline"], { error: "Unknown action" }),
});
