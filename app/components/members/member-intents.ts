/** The `intent` values of the Members section's forms (the dashboard action dispatches on them). */
export const MEMBER_INTENTS = [
  "member-invite",
  "member-resend",
  "member-remove",
  "member-leave",
  "member-role",
] as const;
export type MemberIntent = (typeof MEMBER_INTENTS)[number];
