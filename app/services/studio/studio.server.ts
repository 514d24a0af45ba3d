/**
 * Studio activation and launch (the activation card, the recap screen, the launch): whether the
 * user accepted the content provider's invitation, resending it, and the
 * short-lived signed token that opens the studio in a new window.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { db } from "~/db/client.server";
import { members, projects, users } from "~/db/schema";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { ProviderError } from "~/providers/errors";
import { cachedProviderRead } from "~/services/core/index.server";
import { STUDIO_ROLE } from "./studio-access.server";
import { env } from "~/utils/env.server";
import { getUser, type User } from "~/services/accounts/index.server";
import {
  ConflictError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  UpstreamError,
} from "~/services/core";
import { asUpstream } from "~/services/core/index.server";
import {
  projectForAction,
  type Action,
  withProjectAction,
} from "~/services/permissions/index.server";
import { SCHEMA_VERSION_THEME_PREVIEW, upgradeRequired } from "~/services/projects";
import { getProject, type Project } from "~/services/projects/index.server";
import { LAUNCH_TOKEN_TTL_SECONDS } from "./studio.schema";
import { log } from "~/utils/logger.server";

/** The content provider failed (down, rate limited, refused). The UI offers a retry. */
export class StudioProviderError extends UpstreamError {}

function providerFailure(error: unknown, message: string): never {
  throw asUpstream(error, message, {
    log: { area: "studio", msg: message },
    // Not `retryable`: a 502 either way; the UI's retry button is the way to try again.
    retryable: false,
    errorClass: StudioProviderError,
  });
}

// ---------------------------------------------------------------------------------------------
// Activation

type ActivationProject = Pick<
  Project,
  "_id" | "studioSanityId" | "inviteToProjectAccepted" | "isOwner"
>;

// Dashboards poll every 30 s. A member's acceptance does not go back (and has no column), so
// it is remembered here a while instead of asking the vendor on every poll.
const acceptedUntil = new Map<string, number>();
const ACCEPTED_TTL_MS = 10 * 60_000;

/**
 * Whether the user accepted the content provider's invitation. projects.inviteToProjectAccepted
 * records the owner's acceptance (the invitation provisioning sends); members are asked of the
 * provider. A provider failure reads as "not accepted" rather than breaking the dashboard.
 */
export async function activationState(
  user: User,
  project: ActivationProject,
): Promise<{ accepted: boolean }> {
  if (project.isOwner && project.inviteToProjectAccepted) return { accepted: true };
  const studio = project.studioSanityId;
  if (!studio) return { accepted: false };
  const key = `${studio}\n${user.email.toLowerCase()}`;
  if ((acceptedUntil.get(key) ?? 0) > Date.now()) return { accepted: true };
  let accepted: boolean;
  try {
    // Through the provider cache: a member who has not accepted yet asks on every view and on
    // the dashboard's 30 s refresh, which would spend the vendor's rate limit.
    const status = await cachedProviderRead(
      "studio",
      studio,
      `invitation:${user.email.toLowerCase()}`,
      async () => ({
        value: await contentStudioProvider().invitationStatus(studio, user.email),
        calls: 1,
        settled: true,
      }),
    );
    accepted = status === "accepted";
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    log().warn({ area: "studio", studio, reason: error.message }, "invitation status unavailable");
    return { accepted: false };
  }
  if (!accepted) return { accepted: false };
  if (acceptedUntil.size > 10_000) acceptedUntil.clear();
  acceptedUntil.set(key, Date.now() + ACCEPTED_TTL_MS);
  if (project.isOwner) await recordOwnerAcceptance(project._id);
  return { accepted: true };
}

async function recordOwnerAcceptance(projectId: string) {
  await db()
    .update(projects)
    .set({ inviteToProjectAccepted: true, updatedAt: new Date() })
    .where(and(eq(projects.id, projectId), eq(projects.inviteToProjectAccepted, false)));
}

/** A project the user may see, by _id, studioId or the content provider's project id. */
async function visibleProject(user: User, ref: string): Promise<Project> {
  try {
    return await getProject(user, ref);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const [row] = await db()
      .select({ id: projects.id })
      .from(projects)
      .where(eq(projects.studioSanityId, ref))
      .limit(1);
    if (!row) throw error;
    return getProject(user, row.id);
  }
}

/**
 * The project role behind an e-mail that grants studio access: the owner, or an accepted member.
 * An invited member has none until they accept (their studio invitation follows the acceptance).
 */
async function roleOfEmail(
  project: Project,
  address: string,
): Promise<keyof typeof STUDIO_ROLE | null> {
  if (project.owner.email.toLowerCase() === address) return "owner";
  const [row] = await db()
    .select({ role: members.role })
    .from(members)
    .where(
      and(
        eq(members.projectId, project._id),
        eq(members.invitedEmail, address),
        eq(members.status, "accepted"),
      ),
    )
    .limit(1);
  return row?.role ?? null;
}

export type ResendOutcome = "resent" | "invited" | "accepted";

/**
 * Resend Invitation (POST /api/app/project-invite): asks the content provider to e-mail the
 * invitation again. Members may resend their own; the owner and admins also a member's. An
 * e-mail the provider never invited gets a first invitation; an accepted one needs nothing.
 * Support (decision 011) may resend a member's; each invitation it has sent is a support
 * change in the Activity Log and the audit log.
 */
export async function resendStudioInvite(
  user: User,
  projectRef: string,
  email: string,
): Promise<{ outcome: ResendOutcome; email: string }> {
  const project = await visibleProject(user, projectRef);
  const address = email.trim().toLowerCase();
  if (
    address !== user.email.toLowerCase() &&
    project.role !== "owner" &&
    project.role !== "admin" &&
    project.role !== "support"
  ) {
    throw new ForbiddenError("You can only resend your own studio invitation");
  }
  const role = await roleOfEmail(project, address);
  if (!role) {
    throw new InvalidError("This email is not a member of the project", {
      email: ["This email is not a member of the project"],
    });
  }
  const studio = project.studioSanityId;
  if (!studio) throw new ConflictError("The content studio is not ready yet. Try again shortly.");

  const provider = contentStudioProvider();
  const failure = "Failed to resend sanity email!";
  let outcome: ResendOutcome;
  try {
    const status = await provider.invitationStatus(studio, address);
    if (status === "accepted") {
      if (role === "owner") await recordOwnerAcceptance(project._id);
      return { outcome: "accepted", email: address };
    }
    if (status === "pending") {
      await provider.resendInvite(studio, address);
      outcome = "resent";
    } else {
      await provider.inviteMember(studio, { email: address, role: STUDIO_ROLE[role] });
      outcome = "invited";
    }
  } catch (error) {
    return providerFailure(error, failure);
  }
  if (project.role === "support") {
    await withProjectAction(user, project._id, "members.add", () => undefined, {
      change: `resent the studio invitation of ${address}`,
    });
  }
  return { outcome, email: address };
}

// ---------------------------------------------------------------------------------------------
// Launch token: base64url(JSON claims) "." base64url(HMAC-SHA256). The key is derived from
// SESSION_SECRET for this one purpose, so no other signed value can pass for a launch token.

/**
 * What a launch opens: the studio itself, or one of its tools. The tools need other rights than
 * the studio (admin or developer role, owner, or a platform admin as support), and skip the splash.
 */
export const LAUNCH_TARGETS = ["studio", "theme-preview", "dev-console"] as const;
export type LaunchTarget = (typeof LAUNCH_TARGETS)[number];

const TARGET_ACTION = {
  studio: "studio.launch",
  "theme-preview": "theme.preview",
  "dev-console": "devconsole.launch",
} as const satisfies Record<LaunchTarget, Action>;

export type LaunchClaims = {
  studioId: string;
  target: LaunchTarget;
  userId: string;
  /** Who launched: the user's name, or e-mail when the name is empty. */
  label: string;
  expiresAt: Date;
};

const claimsSchema = z.object({
  s: z.string().min(1).max(100),
  u: z.string().min(1).max(100),
  l: z.string().max(300),
  e: z.number().int().positive(),
  n: z.string().max(64),
  // Absent in tokens for the studio itself.
  t: z.enum(LAUNCH_TARGETS).optional(),
});

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,2048}\.[A-Za-z0-9_-]{43}$/;

function launchKey() {
  return createHmac("sha256", env().SESSION_SECRET).update("stackshift:studio-launch:v1").digest();
}

function signature(body: string) {
  return createHmac("sha256", launchKey()).update(body).digest("base64url");
}

export function launchLabel(user: Pick<User, "name" | "email">) {
  return (user.name.trim() || user.email).slice(0, 300);
}

/** A token that opens the project's studio for this user during the next 2 minutes. */
export function createLaunchToken(
  user: User,
  project: Pick<Project, "studioId">,
  now = Date.now(),
  target: LaunchTarget = "studio",
): string {
  const claims: z.infer<typeof claimsSchema> = {
    s: project.studioId,
    u: user.id,
    l: launchLabel(user),
    e: Math.floor(now / 1000) + LAUNCH_TOKEN_TTL_SECONDS,
    n: randomBytes(9).toString("base64url"),
    ...(target === "studio" ? {} : { t: target }),
  };
  const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${body}.${signature(body)}`;
}

/** The token's claims; InvalidError when it is malformed, tampered with or expired. */
export function verifyLaunchToken(token: string, now = Date.now()): LaunchClaims {
  const invalid = () => new InvalidError("This studio link is invalid or has expired");
  if (typeof token !== "string" || !TOKEN_SHAPE.test(token)) throw invalid();
  const [body, sig] = token.split(".");
  const expected = Buffer.from(signature(body));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  const claims = claimsSchema.safeParse(parsed);
  if (!claims.success || claims.data.e * 1000 <= now) throw invalid();
  return {
    studioId: claims.data.s,
    target: claims.data.t ?? "studio",
    userId: claims.data.u,
    label: claims.data.l,
    expiresAt: new Date(claims.data.e * 1000),
  };
}

/** Where the studio opens: the URL provisioning recorded, else the provider's answer. */
async function studioUrlOf(project: Project): Promise<string> {
  if (project.studioUrl) return project.studioUrl;
  if (!project.studioSanityId) {
    throw new ConflictError("The content studio is not ready yet. Try again shortly.");
  }
  try {
    return (await contentStudioProvider().getStudio(project.studioSanityId)).studioUrl;
  } catch (error) {
    return providerFailure(error, "Experience has encountered an error!");
  }
}

export function autologinPath(studioId: string, token: string) {
  return `/studios/autologin/${encodeURIComponent(studioId)}?token=${token}`;
}

/**
 * The project, once the user may open the target: the studio ("studio.launch": members, not
 * support), Theme Preview (which also needs its schema version) or the Dev Console.
 */
async function launchableProject(
  user: User,
  studioId: string,
  target: LaunchTarget = "studio",
): Promise<Project> {
  await projectForAction(user, studioId, TARGET_ACTION[target]);
  const project = await getProject(user, studioId);
  if (
    target === "theme-preview" &&
    upgradeRequired(project.schemaVersion, SCHEMA_VERSION_THEME_PREVIEW)
  ) {
    throw new ConflictError(
      `Theme Preview needs StackShift version ${SCHEMA_VERSION_THEME_PREVIEW} or later.`,
    );
  }
  return project;
}

/**
 * 'Take me to Studio', Theme Preview and Dev Console: checks access and readiness, and hands out
 * the launch address (a token valid for two minutes).
 */
export async function prepareLaunch(
  user: User,
  studioId: string,
  target: LaunchTarget = "studio",
): Promise<{ url: string }> {
  const project = await launchableProject(user, studioId, target);
  if (!project.studioUrl && !project.studioSanityId) {
    throw new ConflictError("The content studio is not ready yet. Try again shortly.");
  }
  const token = createLaunchToken(user, project, Date.now(), target);
  return { url: autologinPath(project.studioId, token) };
}

/** Where a tool of the studio lives: a path under the studio's address. */
export function toolUrl(studioUrl: string, target: LaunchTarget): string {
  if (target === "studio") return studioUrl;
  return `${studioUrl.replace(/\/+$/, "")}/${target}`;
}

export type LaunchView = {
  studioId: string;
  projectName: string;
  label: string;
  studioUrl: string;
  showSplash: boolean;
};

/**
 * The autologin page: the token names the user and the studio. Access is checked again (it may
 * have been removed since), and the user's splash preference decides what the page does.
 */
export async function resolveLaunch(token: string, studioId: string): Promise<LaunchView> {
  const claims = verifyLaunchToken(token);
  if (claims.studioId !== studioId) {
    throw new InvalidError("This studio link is invalid or has expired");
  }
  const user = await getUser(claims.userId);
  if (!user) throw new InvalidError("This studio link is invalid or has expired");
  const project = await launchableProject(user, claims.studioId, claims.target);
  const studioUrl = toolUrl(await studioUrlOf(project), claims.target);
  // The tools open at once: the splash introduces the studio only.
  if (claims.target !== "studio") {
    return {
      studioId: project.studioId,
      projectName: project.name,
      label: claims.label,
      studioUrl,
      showSplash: false,
    };
  }
  const [row] = await db()
    .select({ hide: users.hideStudioSplash })
    .from(users)
    .where(eq(users.id, user.id));
  return {
    studioId: project.studioId,
    projectName: project.name,
    label: claims.label,
    studioUrl,
    showSplash: !row?.hide,
  };
}

/** The splash's 'Take me to Studio': saves 'do not show this splash again', returns the URL. */
export async function finishLaunch(
  user: User,
  studioId: string,
  hideSplash: boolean,
): Promise<{ studioUrl: string }> {
  const project = await launchableProject(user, studioId);
  const studioUrl = await studioUrlOf(project);
  await setHideSplash(user, hideSplash);
  return { studioUrl };
}

/** users.hideStudioSplash: remembered per user, for every project. */
export async function setHideSplash(user: User, hidden: boolean) {
  await db()
    .update(users)
    .set({ hideStudioSplash: hidden, updatedAt: new Date() })
    .where(eq(users.id, user.id));
}
