/**
 * Social accounts: the Instagram professional accounts a project links, so its site can show
 * their public feed. Linking is an authorization round trip (app/services/integrations/oauth-links.server.ts)
 * that ends with the code exchanged for a long-lived token, stored encrypted; a daily job
 * refreshes tokens before they expire. One account per user name across all projects.
 */
import { and, asc, eq, lt, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import { socialAccounts } from "~/db/schema";
import type { JobDefinition } from "~/jobs/types";
import { ProviderError } from "~/providers/errors";
import { instagramRedirectUri, socialProvider } from "~/providers/social/index.server";
import type { SocialPost } from "~/providers/social/types";
import { cachedProviderRead } from "~/services/core/index.server";
import { decryptSecret, encryptSecret } from "~/utils/secrets.server";
import type { User } from "~/services/accounts/index.server";
import { logEvent } from "~/services/activity/index.server";
import { ConflictError, InvalidError, NotFoundError } from "~/services/core";
import { asUpstream, callProvider } from "~/services/core/index.server";
import { beginLinkFor, completeLink, purgeLinkStates, type LinkMode } from "./oauth-links.server";
import { can, projectForAction, withProjectAction } from "~/services/permissions/index.server";
import { SOCIAL_MESSAGES } from "./social-accounts.schema";
import { log } from "~/utils/logger.server";

export type SocialAccountView = {
  id: string;
  platform: "instagram";
  userName: string;
  profileName: string | null;
  profilePictureUrl: string | null;
  /** 'Go to profile': base URL + user name. */
  profileUrl: string;
  dateAdded: string;
  lastUpdated: string;
};

export type SocialAccountsView = {
  studioId: string;
  accounts: SocialAccountView[];
  canLink: boolean;
  canUnlink: boolean;
};

/**
 * The dashboard's Active Integrations and Social Accounts in one read: the project's Stripe
 * account names and its linked social accounts.
 */
export async function listDashboardIntegrations(
  user: User,
  studioId: string,
): Promise<{ paymentAccounts: { id: string; accountName: string }[]; social: SocialAccountsView }> {
  const { actor, project: row } = await projectForAction(user, studioId, "project.view");
  const result = await db().execute(sql`
    select
      coalesce((select json_agg(json_build_object('id', p.id, 'accountName', p.account_name)
        order by p.created_at) from payment_accounts p where p.project_id = ${row.id}), '[]') as payments,
      coalesce((select json_agg(json_build_object('id', s.id, 'userName', s.user_name,
        'profileName', s.profile_name, 'profilePictureUrl', s.profile_picture_url,
        'createdAt', s.created_at, 'updatedAt', s.updated_at)
        order by s.created_at) from social_accounts s where s.project_id = ${row.id}), '[]') as social`);
  const [first] = (result as unknown as { rows: { payments: unknown; social: unknown }[] }).rows;
  const parse = <T>(value: unknown): T =>
    (typeof value === "string" ? JSON.parse(value) : value) as T;
  const social = parse<
    {
      id: string;
      userName: string;
      profileName: string | null;
      profilePictureUrl: string | null;
      createdAt: string;
      updatedAt: string;
    }[]
  >(first.social);
  const base = socialProvider().profileBaseUrl;
  return {
    paymentAccounts: parse<{ id: string; accountName: string }[]>(first.payments),
    social: {
      studioId: row.studioId,
      accounts: social.map((a) => ({
        id: a.id,
        platform: "instagram",
        userName: a.userName,
        profileName: a.profileName,
        profilePictureUrl: a.profilePictureUrl,
        profileUrl: `${base}${encodeURIComponent(a.userName)}`,
        dateAdded: new Date(a.createdAt).toISOString(),
        lastUpdated: new Date(a.updatedAt).toISOString(),
      })),
      canLink: can(actor, "social.link"),
      canUnlink: can(actor, "social.unlink"),
    },
  };
}

/**
 * Starts linking an Instagram account to the project: the authorization page's address, with a
 * state bound to this user and session. Only those who may link.
 */
export async function startInstagramLink(
  user: User,
  studioId: string,
  session: { id: string; mode: LinkMode },
): Promise<string> {
  const state = await beginLinkFor(user, studioId, "instagram", "social.link", session);
  return callProvider(
    () => socialProvider().authorizeUrl({ state, redirectUri: instagramRedirectUri() }),
    SOCIAL_MESSAGES.openFailed,
    { retryable: false, retryAfter: false },
  );
}

export type LinkedAccount = { studioId: string; account: { id: string; userName: string } };

/**
 * The return page's exchange: the code becomes a long-lived token and the account's profile,
 * stored with the project the state names (at most once per state). 409 (ConflictError) when
 * that user name is linked already, here or to another project; UpstreamError (retryable) when
 * Instagram could not be reached; InvalidLinkStateError for a state that is not open for us.
 */
export async function completeInstagramLink(
  user: User,
  sessionId: string,
  input: { code: string; state: string },
): Promise<LinkedAccount> {
  return completeLink(
    { provider: "instagram", userId: user.id, sessionId },
    input.state,
    async (link, finish) => {
      // The right may have gone since the round trip began.
      const { project } = await projectForAction(user, link.studioId, "social.link", {
        mode: "check",
      });
      let linked;
      try {
        linked = await socialProvider().exchangeCode(input.code, instagramRedirectUri());
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        if (error.details.status === 409) throw new ConflictError(SOCIAL_MESSAGES.alreadyLinked);
        throw asUpstream(error, SOCIAL_MESSAGES.linkFailed, {
          log: { area: "social", msg: "code exchange failed" },
        });
      }
      const { profile } = linked;
      try {
        return await withProjectAction(user, project.id, "social.link", async ({ tx }) => {
          const [row] = await tx
            .insert(socialAccounts)
            .values({
              projectId: project.id,
              platform: "instagram",
              providerUserId: profile.userId,
              userName: profile.userName,
              profileName: profile.profileName,
              profilePictureUrl: profile.profilePictureUrl,
              accessTokenEncrypted: encryptSecret(linked.accessToken),
              tokenExpiresAt: linked.expiresAt,
              createdBy: user.id,
            })
            .returning({ id: socialAccounts.id, userName: socialAccounts.userName });
          await logEvent(tx, {
            projectId: project.id,
            type: "social.account.linked",
            content: `${user.name || user.email} linked the Instagram account @${profile.userName}`,
            actorId: user.id,
          });
          await finish(tx);
          return { studioId: link.studioId, account: row };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(SOCIAL_MESSAGES.alreadyLinked);
        throw error;
      }
    },
  );
}

const NOT_LINKED = "This social account is not linked to the project";

/**
 * Unlinks one account of the project; its token is deleted with it. Without an id or a user name
 * it is the project's only linked account (400 when it has several: which one is not ours to guess).
 */
export async function unlinkSocialAccount(
  user: User,
  studioId: string,
  ref: { accountId?: string; userName?: string },
): Promise<{ userName: string }> {
  return withProjectAction(user, studioId, "social.unlink", async ({ project, tx }) => {
    let which;
    if (ref.accountId) which = eq(socialAccounts.id, ref.accountId);
    else if (ref.userName) {
      which = eq(sql`lower(${socialAccounts.userName})`, ref.userName.toLowerCase());
    } else {
      const linked = await tx
        .select({ id: socialAccounts.id })
        .from(socialAccounts)
        .where(eq(socialAccounts.projectId, project.id))
        .limit(2);
      if (linked.length === 0) throw new NotFoundError(NOT_LINKED);
      if (linked.length > 1) throw new InvalidError(SOCIAL_MESSAGES.unlinkWhich);
      which = eq(socialAccounts.id, linked[0].id);
    }
    const [removed] = await tx
      .delete(socialAccounts)
      .where(and(which, eq(socialAccounts.projectId, project.id)))
      .returning({ userName: socialAccounts.userName });
    if (!removed) throw new NotFoundError(NOT_LINKED);
    await logEvent(tx, {
      projectId: project.id,
      type: "social.account.unlinked",
      content: `${user.name || user.email} unlinked the Instagram account @${removed.userName}`,
      actorId: user.id,
    });
    return removed;
  });
}

export type SocialFeed = {
  account: { id: string; userName: string; profileName: string | null; profileUrl: string };
  posts: SocialPost[];
  /** Why the posts could not be read, when they could not. */
  error: string | null;
};

const FEED_SIZE = 6;

/**
 * The project's linked accounts with their latest posts, read through the provider cache (so a
 * page view does not call Instagram each time). An account whose feed cannot be read says so
 * and the others still show.
 */
export async function listSocialFeeds(user: User, studioId: string): Promise<SocialFeed[]> {
  const { project } = await projectForAction(user, studioId, "project.view");
  const rows = await db()
    .select()
    .from(socialAccounts)
    .where(eq(socialAccounts.projectId, project.id))
    .orderBy(asc(socialAccounts.createdAt));
  const base = socialProvider().profileBaseUrl;
  return Promise.all(
    rows.map(async (row): Promise<SocialFeed> => {
      const account = {
        id: row.id,
        userName: row.userName,
        profileName: row.profileName,
        profileUrl: `${base}${encodeURIComponent(row.userName)}`,
      };
      try {
        const posts = await cachedProviderRead("instagram", row.id, "posts", async () => ({
          value: await socialProvider().listPosts(decryptSecret(row.accessTokenEncrypted), {
            userName: row.userName,
            limit: FEED_SIZE,
          }),
          calls: 1,
          settled: true,
        }));
        return { account, posts, error: null };
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        log().warn(
          { area: "social", account: row.userName, reason: error.message },
          "reading posts failed",
        );
        return {
          account,
          posts: [],
          error: "Instagram did not send this account's posts. Try again later.",
        };
      }
    }),
  );
}

/** Tokens are refreshed this long before they expire (Instagram's last 60 days). */
const REFRESH_AHEAD_DAYS = 10;

/**
 * Refreshes the long-lived tokens that expire within ten days, a batch at a time. An account
 * whose refresh fails keeps its token (and is tried again tomorrow); the count of each is
 * returned for the job's log.
 */
export async function refreshSocialTokens(
  batch = 100,
): Promise<{ refreshed: number; failed: number }> {
  const due = await db()
    .select({ id: socialAccounts.id, token: socialAccounts.accessTokenEncrypted })
    .from(socialAccounts)
    .where(
      lt(socialAccounts.tokenExpiresAt, sql`now() + make_interval(days => ${REFRESH_AHEAD_DAYS})`),
    )
    .orderBy(asc(socialAccounts.tokenExpiresAt))
    .limit(batch);
  let refreshed = 0;
  let failed = 0;
  for (const account of due) {
    try {
      const fresh = await socialProvider().refreshToken(decryptSecret(account.token));
      await db()
        .update(socialAccounts)
        .set({
          accessTokenEncrypted: encryptSecret(fresh.accessToken),
          tokenExpiresAt: fresh.expiresAt,
          updatedAt: sql`now()`,
        })
        // Only if unlinked or relinked meanwhile has not replaced it.
        .where(
          and(
            eq(socialAccounts.id, account.id),
            eq(socialAccounts.accessTokenEncrypted, account.token),
          ),
        );
      refreshed += 1;
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      log().warn(
        { area: "social", accountId: account.id, reason: error.message },
        "access token refresh failed",
      );
      failed += 1;
    }
  }
  return { refreshed, failed };
}

export const SOCIAL_REFRESH_JOB = "social.refresh-tokens";

export const socialJobs: JobDefinition[] = [
  {
    name: SOCIAL_REFRESH_JOB,
    // Daily at 04:17: tokens last 60 days, so a day's delay never lets one lapse.
    schedule: "17 4 * * *",
    handler: async () => {
      const result = await refreshSocialTokens();
      const purged = await purgeLinkStates();
      log().info(
        { area: "social", refreshed: result.refreshed, failed: result.failed, purged },
        "access tokens refreshed",
      );
    },
  },
];
