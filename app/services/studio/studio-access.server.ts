/**
 * Who may use a project's content studio follows the dashboard: the owner is its administrator,
 * each accepted member has the studio role of their dashboard role, and nobody else is in it or
 * invited to it. Invited (not yet accepted) members have no studio access: their studio
 * invitation is sent by the job that follows an acceptance (members.server.ts).
 *
 * Two jobs keep the studio in line (docs/decisions/025-studio-member-sync.md):
 * - STUDIO_SYNC_JOB, sent in the transaction of every dashboard change that ends or changes
 *   someone's access (remove, revoke, leave, role change, ownership transfer, account deletion),
 *   brings the studio in line for that one person. It reads the dashboard's rows when it runs, so
 *   it is idempotent and order does not matter: a person re-invited and accepted meanwhile keeps
 *   their access.
 * - STUDIO_RECONCILE_JOB, hourly (a pg-boss schedule: one process of the cluster fires it), walks
 *   every provisioned project a batch at a time and fixes what drifted (a sync job that gave up,
 *   a change made in the vendor's own interface).
 *
 * Whoever loses the studio's administrator role (removed, demoted, or a stranger taken out) may
 * have made API tokens there, and the vendor does not say who made a token: before the role is
 * taken, the job revokes every API token of the studio (never the one the provider calls with)
 * and says so in the project's Activity Log, so the owner can make new ones where needed. The
 * order makes it safe to retry: until the tokens are gone the person is still an administrator,
 * so a retried job sees the same loss and revokes what is left.
 */
import { and, asc, eq, gt, isNotNull } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { members, projects, users } from "~/db/schema";
import { RETRY, sendJob } from "~/jobs/queue.server";
import type { JobDefinition } from "~/jobs/types";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import type { StudioAccess, StudioRole } from "~/providers/content-studio/types";
import { ProviderError } from "~/providers/errors";
import type { MemberRole } from "~/services/members";
import { forgetSite } from "~/services/core/index.server";
import { UUID } from "~/utils/uuid";
import { log } from "~/utils/logger.server";
import { logEvent } from "~/services/activity/index.server";

export const STUDIO_SYNC_JOB = "studio.sync-access";
export const STUDIO_RECONCILE_JOB = "studio.reconcile";
/** Projects a reconciliation job compares; the next batch is a job of its own. */
export const RECONCILE_BATCH = 25;

/** The studio role of each dashboard role; the owner is an administrator. */
export const STUDIO_ROLE: Record<MemberRole | "owner", StudioRole> = {
  owner: "administrator",
  admin: "administrator",
  developer: "developer",
  editor: "editor",
};

const note = (message: string, fields: Record<string, unknown> = {}) =>
  log().info({ area: "studio-sync", ...fields }, message);

/**
 * Sends the job that brings `email`'s studio access on the project in line with the dashboard,
 * in `tx`: the job exists exactly when the change commits. `studio` (the content provider's
 * project id) is for callers whose rows go with the change; the job prefers the project's own.
 */
export async function queueStudioSync(
  tx: Queryable,
  input: {
    projectId: string;
    email: string;
    studio?: string | null;
    invite?: boolean;
    /** The person keeps their access under another address (an address change). */
    moved?: boolean;
  },
) {
  await sendJob(
    STUDIO_SYNC_JOB,
    {
      projectId: input.projectId,
      email: input.email.trim().toLowerCase(),
      ...(input.studio ? { studio: input.studio } : {}),
      ...(input.invite ? { invite: true } : {}),
      ...(input.moved ? { moved: true } : {}),
    },
    RETRY,
    tx,
  );
}

/**
 * Account deletion: a sync job for every project the account is a member of, sent in the
 * deletion's transaction before its rows go (the job carries the address and the studio id).
 */
export async function queueStudioSyncForAccount(
  tx: Queryable,
  user: { id: string; email: string },
) {
  const rows = await tx
    .select({ projectId: members.projectId, studio: projects.studioSanityId })
    .from(members)
    .innerJoin(projects, eq(projects.id, members.projectId))
    .where(and(eq(members.userId, user.id), eq(members.status, "accepted")));
  for (const row of rows) {
    await queueStudioSync(tx, { projectId: row.projectId, email: user.email, studio: row.studio });
  }
}

/**
 * An address change, applied or reverted (user-settings.server.ts): the studios follow the
 * person. For every project the account owns or is an accepted member of, the old address is
 * taken out and the new one brought in (invited when it has no studio access yet), in the
 * change's transaction. Without this the hourly reconciliation would remove the old address and
 * nothing would invite the new one.
 */
export async function queueStudioAddressChange(
  tx: Queryable,
  userId: string,
  from: string,
  to: string,
) {
  const owned = await tx
    .select({ projectId: projects.id, studio: projects.studioSanityId })
    .from(projects)
    .where(eq(projects.ownerId, userId));
  const memberOf = await tx
    .select({ projectId: members.projectId, studio: projects.studioSanityId })
    .from(members)
    .innerJoin(projects, eq(projects.id, members.projectId))
    .where(and(eq(members.userId, userId), eq(members.status, "accepted")));
  const seen = new Set<string>();
  for (const row of [...owned, ...memberOf]) {
    if (seen.has(row.projectId) || !row.studio) continue;
    seen.add(row.projectId);
    // The old address goes, the person stays: the tokens they made are not revoked for it.
    await queueStudioSync(tx, {
      projectId: row.projectId,
      email: from,
      studio: row.studio,
      moved: true,
    });
    await queueStudioSync(tx, {
      projectId: row.projectId,
      email: to,
      studio: row.studio,
      invite: true,
    });
  }
}

/**
 * The studio access the dashboard grants, by lowercased e-mail: the owner and the accepted
 * members. `email` narrows it to one person.
 */
async function dashboardAccess(
  projectId: string,
  ownerId: string,
  email?: string,
): Promise<Map<string, StudioRole>> {
  const wanted = new Map<string, StudioRole>();
  const rows = await db()
    .select({ email: members.invitedEmail, role: members.role })
    .from(members)
    .where(
      and(
        eq(members.projectId, projectId),
        eq(members.status, "accepted"),
        email ? eq(members.invitedEmail, email) : undefined,
      ),
    );
  for (const row of rows) wanted.set(row.email.toLowerCase(), STUDIO_ROLE[row.role]);
  const [owner] = await db()
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, ownerId));
  // The owner's access wins over a member row of the same address (there should be none).
  if (owner && (!email || owner.email.toLowerCase() === email)) {
    wanted.set(owner.email.toLowerCase(), "administrator");
  }
  return wanted;
}

export type StudioFix = {
  /** Empty for a member the studio lists without an address (then `userId` names them). */
  email: string;
  userId?: string;
  action:
    | "removed"
    | "role-changed"
    | "invitation-revoked"
    | "invitation-renewed"
    | "invited"
    | "token-revoked";
  role?: string;
  /** For `token-revoked`: the token, by the studio's id and label. */
  tokenId?: string;
  label?: string;
};

const ADMINISTRATOR: StudioRole = "administrator";

/** How many token labels an Activity Log entry names before it counts the rest. */
const LABELS_NAMED = 10;

type ApplyOptions = {
  /** Only this address (a sync for one person); else the whole studio (the reconciliation). */
  only?: string;
  /** The dashboard project, when it still exists: the Activity Log entry goes there. */
  projectId?: string;
  /** The person keeps their access under another address: their tokens stay. */
  moved?: boolean;
};

/**
 * Revokes every API token of the studio (the provider never lists its own), because `losers`
 * lose the administrator role and the vendor cannot say which tokens they made. Logged, and
 * written to the project's Activity Log when the project still exists.
 */
async function revokeStudioTokens(
  studio: string,
  losers: string[],
  projectId: string | undefined,
): Promise<StudioFix[]> {
  const provider = contentStudioProvider();
  const tokens = await provider.listTokens(studio);
  const fixes: StudioFix[] = [];
  const who = losers.join(", ");
  for (const token of tokens) {
    await provider.revokeToken(studio, token.id);
    fixes.push({ email: who, action: "token-revoked", tokenId: token.id, label: token.label });
  }
  if (fixes.length > 0 && projectId) {
    const labels = tokens.map((t) => `'${t.label || t.id}'`);
    const named =
      labels.length > LABELS_NAMED
        ? `${labels.slice(0, LABELS_NAMED).join(", ")} and ${labels.length - LABELS_NAMED} more`
        : labels.join(", ");
    await logEvent(db(), {
      projectId,
      type: "studio.tokens.revoked",
      content:
        `${who} no longer administers the content studio. The studio does not record who ` +
        `made an API token, so all ${tokens.length} of its API tokens were revoked: ${named}. ` +
        "Make new ones in the studio where they are still needed.",
      label: "Studio API tokens revoked",
      metadata: losers.length === 1 && losers[0].includes("@") ? { email: losers[0] } : {},
      actorId: null,
    });
  }
  return fixes;
}

/**
 * Makes the studio match `wanted` for the people in `access` (all of them, or `only` one): a
 * member without dashboard access is removed, one with another role gets the dashboard's; a
 * pending invitation without access is revoked, one with another role sent again with the right
 * role. Nobody is invited here: that is the acceptance's job.
 */
async function applyAccess(
  studio: string,
  wanted: Map<string, StudioRole>,
  access: StudioAccess,
  { only, projectId, moved = false }: ApplyOptions = {},
): Promise<StudioFix[]> {
  const provider = contentStudioProvider();
  const fixes: StudioFix[] = [];
  // Administrators about to lose the role: their tokens go first (see the module comment).
  const losers = [
    ...access.members
      .filter((m) => !only || m.email === only)
      .filter((m) => m.roles.includes(ADMINISTRATOR) && wanted.get(m.email) !== ADMINISTRATOR)
      .map((m) => m.email),
    ...(only
      ? []
      : access.unaddressed
          .filter((m) => m.roles.includes(ADMINISTRATOR))
          .map((m) => `a studio administrator without an address (${m.id})`)),
  ];
  if (losers.length > 0 && !moved) {
    fixes.push(...(await revokeStudioTokens(studio, losers, projectId)));
  }
  for (const member of access.members) {
    if (only && member.email !== only) continue;
    const role = wanted.get(member.email);
    if (!role) {
      await provider.removeMember(studio, member.email);
      fixes.push({ email: member.email, action: "removed" });
    } else if (member.roles.length !== 1 || member.roles[0] !== role) {
      await provider.setMemberRole(studio, member.email, role);
      fixes.push({ email: member.email, action: "role-changed", role });
    }
  }
  for (const invitation of access.invitations) {
    if (only && invitation.email !== only) continue;
    const role = wanted.get(invitation.email);
    if (!role) {
      await provider.revokeInvite(studio, invitation.email);
      fixes.push({ email: invitation.email, action: "invitation-revoked" });
    } else if (invitation.role !== role) {
      // An invitation cannot change its role: a new one with the right role replaces it.
      await provider.revokeInvite(studio, invitation.email);
      await provider.inviteMember(studio, { email: invitation.email, role });
      fixes.push({ email: invitation.email, action: "invitation-renewed", role });
    }
  }
  // A member without an address cannot be one the dashboard let in (it grants access by
  // address): the reconciliation removes them by the studio's user id. A sync for one person
  // leaves them alone.
  if (!only) {
    for (const stranger of access.unaddressed) {
      await provider.removeMemberById(studio, stranger.id);
      fixes.push({ email: "", userId: stranger.id, action: "removed" });
    }
  }
  // This process's cached invitation states of the studio are stale now.
  if (fixes.length > 0) forgetSite("studio", studio);
  return fixes;
}

function fixFields(studio: string, fix: StudioFix) {
  return {
    studio,
    email: fix.email,
    action: fix.action,
    ...(fix.userId ? { userId: fix.userId } : {}),
    ...(fix.role ? { role: fix.role } : {}),
    ...(fix.tokenId ? { tokenId: fix.tokenId, label: fix.label } : {}),
  };
}

/**
 * STUDIO_SYNC_JOB: the studio access of one person on one project, as the dashboard has it now.
 * A project without a studio yet has nothing to fix; a project deleted meanwhile uses the studio
 * id the job carries (its studio is being deleted too, and a refusal from a studio already gone
 * is not retried). Retryable provider failures throw, so pg-boss tries again.
 */
export async function syncStudioAccess(input: {
  projectId: string;
  email: string;
  studio?: string;
  /** Invite the person when the dashboard grants access and the studio has none (an address change). */
  invite?: boolean;
  /** The old address of an address change: the person keeps access, so their tokens stay. */
  moved?: boolean;
}): Promise<StudioFix[] | "skipped"> {
  const email = input.email.trim().toLowerCase();
  if (!UUID.test(input.projectId) || !email) return "skipped";
  const [project] = await db()
    .select({ ownerId: projects.ownerId, studio: projects.studioSanityId })
    .from(projects)
    .where(eq(projects.id, input.projectId));
  const studio = project ? project.studio : input.studio;
  if (!studio) return "skipped";
  const wanted = project
    ? await dashboardAccess(input.projectId, project.ownerId, email)
    : new Map<string, StudioRole>();
  try {
    const access = await contentStudioProvider().listAccess(studio);
    const fixes = await applyAccess(studio, wanted, access, {
      only: email,
      projectId: project ? input.projectId : undefined,
      moved: input.moved,
    });
    const role = wanted.get(email);
    const known = [...access.members, ...access.invitations].some((p) => p.email === email);
    if (input.invite && role && !known) {
      await contentStudioProvider().inviteMember(studio, { email, role });
      forgetSite("studio", studio);
      fixes.push({ email, action: "invited", role });
    }
    for (const fix of fixes) note("studio access synced", fixFields(studio, fix));
    return fixes;
  } catch (error) {
    if (error instanceof ProviderError && !error.retryable) {
      log().warn(
        { area: "studio-sync", studio, email, reason: error.message },
        "studio access not synced: refused",
      );
      return "skipped";
    }
    throw error;
  }
}

export type ReconcileOutcome = {
  projects: number;
  fixes: StudioFix[];
  failed: number;
  /** The last project compared, when more remain (the next batch starts after it). */
  next: string | null;
};

/**
 * One batch of the reconciliation: the next `limit` provisioned projects after `after` (by id),
 * each compared with its studio and fixed. A project whose provider fails is logged and left for
 * the next run; the batch goes on.
 */
export async function reconcileStudios({
  after,
  limit = RECONCILE_BATCH,
}: { after?: string; limit?: number } = {}): Promise<ReconcileOutcome> {
  const batch = await db()
    .select({ id: projects.id, ownerId: projects.ownerId, studio: projects.studioSanityId })
    .from(projects)
    .where(
      and(
        isNotNull(projects.studioSanityId),
        after && UUID.test(after) ? gt(projects.id, after) : undefined,
      ),
    )
    .orderBy(asc(projects.id))
    .limit(limit);
  const fixes: StudioFix[] = [];
  let failed = 0;
  for (const project of batch) {
    const studio = project.studio!;
    try {
      const wanted = await dashboardAccess(project.id, project.ownerId);
      const access = await contentStudioProvider().listAccess(studio);
      for (const fix of await applyAccess(studio, wanted, access, { projectId: project.id })) {
        note("studio drift fixed", fixFields(studio, fix));
        fixes.push(fix);
      }
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      failed += 1;
      log().warn({ area: "studio-sync", studio, reason: error.message }, "studio not reconciled");
    }
  }
  return {
    projects: batch.length,
    fixes,
    failed,
    next: batch.length === limit ? batch[batch.length - 1].id : null,
  };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

export const studioAccessJobs: JobDefinition[] = [
  {
    name: STUDIO_SYNC_JOB,
    handler: async (data) => {
      await syncStudioAccess({
        projectId: text(data.projectId),
        email: text(data.email),
        ...(text(data.studio) ? { studio: text(data.studio) } : {}),
        invite: data.invite === true,
        moved: data.moved === true,
      });
    },
  },
  {
    name: STUDIO_RECONCILE_JOB,
    // Hourly at :17, on one process of the cluster; each batch hands the rest to a job of its own.
    schedule: "17 * * * *",
    handler: async (data) => {
      const outcome = await reconcileStudios({ after: text(data.after) || undefined });
      if (outcome.fixes.length > 0 || outcome.failed > 0) {
        note("studios reconciled", {
          projects: outcome.projects,
          fixes: outcome.fixes.length,
          failed: outcome.failed,
        });
      }
      if (outcome.next) {
        await sendJob(
          STUDIO_RECONCILE_JOB,
          { after: outcome.next },
          // One continuation per position an hour, however often this batch is retried.
          { ...RETRY, singletonKey: `after:${outcome.next}`, singletonSeconds: 3600 },
        );
      }
    },
  },
];
