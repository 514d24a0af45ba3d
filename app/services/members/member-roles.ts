/**
 * Member roles, their labels and the members copy: what the dashboard shows, apart from the zod
 * schemas in members.schema.ts so showing a role does not bring zod to the browser.
 */
export const MEMBER_ROLES = ["editor", "developer", "admin"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export const DEFAULT_MEMBER_ROLE: MemberRole = "editor";

export const ROLE_LABEL: Record<MemberRole | "owner", string> = {
  owner: "Owner",
  admin: "Admin",
  developer: "Developer",
  editor: "Editor",
};

/** Invitations expire after 7 days; an expired one can be resent. */
export const INVITATION_TTL_DAYS = 7;

/** Shown beside the invite form's Email field, with 'Send Invitation' disabled. */
export const DUPLICATE_MEMBER_MESSAGE = "The email has been invited and/or is a member!";

/** The members toasts, word for word as the product's copy has them, typos included. */
export const MEMBER_TOASTS = {
  sent: (address: string) => `Invitation sent to ${address}!`,
  accepted: "Yay, invitation accepted!",
  resent: "Invitaton resent!",
  revoked: "Invitation revoked!",
  removed: "Member removed!",
  left: "You've left the project!",
  roleChanged: "Role updated!",
  declined: "Invitation declined",
  addFailed: "Ooops, something went wrong adding member!",
  acceptFailed: "Ooops, something went wrong accepting invitation!",
  resendFailed: "Ooops, something went wrong resending invitation!",
  removeFailed: "Ooops, something went wrong removing invitation/member!",
  leaveFailed: "Ooops, something went wrong leaving project!",
  roleFailed: "Ooops, something went wrong changing the role!",
} as const;

/** True when the typed address is already invited or a member (the button is then disabled). */
export function isTakenEmail(typed: string, existingEmails: readonly string[]) {
  const address = typed.trim().toLowerCase();
  return address.length > 0 && existingEmails.some((e) => e.toLowerCase() === address);
}
