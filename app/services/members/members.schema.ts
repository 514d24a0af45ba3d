import { z } from "zod";
import { email } from "~/services/accounts";
import { memberId, role, studioId } from "./member-fields.schema";
import { DEFAULT_MEMBER_ROLE, DUPLICATE_MEMBER_MESSAGE } from "./member-roles";

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
 * Input rules of the members' forms, shared by the dashboard's forms (server) and the invite and
 * role forms' as-you-type check (client). No server imports. What only the JSON API and the
 * actions parse is members-api.schema.ts: a page with these forms does not make those schemas
 * when it loads.
 */

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

/** The invitation card's form: Accept Invitation, or Ignore (signed in as the invitee). */
export const invitationCardSchema = z.object({
  intent: z.enum(["accept", "decline"], { error: "Unknown action" }),
});
