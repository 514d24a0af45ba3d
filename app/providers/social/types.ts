/**
 * Social accounts: the Instagram professional accounts whose public feed a project's site shows.
 * Instagram's own OAuth and Graph API when PROVIDERS=live, a local authorization page otherwise.
 * Refusals are ProviderError (400: the code is not valid; 409: the account cannot be linked).
 */

export type SocialProfile = {
  /** The platform's id of the account. */
  userId: string;
  userName: string;
  profileName: string | null;
  profilePictureUrl: string | null;
};

/** One post of an account's public feed. */
export type SocialPost = {
  id: string;
  caption: string | null;
  /** IMAGE, VIDEO or CAROUSEL_ALBUM. */
  mediaType: string;
  /** The image (or a video's thumbnail) to show, when there is one. */
  mediaUrl: string | null;
  permalink: string;
  /** ISO 8601. */
  timestamp: string;
};

/** A long-lived access token and when it stops working. */
export type SocialToken = { accessToken: string; expiresAt: Date };

export type SocialProvider = {
  platform: "instagram";
  /** Where a profile lives: base URL + user name ('Go to profile'). */
  profileBaseUrl: string;
  /** The authorization page to send the user to, with the five scopes and `state`. */
  authorizeUrl(input: { state: string; redirectUri: string }): string;
  /** The code from the return page -> a long-lived token and the account's profile. */
  exchangeCode(
    code: string,
    redirectUri: string,
  ): Promise<SocialToken & { profile: SocialProfile }>;
  /** A fresh long-lived token for one that has not expired yet. */
  refreshToken(accessToken: string): Promise<SocialToken>;
  /** The account's latest posts, newest first. */
  listPosts(
    accessToken: string,
    options: { userName: string; limit: number },
  ): Promise<SocialPost[]>;
};

/** What linking asks Instagram for: read the profile and media, and the business features. */
export const INSTAGRAM_SCOPES = [
  "instagram_business_basic",
  "instagram_business_manage_messages",
  "instagram_business_manage_comments",
  "instagram_business_content_publish",
  "instagram_business_manage_insights",
] as const;
