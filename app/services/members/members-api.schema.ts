import { z } from "zod";
import { email } from "~/services/accounts";
import { memberId, studioId } from "./member-fields.schema";
import { changeRoleSchema } from "./members.schema";

/**
 * Input rules of members and invitations that only the JSON API and the actions parse: the forms'
 * rules are members.schema.ts, which the browser loads with the invite and role forms.
 */

/** 32 random bytes in base64url: 43 characters. Anything else cannot be a key we issued. */
export const INVITATION_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const invitationKey = z
  .string({ error: "memberInvitationKey is required" })
  .trim()
  .regex(INVITATION_KEY_PATTERN, "This invitation link is invalid");

export const acceptInvitationSchema = z.object({
  action: z.literal("accept"),
  studioId: studioId.optional(),
  memberInvitationKey: invitationKey,
  email: email.optional(),
});
export const leaveProjectSchema = z.object({ action: z.literal("leave"), studioId });

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
