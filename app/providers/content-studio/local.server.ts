/**
 * The built-in content studio (PROVIDERS=local): behaves like Sanity with its state in
 * local_studios / local_studio_invites (feature flags in local_studios.features). Invitations are
 * e-mailed for real through the outbox, and their link accepts them on the stand-in studio page
 * (app/routes/local.studio.$projectId.tsx). deleteStudio removes the studio row, and its
 * invitations with it (local_studio_invites cascades); an unknown studio is already deleted.
 * An accepted invitation is a membership: removing a member deletes its row (as Sanity forgets
 * a removed member), revoking marks a pending one revoked, a role change rewrites its role.
 * API tokens live in local_studio_tokens (the key hashed); like Sanity's token list, a token
 * records its label, role and time, not who made it. Revoking deletes the row, so the key stops
 * working (localStudioTokenWorks).
 */
import { createHash, randomBytes, randomInt } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
// The local provider is the vendor here: its state lives in our database (decision 009).
import { db } from "~/db/client.server";
import { localStudioInvites, localStudios, localStudioTokens } from "~/db/schema";
import { dispatchMail, queueMail } from "~/services/core/index.server";
import { forgetSite } from "~/services/core/index.server";
import { env } from "~/utils/env.server";
import { ProviderError } from "../errors";
import type {
  ContentStudioProvider,
  InvitationStatus,
  Studio,
  StudioAccess,
  StudioPeople,
  StudioRole,
} from "./types";

const PROVIDER = "local";
const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** Sanity project ids look like this: 8 lowercase letters and digits. */
function newStudioId() {
  let id = "";
  for (let i = 0; i < 8; i += 1) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

export function localStudioUrl(projectId: string) {
  return `${env().APP_URL}/local/studio/${encodeURIComponent(projectId)}`;
}

/** The link in the invitation e-mail; the invite id is unguessable, so it is the credential. */
export function localInviteUrl(projectId: string, inviteId: string) {
  return `${localStudioUrl(projectId)}?accept=${encodeURIComponent(inviteId)}`;
}

function toStudio(row: { id: string; displayName: string }): Studio {
  return { projectId: row.id, displayName: row.displayName, studioUrl: localStudioUrl(row.id) };
}

function notFound(projectId: string) {
  return new ProviderError(`Studio ${projectId} not found`, {
    provider: PROVIDER,
    status: 404,
    code: "notFound",
  });
}

async function findStudio(projectId: string) {
  if (!projectId || projectId.length > 100) return undefined;
  const [row] = await db().select().from(localStudios).where(eq(localStudios.id, projectId));
  return row;
}

async function requireStudio(projectId: string) {
  const row = await findStudio(projectId);
  if (!row) throw notFound(projectId);
  return row;
}

function invitationMail(
  studio: { id: string; displayName: string },
  invite: { id: string; email: string },
) {
  const link = localInviteUrl(studio.id, invite.id);
  return {
    to: invite.email,
    subject: `You are invited to the content studio ${studio.displayName}`,
    text: [
      `You have been invited to edit content in ${studio.displayName} (StackShift Studio).`,
      "",
      `Accept the invitation: ${link}`,
      "",
      "If you did not expect this e-mail, you can ignore it.",
    ].join("\n"),
  };
}

/** Appends `value` to a jsonb string array column unless it is already there (one statement). */
function appendOnce(column: typeof localStudios.datasets | typeof localStudios.corsOrigins) {
  return (value: string) =>
    sql`case when ${column} @> ${JSON.stringify([value])}::jsonb then ${column} else ${column} || ${JSON.stringify([value])}::jsonb end`;
}

export function createLocalContentStudio(): ContentStudioProvider {
  return {
    async createStudio({ displayName, idempotencyKey }) {
      // A clash on the key returns the first studio; a clash on a fresh id just tries another.
      for (let attempt = 0; attempt < 5; attempt += 1) {
        await db()
          .insert(localStudios)
          .values({ id: newStudioId(), displayName, idempotencyKey })
          .onConflictDoNothing();
        const [row] = await db()
          .select()
          .from(localStudios)
          .where(eq(localStudios.idempotencyKey, idempotencyKey));
        if (row) return toStudio(row);
      }
      throw new ProviderError("Could not allocate a studio id", { provider: PROVIDER });
    },

    async getStudio(projectId) {
      return toStudio(await requireStudio(projectId));
    },

    async ensureDataset(projectId, name) {
      const [row] = await db()
        .update(localStudios)
        .set({ datasets: appendOnce(localStudios.datasets)(name) })
        .where(eq(localStudios.id, projectId))
        .returning({ id: localStudios.id });
      if (!row) throw notFound(projectId);
    },

    async addCorsOrigin(projectId, origin) {
      const [row] = await db()
        .update(localStudios)
        .set({ corsOrigins: appendOnce(localStudios.corsOrigins)(origin) })
        .where(eq(localStudios.id, projectId))
        .returning({ id: localStudios.id });
      if (!row) throw notFound(projectId);
    },

    async inviteMember(projectId, { email, role }) {
      await invite(projectId, email.trim().toLowerCase(), role);
    },

    async resendInvite(projectId, email) {
      const studio = await requireStudio(projectId);
      const address = email.trim().toLowerCase();
      const mailId = await db().transaction(async (tx) => {
        const [row] = await tx
          .update(localStudioInvites)
          .set({ sentCount: sql`${localStudioInvites.sentCount} + 1`, updatedAt: new Date() })
          .where(
            and(
              eq(localStudioInvites.studioId, projectId),
              eq(localStudioInvites.email, address),
              eq(localStudioInvites.status, "pending"),
            ),
          )
          .returning();
        if (!row) return null;
        return queueMail(tx, invitationMail(studio, row));
      });
      // Like the vendor: there is nothing to resend without a pending invitation.
      if (!mailId) {
        throw new ProviderError(`No pending invitation for ${address}`, {
          provider: PROVIDER,
          status: 404,
          code: "notFound",
        });
      }
      await dispatchMail([mailId]);
    },

    async invitationStatus(projectId, email) {
      await requireStudio(projectId);
      const [row] = await db()
        .select({ status: localStudioInvites.status })
        .from(localStudioInvites)
        .where(
          and(
            eq(localStudioInvites.studioId, projectId),
            eq(localStudioInvites.email, email.trim().toLowerCase()),
          ),
        );
      const status: InvitationStatus =
        row?.status === "accepted" ? "accepted" : row?.status === "pending" ? "pending" : "none";
      return status;
    },

    async listAccess(projectId) {
      await requireStudio(projectId);
      return listAccessOf(projectId);
    },

    async removeMember(projectId, email) {
      await requireStudio(projectId);
      await db()
        .delete(localStudioInvites)
        .where(
          and(
            eq(localStudioInvites.studioId, projectId),
            eq(localStudioInvites.email, email.trim().toLowerCase()),
            eq(localStudioInvites.status, "accepted"),
          ),
        );
      forgetSite("studio", projectId);
    },

    async removeMemberById(projectId, userId) {
      await requireStudio(projectId);
      await db()
        .delete(localStudioInvites)
        .where(
          and(
            eq(localStudioInvites.studioId, projectId),
            eq(localStudioInvites.id, userId),
            eq(localStudioInvites.status, "accepted"),
          ),
        );
      forgetSite("studio", projectId);
    },

    async setMemberRole(projectId, email, role) {
      await requireStudio(projectId);
      const address = email.trim().toLowerCase();
      const [row] = await db()
        .update(localStudioInvites)
        .set({ role, updatedAt: new Date() })
        .where(
          and(
            eq(localStudioInvites.studioId, projectId),
            eq(localStudioInvites.email, address),
            eq(localStudioInvites.status, "accepted"),
          ),
        )
        .returning({ id: localStudioInvites.id });
      if (!row) {
        throw new ProviderError(`${address} is not a member of studio ${projectId}`, {
          provider: PROVIDER,
          status: 404,
          code: "notFound",
        });
      }
    },

    async revokeInvite(projectId, email) {
      await requireStudio(projectId);
      await db()
        .update(localStudioInvites)
        .set({ status: "revoked", updatedAt: new Date() })
        .where(
          and(
            eq(localStudioInvites.studioId, projectId),
            eq(localStudioInvites.email, email.trim().toLowerCase()),
            eq(localStudioInvites.status, "pending"),
          ),
        );
    },

    async listTokens(projectId) {
      await requireStudio(projectId);
      const rows = await db()
        .select()
        .from(localStudioTokens)
        .where(eq(localStudioTokens.studioId, projectId))
        .orderBy(asc(localStudioTokens.createdAt), asc(localStudioTokens.id));
      return rows.map((row) => ({
        id: row.id,
        label: row.label,
        roles: [row.role],
        createdAt: row.createdAt.toISOString(),
      }));
    },

    async revokeToken(projectId, tokenId) {
      await requireStudio(projectId);
      await db()
        .delete(localStudioTokens)
        .where(and(eq(localStudioTokens.studioId, projectId), eq(localStudioTokens.id, tokenId)));
    },

    async setFeatureFlag(projectId, flag, enabled) {
      // One statement: two flags switched at once must not overwrite each other.
      const [row] = await db()
        .update(localStudios)
        .set({
          features: sql`${localStudios.features} || jsonb_build_object(${flag}::text, ${enabled}::boolean)`,
        })
        .where(eq(localStudios.id, projectId))
        .returning({ id: localStudios.id });
      if (!row) throw notFound(projectId);
    },

    async deleteStudio(projectId) {
      // Deleting nothing (an unknown or already deleted studio) is fine: the delete is idempotent.
      if (!projectId || projectId.length > 100) return;
      await db().delete(localStudios).where(eq(localStudios.id, projectId));
    },
  };
}

/**
 * Records (or renews) the pending invitation and mails it. An accepted member is left alone and
 * gets no mail, as the vendor does; a revoked one is invited afresh.
 */
async function invite(projectId: string, address: string, role: StudioRole) {
  const studio = await requireStudio(projectId);
  const mailId = await db().transaction(async (tx) => {
    const [row] = await tx
      .insert(localStudioInvites)
      .values({
        id: randomBytes(16).toString("base64url"),
        studioId: projectId,
        email: address,
        role,
      })
      .onConflictDoUpdate({
        target: [localStudioInvites.studioId, localStudioInvites.email],
        set: {
          role,
          status: "pending",
          sentCount: sql`${localStudioInvites.sentCount} + 1`,
          updatedAt: new Date(),
        },
        setWhere: sql`${localStudioInvites.status} <> 'accepted'`,
      })
      .returning();
    return row ? queueMail(tx, invitationMail(studio, row)) : null;
  });
  if (mailId) await dispatchMail([mailId]);
}

const keyHash = (key: string) => createHash("sha256").update(key).digest("hex");

/**
 * An API token made in the local studio, as an administrator makes one in the vendor's manage
 * interface (the dashboard never makes studio tokens): the key is returned once.
 */
export async function createLocalStudioToken(
  projectId: string,
  input: { label: string; role: StudioRole },
): Promise<{ id: string; key: string }> {
  await requireStudio(projectId);
  const id = randomBytes(9).toString("base64url");
  const key = `sk${randomBytes(32).toString("base64url")}`;
  await db()
    .insert(localStudioTokens)
    .values({
      id,
      studioId: projectId,
      label: input.label,
      role: input.role,
      keyHash: keyHash(key),
    });
  return { id, key };
}

/** Whether the local studio would accept this key now (a revoked token's key is refused). */
export async function localStudioTokenWorks(projectId: string, key: string): Promise<boolean> {
  const [row] = await db()
    .select({ id: localStudioTokens.id })
    .from(localStudioTokens)
    .where(
      and(eq(localStudioTokens.studioId, projectId), eq(localStudioTokens.keyHash, keyHash(key))),
    );
  return Boolean(row);
}

// ---------------------------------------------------------------------------------------------
// The stand-in studio page reaches its tables through these (routes never import app/db).

export type LocalStudioPage = { id: string; displayName: string };
export type LocalInvite = { id: string; email: string; status: "pending" | "accepted" | "revoked" };

/** Members (accepted invitations) and pending invitations, by e-mail. */
async function listAccessOf(projectId: string): Promise<StudioAccess> {
  const rows = await db()
    .select({
      email: localStudioInvites.email,
      role: localStudioInvites.role,
      status: localStudioInvites.status,
    })
    .from(localStudioInvites)
    .where(eq(localStudioInvites.studioId, projectId))
    .orderBy(asc(localStudioInvites.email));
  return {
    members: rows
      .filter((r) => r.status === "accepted")
      .map(({ email, role }) => ({ email, roles: [role] })),
    invitations: rows
      .filter((r) => r.status === "pending")
      .map(({ email, role }) => ({ email, role })),
    // Every local member has an address (local_studio_invites.email is required).
    unaddressed: [],
  };
}

/**
 * The studio page's Members table, shown to the studio's own members only (as the vendor's
 * members page is): null for anyone else.
 */
export async function localStudioAccessFor(
  projectId: string,
  email: string,
): Promise<StudioPeople | null> {
  const { members, invitations } = await listAccessOf(projectId);
  const address = email.trim().toLowerCase();
  return members.some((m) => m.email === address) ? { members, invitations } : null;
}

export async function getLocalStudio(projectId: string): Promise<LocalStudioPage | null> {
  const row = await findStudio(projectId);
  return row ? { id: row.id, displayName: row.displayName } : null;
}

export async function findLocalInvite(
  projectId: string,
  inviteId: string,
): Promise<LocalInvite | null> {
  if (!inviteId || inviteId.length > 100) return null;
  const [row] = await db()
    .select({
      id: localStudioInvites.id,
      email: localStudioInvites.email,
      status: localStudioInvites.status,
    })
    .from(localStudioInvites)
    .where(and(eq(localStudioInvites.id, inviteId), eq(localStudioInvites.studioId, projectId)));
  return row ?? null;
}

export type AcceptOutcome =
  | { outcome: "accepted"; invite: LocalInvite }
  | { outcome: "missing" }
  | { outcome: "otherAddress" };

/**
 * Accepts a pending invitation for the signed-in person whose address it was sent to: the link
 * alone (forwarded, leaked) must not join anyone else. "missing" when the link names none (wrong,
 * revoked).
 */
export async function acceptLocalInvite(
  projectId: string,
  inviteId: string,
  email: string,
): Promise<AcceptOutcome> {
  const invite = await findLocalInvite(projectId, inviteId);
  if (!invite || invite.status === "revoked") return { outcome: "missing" };
  if (invite.email !== email.trim().toLowerCase()) return { outcome: "otherAddress" };
  if (invite.status === "accepted") return { outcome: "accepted", invite };
  const [row] = await db()
    .update(localStudioInvites)
    .set({ status: "accepted", updatedAt: new Date() })
    .where(and(eq(localStudioInvites.id, inviteId), eq(localStudioInvites.status, "pending")))
    .returning({
      id: localStudioInvites.id,
      email: localStudioInvites.email,
      status: localStudioInvites.status,
    });
  if (row) {
    // As a vendor's webhook would: the dashboard's cached "not accepted yet" is over.
    forgetSite("studio", projectId);
    return { outcome: "accepted", invite: row };
  }
  // Changed meanwhile: accepted by a concurrent request, or revoked.
  const current = await findLocalInvite(projectId, inviteId);
  return current?.status === "accepted"
    ? { outcome: "accepted", invite: current }
    : { outcome: "missing" };
}
