/** The `intent` values of the Members section's forms (the dashboard action dispatches on them). */
export const MEMBER_INTENTS = [
  "member-invite",
  "member-resend",
  "member-remove",
  "member-leave",
  "member-role",
] as const;
export type MemberIntent = (typeof MEMBER_INTENTS)[number];

/**
 * The `intent` values of Accept and Decline of one's own invitation: on /sites (the pending
 * invitations, with the project's studioId) and on the dashboard's invitation card.
 */
export const INVITATION_INTENTS = ["invitation-accept", "invitation-decline"] as const;
export type InvitationIntent = (typeof INVITATION_INTENTS)[number];

export function isInvitationIntent(value: unknown): value is InvitationIntent {
  return typeof value === "string" && (INVITATION_INTENTS as readonly string[]).includes(value);
}
