/**
 * The one place that answers "may actor X do Y on project P" (docs/architecture.md). Services act
 * on a project through one path, `withProjectAction(user, ref, action, run, options)`: it
 * resolves the project by _id or studioId, computes the actor, checks the action (`assertCan`),
 * records support access and hands `run` the project row and the actor, both typed non-null. A
 * change (the default mode) runs in one transaction, the caller's `tx` or one it opens, so the
 * change, its activity event and the support-access row commit together. Page loaders read with
 * mode "read" (or `projectForAction`, the same call without a callback): no transaction, and the
 * page view's memoised project row and actor, so a view adds no query. Mode "check" checks
 * without recording, before an outside call whose change then checks again in its transaction.
 * Routes never decide access themselves. tests/integration/permissions-table.test.ts checks every
 * route against every actor.
 *
 * Actors. `kind` is the user's relation to the project; `platformAdmin` (isAdmin) is a separate
 * flag, because a platform admin can also own or be a member of a project:
 *   anonymous  no session
 *   outsider   signed in, no relation to the project (also: the project does not exist)
 *   invited    a member row with status "invited" (not accepted yet; expired ones too)
 *   editor | developer | admin   an accepted member with that role
 *   owner      projects.ownerId
 * The relation is read from the database on every call (`actorForProject`; a page view's loaders
 * share one read), so a role change or a removal applies on the very next request.
 *
 * Rules ("PA" = platform admin, on any project):
 *
 *   action               anon outsider invited editor developer admin owner  PA
 *   project.view           -     -        -       x       x       x     x    x   (1)
 *   activity.view          -     -        -       x       x       x     x    x   (1)
 *   project.deploy         -     -        -       x       x       x     x    -   (2)
 *   studio.launch          -     -        -       x       x       x     x    -   (2)
 *   members.view-all       -     -        -       -       -       x     x    x
 *   members.add            -     -        -       -       -       x     x    x
 *   members.remove         -     -        -       -       -       x     x    x    (3)
 *   members.change-role    -     -        -       -       -       x     x    x    (3)
 *   members.leave          -     -        -       x       x       x     -    -    (4)
 *   invitation.respond     -     -        x       -       -       -     -    -    (5)
 *   domain.edit            -     -        -       -       -       x     x    x
 *   theme.preview          -     -        -       -       x       x     x    x
 *   devconsole.launch      -     -        -       -       x       x     x    x
 *   addons.toggle          -     -        -       -       -       x     x    x    (6)
 *   payments.add           -     -        -       -       -       x     x    x    (7)
 *   payments.remove        -     -        -       -       -       x     x    x    (7)
 *   social.link            -     -        -       -       -       x     x    x    (7)
 *   social.unlink          -     -        -       -       -       x     x    x    (7)
 *   newsletter.edit        -     -        -       -       -       x     x    x    (10)
 *   forms.manage           -     -        -       -       -       x     x    x    (10)
 *   project.rename         -     -        -       -       -       x     x    x
 *   project.transfer       -     -        -       -       -       -     x    -    (11)
 *   project.require-2fa    -     -        -       -       -       -     x    -    (13)
 *   project.delete         -     -        -       -       -       -     x    x    (11)
 *   site.redeploy          -     -        -       -       x       x     x    -    (12)
 *   site.rollback          -     -        -       -       x       x     x    -    (12)
 *   webhooks.manage        -     -        -       -       -       x     x    -    (14)
 *   schema.raise           -     -        -       -       -       -     -    x    (9)
 *   sitetype.choose        -     -        -       -       -       -     -    x    (8)
 *   requests.manage        -     -        -       -       -       -     -    x    (8)
 *
 * A PA who is also the owner or a member has their role's rights plus the PA column.
 *
 * (1) Platform admins are the support team (decision 011): the product gives them rights on
 *     projects they do not belong to (adding members, domains, theme preview, Dev Console,
 *     configure paths with their user id), which needs seeing those projects. So a PA opens any
 *     project, and each visit of one they neither own nor belong to ("support access",
 *     `isSupport`) is written to that project's Activity Log (`recordSupportAccess`, in
 *     support-access.server.ts): every
 *     change, and views at most once per admin, project and hour, so customers see who looked
 *     without a flood.
 * (2) No rule names a role for deploying, retrying a failed deployment or launching the studio;
 *     every member could before this module, and still can: members all work on the site. Support
 *     does not: building or editing the customer's content is theirs, not the help desk's.
 * (3) Admins and the owner remove members, revoke invitations and change roles, from the
 *     Members table. Which member may be removed (never the owner, who has no member row;
 *     leaving rather than removing oneself) is the members service's rule about the target.
 * (4) A member may leave; the owner cannot.
 * (5) Accepting or declining one's invitation: the only thing an invited member may do. The
 *     project stays hidden from them (every page and API but the dashboard is a 404); the
 *     dashboard shows them the invitation card instead, and /sites lists their pending
 *     invitations (`invitationsAddressedTo`, the same relation as SQL).
 * (6) Add-on toggles are for the owner and member admins, and for platform admins: support
 *     switches an add-on on when the customer asks for it (or off when it breaks their site).
 *     Add-ons change what the customer pays for, so each such change is a support change in
 *     the project's Activity Log ('Support access by ...: changed an add-on') beside the
 *     add-on's own event.
 * (7) Adding a payment account needs the right to manage payments, and removing one is for
 *     admins: we give both to the owner, member admins and platform admins, the people who
 *     manage money. Linking and unlinking social accounts (what the site shows as its public
 *     feed) follows the add-ons: the same people.
 * (8) Not about one project: `can` answers them from the flag alone.
 * (9) Raising a project's schema version records that its site now runs a newer StackShift
 *     template (the gates of the cards and Domain Settings follow it); the platform upgrades
 *     sites, so the platform admins record it.
 * (10) The newsletter's sender settings and domains speak for the whole project to its
 *     subscribers, and form submissions are visitors' personal data: the owner, member admins
 *     and platform admins change settings and delete submissions; members read.
 * (11) Ownership moves only by the owner's own decision, to one of the project's accepted admins;
 *     support does not take projects from customers. Deleting is the owner's, and support's
 *     (a customer who asks support to close their project).
 * (12) The Website page's Redeploy and Roll back publish a different site: the people who build
 *     it (developers, admins, the owner); editors deploy through their content. Not support:
 *     like deploying (2), choosing what the customer's visitors see is the customer's team's
 *     call, not the help desk's (decision 011, amended 2026-12).
 * (13) Requiring a second factor of everyone on the project is the owner's decision, like who
 *     owns it (decision 042); the owner must have one first (project-settings.server.ts).
 * (14) Webhooks send the project's events to an address outside: the owner and admins choose
 *     where (docs/decisions/047-project-events-and-webhooks.md); support does not.
 *
 * `withProjectAction` throws ProjectNotFoundError when the actor cannot view the project (and the
 * action is not one they may do anyway, like responding to an invitation): anonymous,
 * outsiders and invited members get the same answer as for a project that does not exist.
 * Viewers who may not act get ForbiddenError. Projects found by something other than their
 * reference (a retry's key, a repository) go through `firstPermitted`; the support desk's
 * "is this the customer's team" through `ownRelation`; lists through the same rules as SQL
 * (permissions-sql.server.ts). A project reference is resolved by project-lookup.server.ts.
 */
import { and, eq } from "drizzle-orm";
import { db, type Queryable, type Tx } from "~/db/client.server";
import { members, type projects } from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import { ForbiddenError, NotFoundError } from "~/services/core";
import { memo } from "~/utils/request-memo.server";
import { projectRowFor } from "~/services/projects/index.server";
import { addressedTo } from "./permissions-sql.server";
import { recordSupportAccess } from "~/services/activity/index.server";
import {
  assertAdminSecondFactor,
  hasSecondFactorNow,
  SecondFactorRequiredError,
} from "~/services/two-factor/index.server";

/**
 * The project is hidden from this caller, or does not exist: the same answer for both (a 404,
 * never a 403), so project ids cannot be probed. Routes tell it from other not-found errors by
 * its type.
 */
export class ProjectNotFoundError extends NotFoundError {
  constructor() {
    super("Project not found");
  }
}

export type MemberRole = "admin" | "developer" | "editor";
export type ProjectRole = "owner" | MemberRole;
export type ActorKind = "anonymous" | "outsider" | "invited" | ProjectRole;

export const ACTIONS = [
  "project.view",
  "activity.view",
  "project.deploy",
  "studio.launch",
  "members.view-all",
  "members.add",
  "members.remove",
  "members.change-role",
  "members.leave",
  "invitation.respond",
  "domain.edit",
  "theme.preview",
  "devconsole.launch",
  "addons.toggle",
  "payments.add",
  "payments.remove",
  "social.link",
  "social.unlink",
  "newsletter.edit",
  "forms.manage",
  "project.rename",
  "project.transfer",
  "project.require-2fa",
  "project.delete",
  "site.redeploy",
  "site.rollback",
  "webhooks.manage",
  "schema.raise",
  "sitetype.choose",
  "requests.manage",
] as const;
export type Action = (typeof ACTIONS)[number];

/** The project an actor was resolved on (null when it does not exist). */
export type ActorProject = { id: string; studioId: string; ownerId: string };

export type Actor = {
  kind: ActorKind;
  /** isAdmin: a platform admin (PLATFORM_ADMIN_EMAILS), whatever the relation to the project. */
  platformAdmin: boolean;
  userId: string | null;
  project: ActorProject | null;
  /** The member row behind `invited`, `editor`, `developer` and `admin`. */
  membership: { id: string; role: MemberRole; status: "invited" | "accepted" } | null;
};

const VIEWERS: ReadonlySet<ActorKind> = new Set(["editor", "developer", "admin", "owner"]);
const PROJECT_ADMINS: ReadonlySet<ActorKind> = new Set(["admin", "owner"]);

/** Who may do what, by relation; `pa` adds platform admins (on any project that exists). */
const RULES: Record<Action, { kinds: readonly ActorKind[]; pa?: true; global?: true }> = {
  "project.view": { kinds: ["editor", "developer", "admin", "owner"], pa: true },
  "activity.view": { kinds: ["editor", "developer", "admin", "owner"], pa: true },
  "project.deploy": { kinds: ["editor", "developer", "admin", "owner"] },
  "studio.launch": { kinds: ["editor", "developer", "admin", "owner"] },
  "members.view-all": { kinds: ["admin", "owner"], pa: true },
  "members.add": { kinds: ["admin", "owner"], pa: true },
  "members.remove": { kinds: ["admin", "owner"], pa: true },
  "members.change-role": { kinds: ["admin", "owner"], pa: true },
  "members.leave": { kinds: ["editor", "developer", "admin"] },
  "invitation.respond": { kinds: ["invited"] },
  "domain.edit": { kinds: ["admin", "owner"], pa: true },
  "theme.preview": { kinds: ["developer", "admin", "owner"], pa: true },
  "devconsole.launch": { kinds: ["developer", "admin", "owner"], pa: true },
  "addons.toggle": { kinds: ["admin", "owner"], pa: true },
  "payments.add": { kinds: ["admin", "owner"], pa: true },
  "payments.remove": { kinds: ["admin", "owner"], pa: true },
  "social.link": { kinds: ["admin", "owner"], pa: true },
  "social.unlink": { kinds: ["admin", "owner"], pa: true },
  "newsletter.edit": { kinds: ["admin", "owner"], pa: true },
  "forms.manage": { kinds: ["admin", "owner"], pa: true },
  "project.rename": { kinds: ["admin", "owner"], pa: true },
  "project.transfer": { kinds: ["owner"] },
  "project.require-2fa": { kinds: ["owner"] },
  "project.delete": { kinds: ["owner"], pa: true },
  "site.redeploy": { kinds: ["developer", "admin", "owner"] },
  "site.rollback": { kinds: ["developer", "admin", "owner"] },
  "webhooks.manage": { kinds: ["admin", "owner"] },
  "schema.raise": { kinds: [], pa: true },
  "sitetype.choose": { kinds: [], pa: true, global: true },
  "requests.manage": { kinds: [], pa: true, global: true },
};

/** Pure: may this actor do this? See the table at the top of the file. */
export function can(actor: Actor, action: Action): boolean {
  const rule = RULES[action];
  if (rule.kinds.includes(actor.kind)) return true;
  if (!rule.pa || !actor.platformAdmin) return false;
  return rule.global === true || actor.project !== null;
}

/** A platform admin on a project they neither own nor belong to: support access. */
export function isSupport(actor: Actor): boolean {
  return actor.platformAdmin && actor.project !== null && !VIEWERS.has(actor.kind);
}

/** Whether the actor owns the project or is one of its member admins (owner-like). */
export function isProjectAdmin(actor: Actor): boolean {
  return PROJECT_ADMINS.has(actor.kind);
}

/**
 * Whether the request's credential may touch this project at all: a personal access token limited
 * to chosen projects sees no other, whatever its owner may (decision 029). A session, or a token
 * for every project, reaches all. Paths that find a project by something other than its
 * reference (an invitation key) ask this before acting, and answer ProjectNotFoundError.
 */
export function tokenReaches(user: User, projectId: string): boolean {
  const limitedTo = user.apiToken?.projectIds;
  return !limitedTo || limitedTo.includes(projectId);
}

/**
 * The actor on a project already loaded. Reads the membership now (shared only by the loaders
 * of one page view, never by an action or a transaction). An accepted
 * membership counts only for its own account; an invitation also by its e-mail, so an invitee
 * who signed up under the invited address is "invited" before the row names them.
 */
export async function actorForProject(
  user: User | null,
  project: ActorProject | null,
  tx: Queryable = db(),
): Promise<Actor> {
  const base = {
    platformAdmin: user?.isAdmin ?? false,
    userId: user?.id ?? null,
    project,
    membership: null,
  };
  if (!user) return { ...base, kind: "anonymous" };
  if (!project) return { ...base, kind: "outsider" };
  if (!tokenReaches(user, project.id)) {
    return { ...base, platformAdmin: false, kind: "outsider" };
  }
  if (project.ownerId === user.id) return { ...base, kind: "owner" };
  if (tx !== db()) return membershipActor(user, project, base, tx);
  return memo(`actor:${user.id}:${project.id}`, () => membershipActor(user, project, base, tx));
}

async function membershipActor(
  user: User,
  project: ActorProject,
  base: Omit<Actor, "kind">,
  tx: Queryable,
): Promise<Actor> {
  const rows = await tx
    .select({
      id: members.id,
      userId: members.userId,
      role: members.role,
      status: members.status,
    })
    .from(members)
    .where(and(eq(members.projectId, project.id), addressedTo(user)))
    .limit(5);
  const accepted = rows.find((r) => r.status === "accepted" && r.userId === user.id);
  if (accepted) {
    return {
      ...base,
      kind: accepted.role,
      membership: { id: accepted.id, role: accepted.role, status: "accepted" },
    };
  }
  const invited = rows.find((r) => r.status === "invited");
  if (invited) {
    return {
      ...base,
      kind: "invited",
      membership: { id: invited.id, role: invited.role, status: "invited" },
    };
  }
  return { ...base, kind: "outsider" };
}

const FORBIDDEN_MESSAGES: Partial<Record<Action, string>> = {
  "members.view-all": "Only the owner and admins can see every member",
  "members.add": "Only the owner and admins can add members",
  "members.remove": "Only the owner and admins can remove members",
  "members.change-role": "Only the owner and admins can change roles",
  "members.leave": "The owner cannot leave the project",
  "invitation.respond": "You have no pending invitation to this project",
  "domain.edit": "Only admins can edit the domain",
  "theme.preview": "Only admins and developers can preview themes",
  "devconsole.launch": "Only admins and developers can launch the Dev Console",
  "addons.toggle": "Only admins can turn add-ons on or off",
  "payments.add": "Only admins can add payment accounts",
  "payments.remove": "Only admins can remove payment accounts",
  "social.link": "Only admins can link social accounts",
  "social.unlink": "Only admins can unlink social accounts",
  "newsletter.edit": "Only admins can change the newsletter settings",
  "forms.manage": "Only admins can change forms or delete submissions",
  "project.rename": "Only admins can rename the project",
  "project.transfer": "Only the owner can transfer the project",
  "project.require-2fa": "Only the owner can require a second factor of the project's members",
  "project.delete": "Only the owner can delete the project",
  "site.redeploy": "Only developers and admins can redeploy the website",
  "site.rollback": "Only developers and admins can roll the website back",
  "webhooks.manage": "Only the owner and admins can manage webhooks",
  "sitetype.choose": "Only platform admins can choose the site type",
  "requests.manage": "Only platform admins can manage requests",
  "schema.raise": "Only platform admins can raise the StackShift version",
};

/**
 * Throws unless `actor` may do `action` (ProjectNotFoundError when the project is hidden from
 * them): the check `withProjectAction` runs. Pure; services call `withProjectAction` instead.
 */
export function assertCan(actor: Actor, action: Action): void {
  if (can(actor, action)) return;
  if (!actor.project || !can(actor, "project.view")) {
    throw new ProjectNotFoundError();
  }
  throw new ForbiddenError(FORBIDDEN_MESSAGES[action] ?? "You are not allowed to do this");
}

/** What a person without a second factor may still do on a project that requires one. */
const WITHOUT_SECOND_FACTOR: ReadonlySet<Action> = new Set(["invitation.respond", "members.leave"]);

/**
 * The second-factor rules (docs/decisions/042-second-factor-required.md), after the role's: a
 * platform admin's support access waits for one while REQUIRE_ADMIN_SECOND_FACTOR is on, and a
 * project whose owner requires one (projects.require_two_factor) opens to nobody without one,
 * its owner and support included (answering an invitation and leaving aside). Tokens too: the
 * rule is the account's, whatever carries the request.
 */
export function assertSecondFactorRules(
  user: User,
  project: { requireTwoFactor: boolean },
  actor: Actor,
  action: Action,
): void {
  if (isSupport(actor)) assertAdminSecondFactor(user);
  if (!project.requireTwoFactor || WITHOUT_SECOND_FACTOR.has(action)) return;
  if ((VIEWERS.has(actor.kind) || isSupport(actor)) && !hasSecondFactorNow(user)) {
    throw new SecondFactorRequiredError("project");
  }
}

/**
 * Of projects found by something other than their reference (a retry's idempotency key, a
 * repository's address), the first on which `user` may do `action`: one where they are the owner
 * or a member before one they reach only as support (`support: true`; the caller records that
 * visit before it reads). Null when there is none.
 */
export async function firstPermitted<P extends ActorProject>(
  user: User,
  candidates: P[],
  action: Action,
): Promise<{ project: P; actor: Actor; support: boolean } | null> {
  let asSupport: { project: P; actor: Actor; support: boolean } | null = null;
  for (const project of candidates) {
    const actor = await actorForProject(user, project);
    if (!can(actor, action)) continue;
    if (!isSupport(actor)) return { project, actor, support: false };
    asSupport ??= { project, actor, support: true };
  }
  return asSupport;
}

/**
 * `user`'s own relation to the project, what being a platform admin adds left out: the support
 * desk asks whether someone is of the customer's team, which support never is.
 */
export async function ownRelation(
  user: User,
  project: ActorProject,
  tx: Queryable = db(),
): Promise<{ projectAdmin: boolean; may: (action: Action) => boolean }> {
  const actor = { ...(await actorForProject(user, project, tx)), platformAdmin: false };
  return { projectAdmin: isProjectAdmin(actor), may: (action) => can(actor, action) };
}

/** A project row, as the project action helper hands it to its callback. */
export type ProjectRow = typeof projects.$inferSelect;
/** The actor once they may act on the project: `project` is set, the full row. */
export type ProjectActor = Actor & { project: ProjectRow };

/** What the callback of `withProjectAction` gets; `tx` is the transaction in "change" mode. */
export type ProjectAction<Q extends Queryable = Queryable> = {
  project: ProjectRow;
  actor: ProjectActor;
  tx: Q;
};

export type ProjectActionOptions = {
  /**
   * "change" (the default): checks, records support access and runs the callback in one
   * transaction, the caller's `tx` or one opened here, so a change, its activity event and the
   * support-access row commit together. "read": a page loader's or a call's without a
   * transaction of its own: no transaction, and the project row and the actor are the page
   * view's memoised reads (projectRowFor, actorForProject), so several loaders of one view add
   * no query; a support view is recorded at most once an hour. "check": "read" without recording
   * anything, for a check before an outside call whose change then runs in "change" mode (which
   * checks again in its transaction), or an answer that only asks whether the actor may.
   */
  mode?: "change" | "read" | "check";
  /** The caller's transaction: the check, the support-access row and the callback run in it. */
  tx?: Queryable;
  /** The support change's wording when the change has none of its own (recordSupportAccess). */
  change?: string;
};

/**
 * The one way a service acts on a project (its _id or studioId): resolves the project, computes
 * `user`'s actor on it, checks `action` (ProjectNotFoundError when the project is hidden from
 * them or missing, ForbiddenError with the action's message when they see it but may not act),
 * records support access, then runs `run` with the project row, the actor and the queryable to
 * use (the transaction in "change" mode: query nothing else inside it, PGlite has one connection).
 */
export function withProjectAction<T>(
  user: User | null,
  ref: string,
  action: Action,
  run: (on: ProjectAction<Tx>) => T | Promise<T>,
  options?: ProjectActionOptions & { mode?: "change"; tx?: Tx },
): Promise<T>;
export function withProjectAction<T>(
  user: User | null,
  ref: string,
  action: Action,
  run: (on: ProjectAction) => T | Promise<T>,
  options: ProjectActionOptions & { mode: "read" | "check" },
): Promise<T>;
export async function withProjectAction<T>(
  user: User | null,
  ref: string,
  action: Action,
  run: (on: ProjectAction<Tx>) => T | Promise<T>,
  options: ProjectActionOptions = {},
): Promise<T> {
  const mode = options.mode ?? "change";
  if (mode === "change" && !options.tx) {
    return db().transaction((tx) =>
      withProjectAction(user, ref, action, run, { ...options, mode: "change", tx }),
    );
  }
  const tx = options.tx ?? db();
  const project = user ? ((await projectRowFor(user, ref, tx)) ?? null) : null;
  if (!project) throw new ProjectNotFoundError();
  const actor = await actorForProject(user, project, tx);
  assertCan(actor, action);
  if (user) assertSecondFactorRules(user, project, actor, action);
  if (user && mode !== "check" && isSupport(actor)) {
    await recordSupportAccess(tx, user, actor, action, options.change);
  }
  // A Tx in "change" mode (the overloads above); a read's callback takes any Queryable.
  return run({ project, actor: actor as ProjectActor, tx: tx as Tx });
}

/**
 * `withProjectAction` without a callback, for a read or a check ("read" unless told): the
 * project and the actor once the actor may do `action`.
 */
export function projectForAction(
  user: User | null,
  ref: string,
  action: Action,
  options: ProjectActionOptions & { mode?: "read" | "check" } = {},
): Promise<{ project: ProjectRow; actor: ProjectActor }> {
  return withProjectAction(user, ref, action, ({ project, actor }) => ({ project, actor }), {
    ...options,
    mode: options.mode ?? "read",
  });
}

/** Only platform admins may choose the site type when creating a project. */
export function canChooseSiteType(user: User): boolean {
  return can(globalActor(user), "sitetype.choose");
}

/** An actor for actions about no project (site type, Manage Requests). */
export function globalActor(user: User | null): Actor {
  return {
    kind: user ? "outsider" : "anonymous",
    platformAdmin: user?.isAdmin ?? false,
    userId: user?.id ?? null,
    project: null,
    membership: null,
  };
}
