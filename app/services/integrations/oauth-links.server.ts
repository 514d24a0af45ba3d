/**
 * The authorization round trips that link an outside account to a project (Instagram, Stripe
 * Connect). The `state` sent to the provider is `{studioId}.{nonce}`: it names the project, and
 * the nonce (kept only as a hash) binds it to the user and the session that started it. It is
 * used once, within ten minutes, so a code that comes back with a forged, foreign, replayed or
 * stale state is never exchanged.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { oauthLinkStates, projects } from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import { ProviderError } from "~/providers/errors";
import { INVALID_STATE_MESSAGE } from "./oauth-texts";
import { ServiceError, InvalidError, UpstreamError } from "~/services/core";
import { withProjectAction } from "~/services/permissions/index.server";

export type LinkProvider = "instagram" | "stripe";
/** popup: the return page reports to the window that opened it; tab: it redirects back. */
export type LinkMode = "popup" | "tab";

const LIFETIME_MS = 10 * 60 * 1000;
/** A claim older than this was left by a request that died mid-exchange: it may be taken again. */
const CLAIM_TIMEOUT_SECONDS = 30;

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

export { INVALID_STATE_MESSAGE };

/** The state is unknown, used, expired, or not this user's, session's or project's. */
export class InvalidLinkStateError extends InvalidError {
  constructor() {
    super(INVALID_STATE_MESSAGE, { state: [INVALID_STATE_MESSAGE] });
  }
}

function parseState(state: string): { studioId: string; nonce: string } | null {
  const dot = state.lastIndexOf(".");
  if (dot <= 0 || state.length > 300) return null;
  const studioId = state.slice(0, dot);
  const nonce = state.slice(dot + 1);
  return /^[A-Za-z0-9_-]{20,}$/.test(nonce) ? { studioId, nonce } : null;
}

/** Records a new round trip and returns its `state`. */
export async function beginLink(
  tx: Queryable,
  input: {
    provider: LinkProvider;
    project: { id: string; studioId: string };
    userId: string;
    sessionId: string;
    mode: LinkMode;
  },
): Promise<string> {
  const nonce = randomBytes(24).toString("base64url");
  await tx.insert(oauthLinkStates).values({
    nonceHash: sha256(nonce),
    provider: input.provider,
    projectId: input.project.id,
    userId: input.userId,
    sessionHash: sha256(input.sessionId),
    mode: input.mode,
    expiresAt: new Date(Date.now() + LIFETIME_MS),
  });
  return `${input.project.studioId}.${nonce}`;
}

/**
 * Starts a round trip for `user` on the project, if they may do `action` there (checked, and
 * written as support access for a platform admin, in the transaction that records the state).
 */
export async function beginLinkFor(
  user: User,
  studioId: string,
  provider: LinkProvider,
  action: "social.link" | "payments.add",
  session: { id: string; mode: LinkMode },
): Promise<string> {
  return withProjectAction(user, studioId, action, async ({ project, tx }) => {
    return beginLink(tx, {
      provider,
      project,
      userId: user.id,
      sessionId: session.id,
      mode: session.mode,
    });
  });
}

type Who = { provider: LinkProvider; userId: string; sessionId: string };

function matching(who: Who, nonce: string) {
  return and(
    eq(oauthLinkStates.nonceHash, sha256(nonce)),
    eq(oauthLinkStates.provider, who.provider),
    eq(oauthLinkStates.userId, who.userId),
    eq(oauthLinkStates.sessionHash, sha256(who.sessionId)),
    isNull(oauthLinkStates.usedAt),
    gt(oauthLinkStates.expiresAt, sql`now()`),
  );
}

export type PendingLink = { projectId: string; studioId: string; mode: LinkMode };

/** The round trip `state` names, if it is still open for this user and session; nothing is used. */
export async function peekLink(who: Who, state: string): Promise<PendingLink | null> {
  const parsed = parseState(state);
  if (!parsed) return null;
  const [row] = await db()
    .select({ projectId: oauthLinkStates.projectId, mode: oauthLinkStates.mode })
    .from(oauthLinkStates)
    .innerJoin(projects, eq(projects.id, oauthLinkStates.projectId))
    .where(and(matching(who, parsed.nonce), eq(projects.studioId, parsed.studioId)));
  return row ? { ...row, studioId: parsed.studioId, mode: row.mode as LinkMode } : null;
}

/**
 * Exchanges the code of the round trip `state` names with `exchange`, at most once: the state is
 * claimed first (a second request meanwhile finds it taken), `exchange` must call `finish` in the
 * transaction that stores its result, and a failure either frees the state again (the provider
 * was unreachable: the return page may retry) or uses it up (the provider refused the code).
 */
export async function completeLink<T>(
  who: Who,
  state: string,
  exchange: (link: PendingLink, finish: (tx: Queryable) => Promise<void>) => Promise<T>,
): Promise<T> {
  const parsed = parseState(state);
  if (!parsed) throw new InvalidLinkStateError();
  const [claimed] = await db()
    .update(oauthLinkStates)
    .set({ claimedAt: sql`now()` })
    .where(
      and(
        matching(who, parsed.nonce),
        or(
          isNull(oauthLinkStates.claimedAt),
          lt(
            oauthLinkStates.claimedAt,
            sql`now() - make_interval(secs => ${CLAIM_TIMEOUT_SECONDS})`,
          ),
        ),
        sql`exists (select 1 from ${projects} where ${projects.id} = ${oauthLinkStates.projectId} and ${projects.studioId} = ${parsed.studioId})`,
      ),
    )
    .returning({ projectId: oauthLinkStates.projectId, mode: oauthLinkStates.mode });
  if (!claimed) throw new InvalidLinkStateError();
  const key = eq(oauthLinkStates.nonceHash, sha256(parsed.nonce));
  const link = {
    projectId: claimed.projectId,
    studioId: parsed.studioId,
    mode: claimed.mode as LinkMode,
  };
  try {
    return await exchange(link, async (tx) => {
      await tx
        .update(oauthLinkStates)
        .set({ usedAt: sql`now()` })
        .where(key);
    });
  } catch (error) {
    // Unreachable or busy providers, and our own faults, leave the code unspent: try again.
    const transient =
      (error instanceof ProviderError && error.retryable) ||
      (error instanceof UpstreamError && error.retryable) ||
      !(error instanceof ProviderError || error instanceof ServiceError);
    await db()
      .update(oauthLinkStates)
      .set(transient ? { claimedAt: null } : { usedAt: sql`now()` })
      .where(key);
    throw error;
  }
}

/** Drops round trips that ended or expired more than a day ago (a daily job). */
export async function purgeLinkStates(): Promise<number> {
  const gone = await db()
    .delete(oauthLinkStates)
    .where(lt(oauthLinkStates.expiresAt, sql`now() - interval '1 day'`))
    .returning({ nonceHash: oauthLinkStates.nonceHash });
  return gone.length;
}
