/** The content studio (Sanity): one content project per dashboard project. */
export type StudioRole = "administrator" | "editor" | "developer" | "viewer";

export type Studio = {
  /** The content provider's project id (our projects.studioSanityId). */
  projectId: string;
  displayName: string;
  /** Where the studio is opened (the launch page sends people here). */
  studioUrl: string;
};

export type InvitationStatus = "pending" | "accepted" | "none";

/** A person who joined the studio (robots and the API token's own user are never listed). */
export type StudioMember = { email: string; roles: string[] };
/**
 * A member the provider lists without an e-mail address (its user record has none, or hides it):
 * known by the provider's user id only.
 */
export type StudioUnaddressedMember = { id: string; roles: string[] };
/** An invitation not answered yet. */
export type StudioInvitation = { email: string; role: string };
/** Who has the studio and who is invited to it, e-mails lowercased. */
export type StudioAccess = {
  members: StudioMember[];
  invitations: StudioInvitation[];
  /** Members without an address: the dashboard cannot have granted them access. */
  unaddressed: StudioUnaddressedMember[];
};
/**
 * An API (robot) token of the studio. The vendor does not say who made a token, only when and
 * with which role; the token the provider itself calls with is never listed.
 */
export type StudioToken = { id: string; label: string; roles: string[]; createdAt: string | null };
/** What the local studio's page shows its members: the people with addresses and invitations. */
export type StudioPeople = Pick<StudioAccess, "members" | "invitations">;

export interface ContentStudioProvider {
  /** Idempotent: the same idempotencyKey returns the studio created the first time. */
  createStudio(input: { displayName: string; idempotencyKey: string }): Promise<Studio>;
  getStudio(projectId: string): Promise<Studio>;
  /** Idempotent: an existing dataset is left as it is. */
  ensureDataset(projectId: string, name: string): Promise<void>;
  /** Idempotent: an existing origin is left as it is. */
  addCorsOrigin(projectId: string, origin: string): Promise<void>;
  /** The provider e-mails the invitation; inviting an already-invited e-mail re-sends it. */
  inviteMember(projectId: string, input: { email: string; role: StudioRole }): Promise<void>;
  /** Sends the pending invitation again (the studio card's 'Resend Invitation'). */
  resendInvite(projectId: string, email: string): Promise<void>;
  invitationStatus(projectId: string, email: string): Promise<InvitationStatus>;
  /** The studio's members and pending invitations (every page of them). */
  listAccess(projectId: string): Promise<StudioAccess>;
  /** Takes the person out of the studio. Idempotent: someone who is not a member resolves. */
  removeMember(projectId: string, email: string): Promise<void>;
  /**
   * Takes a member out by the provider's user id (one listed in `unaddressed`). Idempotent: an
   * id that is not a member resolves.
   */
  removeMemberById(projectId: string, userId: string): Promise<void>;
  /**
   * Gives a member exactly this role (their other roles go). Idempotent; a person who is not a
   * member is a ProviderError with status 404.
   */
  setMemberRole(projectId: string, email: string, role: StudioRole): Promise<void>;
  /** Withdraws the pending invitation of the e-mail. Idempotent: none pending resolves. */
  revokeInvite(projectId: string, email: string): Promise<void>;
  /** The studio's API (robot) tokens, oldest first, without the one this provider uses. */
  listTokens(projectId: string): Promise<StudioToken[]>;
  /** Revokes an API token: it stops working at once. Idempotent: a token already gone resolves. */
  revokeToken(projectId: string, tokenId: string): Promise<void>;
  /** Turns a studio feature on or off (the studio reads its flags when it starts); idempotent. */
  setFeatureFlag(projectId: string, flag: string, enabled: boolean): Promise<void>;
  /**
   * Deletes the content project (its datasets, CORS origins and invitations go with it).
   * Idempotent: a project that is already gone resolves, so a retried cleanup job can run it
   * again; any other refusal is a ProviderError.
   */
  deleteStudio(projectId: string): Promise<void>;
}
