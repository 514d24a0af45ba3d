/**
 * Personal access tokens: how scripts and CI call the JSON API (`Authorization: Bearer ...`)
 * without a browser session. Decision 029.
 *
 * - A token is `stackshift_pat_` + 32 random bytes; only its sha256 is stored, and the person
 *   sees it once, when it is made.
 * - It acts as its owner, read live on every request: it never has more rights than the owner
 *   has now (a removed member's token no longer reaches the project). `read` tokens only read;
 *   tokens limited to projects see the others as not there.
 * - It ends at its expiry, when its owner revokes it, or when a platform admin revokes a leaked
 *   one (the owner is mailed); deleting the account deletes its tokens.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, count, desc, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { apiTokens, projects, users } from "~/db/schema";
import { getUser, type ApiTokenGrant, type User } from "./accounts.server";
import { ForbiddenError, InvalidError, NotFoundError, UnauthorizedError } from "~/services/core";
import { dispatchMail, queueMail } from "~/services/core/index.server";
import { projectForAction, ProjectNotFoundError } from "~/services/permissions/index.server";
import { consume } from "~/services/core/index.server";
import {
  MAX_ACTIVE_TOKENS,
  TOKEN_PREFIX,
  type CreateTokenInput,
  type TokenScope,
} from "./api-tokens.schema";
import { log } from "~/utils/logger.server";

const DAY_MS = 24 * 60 * 60 * 1000;
/** last_used_at is written at most this often per token: a busy script is not a write per call. */
const TOUCH_AFTER_MS = 60 * 1000;

const hashOf = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

export type TokenView = {
  id: string;
  name: string;
  lastFour: string;
  scope: TokenScope;
  /** null: every project the owner can reach. */
  projects: { id: string; name: string }[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string;
  state: "active" | "expired" | "revoked";
};

const activeNow = (now: Date) => and(isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, now));

/**
 * Makes a token for `user`; the returned `token` is the only time anyone sees it. Its owner is
 * mailed that it was made and from which client address (decision 040): a token made with a
 * stolen session no longer goes unnoticed. The mail carries no secret.
 */
export async function createApiToken(
  user: User,
  input: CreateTokenInput,
  now = new Date(),
  { clientIp = "unknown" }: { clientIp?: string } = {},
): Promise<{ token: string; id: string }> {
  if (user.apiToken) throw new ForbiddenError("A token cannot make tokens: sign in to do that");
  const projectIds = [...new Set(input.projectIds.map((id) => id.toLowerCase()))];
  for (const id of projectIds) {
    // Only projects the person can see now; the token is read against their rights later too.
    const visible = await projectForAction(user, id, "project.view", { mode: "check" }).then(
      () => true,
      (error: unknown) => {
        if (error instanceof ProjectNotFoundError) return false;
        throw error;
      },
    );
    if (!visible) {
      throw new InvalidError("Choose projects from the list", {
        projectIds: ["Choose projects from the list"],
      });
    }
  }
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const made = await db().transaction(async (tx) => {
    // Counted under the owner's row lock, so two requests at once cannot pass the cap together.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
    const [{ active }] = await tx
      .select({ active: count() })
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, user.id), activeNow(now)));
    if (active >= MAX_ACTIVE_TOKENS) {
      throw new InvalidError("Too many tokens", {
        name: [`You have ${MAX_ACTIVE_TOKENS} active tokens: revoke one you no longer use first`],
      });
    }
    const [row] = await tx
      .insert(apiTokens)
      .values({
        userId: user.id,
        name: input.name,
        tokenHash: hashOf(token),
        lastFour: token.slice(-4),
        scope: input.scope,
        projectIds: projectIds.length ? projectIds : null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + input.lifetimeDays * DAY_MS),
      })
      .returning({ id: apiTokens.id });
    const mailId = await queueMail(tx, tokenMadeMail(user, input, { clientIp, now }));
    return { id: row.id, mailId };
  });
  await dispatchMail([made.mailId]);
  return { token, id: made.id };
}

function tokenMadeMail(
  user: User,
  input: CreateTokenInput,
  { clientIp, now }: { clientIp: string; now: Date },
) {
  const reach = input.projectIds.length
    ? `${input.projectIds.length} project${input.projectIds.length === 1 ? "" : "s"}`
    : "every project you can reach";
  const until = new Date(now.getTime() + input.lifetimeDays * DAY_MS).toUTCString();
  return {
    to: user.email,
    subject: "A new StackShift API token was made for your account",
    text: [
      `Hello ${user.name},`,
      "",
      `A token named "${input.name.replace(/\s+/g, " ")}" was made from address ${clientIp} on ${now.toUTCString()}.`,
      `It can ${input.scope === "read" ? "read" : "read and change"} ${reach} as you until ${until}.`,
      "",
      "If this was not you, someone else is signed in to your account. Open User Settings, choose 'Sign out everywhere else' (it also revokes every API token of the account) and change your password.",
      "",
      "The StackShift team",
    ].join("\n"),
  };
}

/** The person's tokens, newest first: active ones, and ended ones for 30 days after they ended. */
export async function listApiTokens(user: User, now = new Date()): Promise<TokenView[]> {
  const since = new Date(now.getTime() - 30 * DAY_MS);
  const rows = await db()
    .select()
    .from(apiTokens)
    .where(
      and(
        eq(apiTokens.userId, user.id),
        or(activeNow(now), gt(apiTokens.revokedAt, since), gt(apiTokens.expiresAt, since)),
      ),
    )
    .orderBy(desc(apiTokens.createdAt))
    .limit(200);
  const ids = [...new Set(rows.flatMap((r) => r.projectIds ?? []))];
  const names = ids.length
    ? new Map(
        (
          await db()
            .select({ id: projects.id, name: projects.name })
            .from(projects)
            .where(inArray(projects.id, ids))
        ).map((p) => [p.id, p.name]),
      )
    : new Map<string, string>();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    lastFour: r.lastFour,
    scope: r.scope,
    // A deleted project drops out of the list (the token can no longer reach it anyway).
    projects: r.projectIds
      ? r.projectIds.flatMap((id) => (names.has(id) ? [{ id, name: names.get(id)! }] : []))
      : null,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    expiresAt: r.expiresAt.toISOString(),
    state: r.revokedAt ? "revoked" : r.expiresAt <= now ? "expired" : "active",
  }));
}

/** The owner revokes one of their tokens; it is refused from the next request on. */
export async function revokeApiToken(user: User, tokenId: string): Promise<{ name: string }> {
  const [row] = await db()
    .update(apiTokens)
    .set({ revokedAt: new Date(), revokedBy: user.id })
    .where(
      and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, user.id), isNull(apiTokens.revokedAt)),
    )
    .returning({ name: apiTokens.name });
  if (!row) throw new NotFoundError("Token not found");
  return row;
}

/**
 * A platform admin revokes a token found where it should not be (a public repository, a log):
 * by the token itself, since that is what a secret scanner reports. Its owner is mailed.
 */
export async function revokeLeakedToken(
  admin: User,
  token: string,
): Promise<{ name: string; ownerEmail: string }> {
  if (!admin.isAdmin) throw new NotFoundError("Not Found");
  const { revoked, mailId } = await db().transaction(async (tx) => {
    const [row] = await tx
      .select({
        id: apiTokens.id,
        name: apiTokens.name,
        revokedAt: apiTokens.revokedAt,
        ownerEmail: users.email,
      })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(eq(apiTokens.tokenHash, hashOf(token.trim())))
      .for("update", { of: apiTokens });
    if (!row) {
      throw new InvalidError("No token matches", {
        token: ["No StackShift token matches this one: it may have been deleted with its account"],
      });
    }
    if (row.revokedAt) return { revoked: row, mailId: null };
    await tx
      .update(apiTokens)
      .set({ revokedAt: new Date(), revokedBy: admin.id })
      .where(eq(apiTokens.id, row.id));
    log().info({ area: "tokens", tokenId: row.id, adminId: admin.id }, "leaked token revoked");
    const id = await queueMail(tx, {
      to: row.ownerEmail,
      subject: `Your StackShift API token ${row.name} was revoked`,
      text: [
        "Hello,",
        "",
        `The StackShift support team revoked your personal access token "${row.name}" because it was found outside your control (for example in a public repository or a log).`,
        "",
        "Scripts using it are refused from now on. Make a new token in your User Settings, under API tokens, and keep it in your CI's secret store.",
        "",
        "The StackShift team",
      ].join("\n"),
    });
    return { revoked: row, mailId: id };
  });
  if (mailId) await dispatchMail([mailId]);
  return { name: revoked.name, ownerEmail: revoked.ownerEmail };
}

/**
 * The owner of `token` with the token's grant, for one API request; UnauthorizedError when it is
 * unknown, expired or revoked (one message: the caller learns nothing about which). Counts the
 * request against the token's rate limit.
 */
export async function authenticateApiToken(token: string, now = new Date()): Promise<User> {
  const refused = new UnauthorizedError("Invalid, expired or revoked token");
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) throw refused;
  const [row] = await db()
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, hashOf(token)), activeNow(now)))
    .limit(1);
  if (!row) throw refused;
  const owner = await getUser(row.userId);
  if (!owner) throw refused;
  await consume("apiToken", `token:${row.id}`);
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_AFTER_MS) {
    await db()
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiTokens.id, row.id),
          or(
            isNull(apiTokens.lastUsedAt),
            lt(apiTokens.lastUsedAt, sql`${now}::timestamptz - interval '1 minute'`),
          ),
        ),
      );
  }
  const grant: ApiTokenGrant = {
    id: row.id,
    name: row.name,
    scope: row.scope,
    projectIds: row.projectIds,
  };
  return { ...owner, apiToken: grant };
}
