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
  /** Turns a studio feature on or off (the studio reads its flags when it starts); idempotent. */
  setFeatureFlag(projectId: string, flag: string, enabled: boolean): Promise<void>;
  /**
   * Deletes the content project (its datasets, CORS origins and invitations go with it).
   * Idempotent: a project that is already gone resolves, so a retried cleanup job can run it
   * again; any other refusal is a ProviderError.
   */
  deleteStudio(projectId: string): Promise<void>;
}
