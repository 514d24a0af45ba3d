import { randomBytes, randomInt } from "node:crypto";
import {
  and,
  desc,
  eq,
  getTableColumns,
  inArray,
  ne,
  sql,
  type Placeholder,
  type SQL,
} from "drizzle-orm";
import { unionAll, type SelectedFields } from "drizzle-orm/pg-core";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import { db, type Queryable } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import { members, projects, projectSites, users, type HostingDetails } from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import { env } from "~/utils/env.server";
import { memo } from "~/utils/request-memo.server";
import { logEvent } from "~/services/activity/index.server";
import { emitProjectEvent } from "~/services/events/index.server";
import { ForbiddenError } from "~/services/core";
import { decodeCursor, encodeCursor, likePattern } from "~/services/core/index.server";
import { consume, POLICIES } from "~/services/core/index.server";
import {
  canChooseSiteType,
  isSupport,
  type ProjectRole,
  projectForAction,
} from "~/services/permissions/index.server";
import {
  projectDigestColumn,
  VERSIONED_PAGES,
  type VersionedPage,
} from "./project-data-version.server";
import { preparedProjectLookup, projectLookup, rememberProjectRow } from "./project-lookup.server";
import {
  acceptedMembershipOf,
  memberRoleOf,
  ownedProjects,
} from "~/services/permissions/index.server";
import {
  DEFAULT_SCHEMA_VERSION,
  dashboardUpgradeTo,
  isLive,
  LATEST_SCHEMA_VERSION,
  PICKER_COUNT_CAP,
  projectBadge,
  type ProjectBadge,
} from "./project-status";
import { sanitizeProjectName } from "./project-name";
import {
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  type CreateProjectInput,
  type SiteType,
} from "./projects.schema";

/** One row of the project list and the top bar's picker. */
export type ProjectSummary = {
  id: string;
  studioId: string;
  name: string;
  siteType: "business" | "enterprise";
  siteCreationStatus: string;
  studioCreationStatus: string;
  siteCustomDomain: string | null;
  siteUrl: string | null;
  createdAt: string /* ISO */;
  isOwner: boolean;
  /** "support": a platform admin's view of a project they have no role in ('All projects'). */
  role: ViewerRole;
  /** Derived as on the dashboard (project-status.ts): build state and 'New'. */
  badge: ProjectBadge;
  /** 'Live': the site finished creating and has its own domain. */
  live: boolean;
  /** The schema version the dashboard needs when the site is below it, else null. */
  upgradeTo: number | null;
};

type CreationStatus = (typeof projects.$inferSelect)["siteCreationStatus"];

/** The viewer's relation to a project: a role, or "support" (a platform admin outside it). */
export type ViewerRole = ProjectRole | "support";

/** /sites for platform admins: their own projects, or every project (support). */
export type ProjectScope = "mine" | "all";

/** A project as the JSON API returns it, with its field names (`_id`, `_createdAt`, ...). */
export type Project = {
  _id: string;
  name: string;
  owner: { name: string; email: string };
  _createdAt: string;
  _updatedAt: string;
  siteCustomDomain: string | null;
  siteUrl: string | null;
  studioCustomDomain: string | null;
  studioUrl: string | null;
  studioSanityId: string | null;
  studioId: string;
  siteId: string | null;
  idempotencyKey: string;
  studioCreationStatus: CreationStatus;
  siteCreationStatus: CreationStatus;
  studioDetails: HostingDetails | null;
  siteDetails: HostingDetails | null;
  isSiteOnVercel: boolean;
  siteType: SiteType;
  schemaVersion: number;
  version: string | null;
  stackshiftVersion: string | null;
  inviteToProjectAccepted: boolean;
  studioAndSitePreviewToken: string | null;
  isWStudioV2: boolean;
  publishForgeSiteUrl: string | null;
  sites: {
    provider: "netlify" | "vercel";
    siteId: string | null;
    url: string | null;
    customDomain: string | null;
  }[];
  isCStudioEnabled: boolean;
  isAINewsletterEnabled: boolean;
  isSocialMediaEnabled: boolean;
  isGPT3Enabled: boolean;
  isVisualTestsEnabled: boolean;
  isEndToEndTestsEnabled: boolean;
  /** The token itself never leaves the server; the UI only needs to know whether one is set. */
  hasChromaticProjectToken: boolean;
  netlifyAccountId: string | null;
  /** The viewer's role on this project ("support": a platform admin outside it). */
  role: ViewerRole;
  isOwner: boolean;
};

/** The name search, when there is one. */
function searchConditions(rawQuery: string | undefined): (SQL | undefined)[] {
  const query = sanitizeProjectName(rawQuery ?? "").toLowerCase();
  return query ? [sql`lower(${projects.name}) like ${likePattern(query)} escape '\\'`] : [];
}

/** Every project (platform admins' 'All projects'), else the ones `user` may view. */
const seesAll = (user: User, scope: ProjectScope | undefined) => scope === "all" && user.isAdmin;

/**
 * `select` over the projects `user` may view, newest first, `limit` rows: with scope "all" every
 * project (platform admins), otherwise the union of the owned ones (projects_owner_created_idx)
 * and the accepted memberships (members_user_idx), each cut to `limit` before they are merged.
 * `extra` (search, cursor) applies to both parts.
 */
function viewableRows(
  user: User,
  scope: ProjectScope | undefined,
  // Any selection with the keyset columns; callers type the rows they asked for.
  columns: SelectedFields & { id: typeof projects.id; createdAt: typeof projects.createdAt },
  extra: (SQL | undefined)[],
  limit: number,
) {
  const newest = [desc(projects.createdAt), desc(projects.id)] as const;
  if (seesAll(user, scope)) {
    return db()
      .select(columns)
      .from(projects)
      .where(and(...extra))
      .orderBy(...newest)
      .limit(limit);
  }
  const owned = db()
    .select(columns)
    .from(projects)
    .where(and(ownedProjects(user), ...extra))
    // owner_id first (one value, see ownedProjects): the order of projects_owner_created_idx.
    .orderBy(desc(projects.ownerId), ...newest)
    .limit(limit);
  const member = db()
    .select(columns)
    .from(projects)
    .innerJoin(members, acceptedMembershipOf(user))
    // An owner with a member row of their own project counts once.
    .where(and(ne(projects.ownerId, user.id), ...extra))
    // user_id first (one value, see acceptedMembershipOf): start from the memberships.
    .orderBy(desc(members.userId), ...newest)
    .limit(limit);
  const both = unionAll(owned, member).as("viewable");
  return db().select().from(both).orderBy(desc(both.createdAt), desc(both.id)).limit(limit);
}

/**
 * The user's projects: owned or accepted membership (with scope "all", a platform admin's list
 * of every project), newest first, keyset-paginated on (created_at desc, id desc). Each row
 * carries its badges, derived at `now` from the columns the one query reads.
 */
export async function listProjects(
  user: User,
  opts: {
    query?: string;
    cursor?: string | null;
    limit?: number;
    now?: Date;
    scope?: ProjectScope;
  },
): Promise<{ data: ProjectSummary[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(Math.trunc(opts.limit ?? LIST_LIMIT_DEFAULT), 1), LIST_LIMIT_MAX);
  const now = opts.now ?? new Date();
  const extra = searchConditions(opts.query);
  // A token limited to chosen projects lists only those (decision 029).
  const limitedTo = user.apiToken?.projectIds;
  if (limitedTo) extra.push(inArray(projects.id, limitedTo));
  if (opts.cursor) {
    const after = decodeCursor(opts.cursor);
    extra.push(
      sql`(${projects.createdAt}, ${projects.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`,
    );
  }
  const columns = {
    id: projects.id,
    studioId: projects.studioId,
    name: projects.name,
    siteType: projects.siteType,
    siteCreationStatus: projects.siteCreationStatus,
    studioCreationStatus: projects.studioCreationStatus,
    siteCustomDomain: projects.siteCustomDomain,
    siteUrl: projects.siteUrl,
    siteDetails: projects.siteDetails,
    studioDetails: projects.studioDetails,
    schemaVersion: projects.schemaVersion,
    ownerId: projects.ownerId,
    createdAt: projects.createdAt,
    cursorAt:
      sql<string>`to_char(${projects.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
        "cursor_at",
      ),
    memberRole: memberRoleOf(user).as("member_role"),
  };
  const rows = (await viewableRows(user, opts.scope, columns, extra, limit + 1)) as Array<
    SelectResultFields<typeof columns>
  >;

  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => {
      const isOwner = row.ownerId === user.id;
      const createdAt = new Date(row.createdAt).toISOString();
      const status = {
        _createdAt: createdAt,
        siteCreationStatus: row.siteCreationStatus,
        studioCreationStatus: row.studioCreationStatus,
        siteDetails: row.siteDetails ?? null,
        studioDetails: row.studioDetails ?? null,
      };
      return {
        id: row.id,
        studioId: row.studioId,
        name: row.name,
        siteType: row.siteType,
        siteCreationStatus: row.siteCreationStatus,
        studioCreationStatus: row.studioCreationStatus,
        siteCustomDomain: row.siteCustomDomain,
        siteUrl: row.siteUrl,
        createdAt,
        isOwner,
        role: isOwner ? "owner" : (row.memberRole ?? "support"),
        badge: projectBadge(status, now),
        live: isLive(row),
        upgradeTo: dashboardUpgradeTo(row.schemaVersion),
      };
    }),
    nextCursor: rows.length > limit && last ? encodeCursor(last.cursorAt, last.id) : null,
  };
}

/** One row of GET /api/app: the Project entity (section 3) with the list's derived state. */
export type ProjectListRow = Project & Pick<ProjectSummary, "badge" | "live" | "upgradeTo">;

/**
 * `listProjects` for the JSON API: each row the whole Project entity under its own names (`_id`,
 * `_createdAt`, ...), so a client reads a row as it reads GET /api/app/{_id}. The page's rows are
 * read again in one statement with their owners and sites; one deleted in between is left out.
 */
export async function listProjectEntities(
  user: User,
  opts: Parameters<typeof listProjects>[1],
): Promise<{ data: ProjectListRow[]; nextCursor: string | null }> {
  const page = await listProjects(user, opts);
  if (page.data.length === 0) return { data: [], nextCursor: page.nextCursor };
  const rows = await db()
    .select({ ...getTableColumns(projects), ...ownerAndSitesColumns })
    .from(projects)
    .where(
      inArray(
        projects.id,
        page.data.map((summary) => summary.id),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const data = await Promise.all(
    page.data.flatMap((summary) => {
      const found = byId.get(summary.id);
      if (!found) return [];
      const { owner, sites, ...row } = found;
      return [
        toProject(db(), row, summary.role, user.id, { owner, sites }).then((project) => ({
          ...project,
          badge: summary.badge,
          live: summary.live,
          upgradeTo: summary.upgradeTo,
        })),
      ];
    }),
  );
  return { data, nextCursor: page.nextCursor };
}

/**
 * How many of the user's projects `listProjects` finds for the search, over all its pages,
 * counted up to PICKER_COUNT_CAP + 1 (a bounded cost, whatever the account).
 */
export async function countProjects(
  user: User,
  opts: { query?: string; scope?: ProjectScope },
): Promise<number> {
  const capped = viewableRows(
    user,
    opts.scope,
    { id: projects.id, createdAt: projects.createdAt },
    searchConditions(opts.query),
    PICKER_COUNT_CAP + 1,
  ).as("capped");
  const [row] = await db()
    .select({ total: sql<number>`count(*)::int` })
    .from(capped);
  return Number(row?.total ?? 0);
}

type ProjectRow = typeof projects.$inferSelect;

/** What a project view adds to its row: the owner's name and address, and its sites. */
const ownerAndSitesColumns = {
  owner: sql<{ name: string; email: string } | null>`(
    select json_build_object('name', u.name, 'email', u.email)
    from ${users} u where u.id = ${projects.ownerId})`,
  sites: sql<Project["sites"]>`coalesce((
    select json_agg(json_build_object('provider', s.provider, 'siteId', s.site_id,
      'url', s.url, 'customDomain', s.custom_domain) order by s.provider)
    from ${projectSites} s where s.project_id = ${projects.id}), '[]'::json)`,
};
type OwnerAndSites = {
  owner: { name: string; email: string } | null;
  sites: Project["sites"] | null;
};

function ownerAndSites(database: Queryable, projectId: string | Placeholder) {
  return database.select(ownerAndSitesColumns).from(projects).where(eq(projects.id, projectId));
}
// Every project page view reads it: one prepared statement (app/db/prepared.server.ts).
const ownerAndSitesOf = prepared((database) =>
  ownerAndSites(database, sql.placeholder("id")).prepare("project_owner_and_sites"),
);

// A project page's version check: the project row, what a view adds to it and the page's data
// digest (project-data-version.server.ts) in one statement, looked up as findProjectRow looks
// it up. One prepared statement per page.
const withDigestOf = (page: VersionedPage) =>
  preparedProjectLookup(
    { ...getTableColumns(projects), ...ownerAndSitesColumns, digest: projectDigestColumn(page) },
    `project_with_digest_${page.replace("-", "_")}`,
  );
const projectWithDigestOf = Object.fromEntries(
  VERSIONED_PAGES.map((page) => [page, withDigestOf(page)]),
) as Record<VersionedPage, ReturnType<typeof withDigestOf>>;

async function toProject(
  tx: Queryable,
  row: ProjectRow,
  role: ViewerRole,
  viewerId: string,
  /** Already read with the row (getProjectWithDigest): no query. */
  read?: OwnerAndSites,
): Promise<Project> {
  const [extra] = read
    ? [read]
    : tx === db()
      ? await ownerAndSitesOf().execute({ id: row.id })
      : await ownerAndSites(tx, row.id);
  const owner = extra?.owner;
  const sites = extra?.sites ?? [];
  return {
    _id: row.id,
    name: row.name,
    owner: { name: owner?.name ?? "", email: owner?.email ?? "" },
    _createdAt: row.createdAt.toISOString(),
    _updatedAt: row.updatedAt.toISOString(),
    siteCustomDomain: row.siteCustomDomain,
    siteUrl: row.siteUrl,
    studioCustomDomain: row.studioCustomDomain,
    studioUrl: row.studioUrl,
    studioSanityId: row.studioSanityId,
    studioId: row.studioId,
    siteId: row.siteId,
    idempotencyKey: row.idempotencyKey,
    studioCreationStatus: row.studioCreationStatus,
    siteCreationStatus: row.siteCreationStatus,
    studioDetails: row.studioDetails ?? null,
    siteDetails: row.siteDetails ?? null,
    isSiteOnVercel: row.isSiteOnVercel,
    siteType: row.siteType,
    schemaVersion: row.schemaVersion ?? DEFAULT_SCHEMA_VERSION,
    version: row.version,
    stackshiftVersion: row.stackshiftVersion,
    inviteToProjectAccepted: row.inviteToProjectAccepted,
    studioAndSitePreviewToken: row.studioAndSitePreviewToken,
    isWStudioV2: row.isWStudioV2,
    publishForgeSiteUrl: row.publishForgeSiteUrl,
    sites,
    isCStudioEnabled: row.isCStudioEnabled,
    isAINewsletterEnabled: row.isAINewsletterEnabled,
    isSocialMediaEnabled: row.isSocialMediaEnabled,
    isGPT3Enabled: row.isGPT3Enabled,
    isVisualTestsEnabled: row.isVisualTestsEnabled,
    isEndToEndTestsEnabled: row.isEndToEndTestsEnabled,
    hasChromaticProjectToken: Boolean(row.chromaticProjectToken),
    netlifyAccountId: row.netlifyAccountId,
    role,
    isOwner: row.ownerId === viewerId,
  };
}

/**
 * One project by its _id or studioId, for its owner, accepted members and platform admins (as
 * support, which the project's Activity Log records). Everyone else gets NotFoundError (404,
 * not 403), so project ids cannot be probed.
 */
export function getProject(user: User, studioIdOrId: string): Promise<Project> {
  // The layout and the page of one view both ask (app/utils/request-memo.server.ts).
  return memo(`project:${user.id}:${studioIdOrId}`, () => viewProject(user, studioIdOrId));
}

async function viewProject(user: User, ref: string, read?: OwnerAndSites): Promise<Project> {
  const { project: row, actor } = await projectForAction(user, ref, "project.view");
  const role = isSupport(actor) ? "support" : (actor.kind as ProjectRole);
  return toProject(db(), row, role, user.id, read);
}

/**
 * `getProject` with the data digest of one of the project's pages (projectDataDigest), for the
 * pages' version check: the row, its owner and sites and the digest are one statement instead
 * of three. The access check is getProject's own, on the row read here (the view's memo); the
 * digest is null when the project is hidden or gone, which then throws as getProject does.
 */
export async function getProjectWithDigest(
  user: User,
  studioIdOrId: string,
  page: VersionedPage = "dashboard",
): Promise<{ project: Project; digest: string | null }> {
  const lookup = projectLookup(studioIdOrId);
  const [found] = lookup ? await projectWithDigestOf[page](lookup) : [];
  if (!found) {
    rememberProjectRow(user, studioIdOrId, Promise.resolve(undefined));
    return { project: await getProject(user, studioIdOrId), digest: null };
  }
  const { owner, sites, digest, ...row } = found;
  rememberProjectRow(user, studioIdOrId, Promise.resolve(row));
  const project = await memo(`project:${user.id}:${studioIdOrId}`, () =>
    viewProject(user, studioIdOrId, { owner, sites }),
  );
  return { project, digest };
}

const STUDIO_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
/** Short, URL-safe and never UUID-shaped, so /sites/{studioId} and _id lookups cannot collide. */
export function newStudioId(length = 12): string {
  let id = "";
  for (let i = 0; i < length; i += 1)
    id += STUDIO_ID_ALPHABET[randomInt(STUDIO_ID_ALPHABET.length)];
  return id;
}

/** A fresh key for the no-JavaScript create flow, where the server starts the confirmation. */
export function newIdempotencyKey(): string {
  return randomBytes(18).toString("base64url");
}

function checkSiteType(user: User, requested: SiteType | undefined): SiteType {
  if (!requested || requested === "business") return "business";
  if (!canChooseSiteType(user)) {
    throw new ForbiddenError("Only platform admins can choose the site type");
  }
  return requested;
}

/**
 * The dialog's first step: checks what `createProject` would check and hands out the idempotency
 * key the confirmation carries, so a double-submitted confirmation creates one project.
 */
export function reviewProject(
  user: User,
  input: { name: string; siteType?: SiteType },
): { name: string; siteType: SiteType; idempotencyKey: string } {
  return {
    name: input.name,
    siteType: checkSiteType(user, input.siteType),
    idempotencyKey: newIdempotencyKey(),
  };
}

/**
 * Counts a project about to be created against its creator's daily limit (each one provisions a
 * real site and content studio in live mode); refused with RateLimitedError past it. A repeated
 * request with a used idempotency key creates nothing and is not counted; platform admins, who
 * set up projects for others, are not limited.
 */
async function countNewProject(user: User, idempotencyKey: string) {
  if (user.isAdmin) return;
  const [replay] = await db()
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.ownerId, user.id), eq(projects.idempotencyKey, idempotencyKey)));
  if (replay) return;
  const { points } = POLICIES.projectsCreated;
  await consume("projectsCreated", user.id, {
    what: `You have created ${points} projects within a day, the most one person may.`,
  });
}

/**
 * Creates a project, idempotently per (owner, idempotencyKey): the same key again, even in
 * concurrent requests, returns the one project made by the first (`created: false`).
 */
export async function createProject(
  user: User,
  input: CreateProjectInput,
): Promise<{ project: Project; created: boolean }> {
  if (user.apiToken?.projectIds) {
    throw new ForbiddenError("This token is limited to chosen projects: it cannot create one");
  }
  const type = checkSiteType(user, input.siteType);
  await countNewProject(user, input.idempotencyKey);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const outcome = await db().transaction(async (tx) => {
      // Any unique clash does nothing: the waiting insert of a concurrent same-key request
      // resumes after the first one commits and finds its row below.
      const [inserted] = await tx
        .insert(projects)
        .values({
          name: input.name,
          ownerId: user.id,
          idempotencyKey: input.idempotencyKey,
          studioId: newStudioId(),
          siteType: type,
          siteCreationStatus: "pending",
          studioCreationStatus: "pending",
          // The site template's current version (SITE_SCHEMA_VERSION, else the latest the
          // dashboard knows): a new site is built from it.
          schemaVersion: env().SITE_SCHEMA_VERSION ?? LATEST_SCHEMA_VERSION,
        })
        .onConflictDoNothing()
        .returning();
      if (inserted) {
        await logEvent(tx, {
          projectId: inserted.id,
          type: "sites.create",
          content: `${user.name} created the project ${inserted.name}`,
          metadata: { role: "owner", email: user.email },
          actorId: user.id,
        });
        await emitProjectEvent(tx, {
          projectId: inserted.id,
          type: "project.created",
          payload: { siteType: inserted.siteType },
        });
        return { row: inserted, created: true };
      }
      const [existing] = await tx
        .select()
        .from(projects)
        .where(
          and(eq(projects.ownerId, user.id), eq(projects.idempotencyKey, input.idempotencyKey)),
        );
      // No row for this key: the clash was on a freshly generated studioId. Try another.
      return existing ? { row: existing, created: false } : null;
    });
    if (outcome) {
      return {
        project: await toProject(db(), outcome.row, "owner", user.id),
        created: outcome.created,
      };
    }
  }
  throw new Error("Could not generate a unique studioId");
}
