/**
 * A project page's data version: a short fingerprint of what the page shows, so that a refresh
 * can ask "has anything changed?" for the price of one query instead of re-reading every section
 * (the dashboard's 30 s refresh and the other project pages' 60 s one, in every open tab;
 * docs/performance.md).
 *
 * The database's part is one digest per page computed in PostgreSQL from the rows the page shows
 * (the dashboard's: the project, its members and their accounts, sites, payment and social
 * accounts, the latest activity entry; the other pages': the project's frame and their own rows,
 * listed below), so any write shows, a deletion included, whichever code path made it. What a page reads from
 * a provider (deployments, a studio invitation, test runs) is not in the database: the page adds
 * it, as read through the provider cache, with `dataVersion(digest, parts)`.
 */
import { createHash } from "node:crypto";
import { eq, sql, type SQL } from "drizzle-orm";
import { prepared } from "~/db/prepared.server";
import { projects } from "~/db/schema";

/**
 * The pages a version covers: the dashboard, and each project navigation page
 * (/sites/{section}/{studioId}), which refreshes every 60 s on the same check.
 */
export const VERSIONED_PAGES = [
  "dashboard",
  "website",
  "analytics",
  "forms",
  "newsletter",
  "social-media",
  "settings",
] as const;
export type VersionedPage = (typeof VERSIONED_PAGES)[number];

export function isVersionedPage(value: string): value is VersionedPage {
  return (VERSIONED_PAGES as readonly string[]).includes(value);
}

// Rows are compared as their text (`row::text`), in a stable order. Activity entries are only
// appended or purged, so their count and newest timestamp stand for them (a transaction's
// entries carry its start time, which can be older than an entry already seen: the count
// still changes). A column of any select from "projects": the version route reads it with the
// project row itself (getProjectWithDigest), the page with the statement below; one definition.
const projectRow = sql`"projects"::text`;
const owner = sql`(select u.name || ' ' || u.email from users u where u.id = "projects".owner_id)`;
const sites = sql`(select string_agg(s::text, ',' order by s.provider)
     from project_sites s where s.project_id = "projects".id)`;
// The viewer's role decides what a page offers (Redeploy, the forms' settings, ...).
const memberRows = sql`(select string_agg(m::text, ',' order by m.id)
     from members m where m.project_id = "projects".id)`;

const md5Of = (...parts: SQL[]) => sql<string>`md5(concat_ws('|', ${sql.join(parts, sql`, `)}))`;

/** What every project navigation page shows: the project's frame and the viewer's rights. */
const sectionFrame = [projectRow, owner, sites, memberRows];

const digestColumns: Record<VersionedPage, SQL<string>> = {
  dashboard: md5Of(
    projectRow,
    owner,
    sql`(select string_agg(m::text || coalesce(u.name || ' ' || u.email, ''), ',' order by m.id)
       from members m left join users u on u.id = m.user_id
       where m.project_id = "projects".id)`,
    sites,
    sql`(select string_agg(a::text, ',' order by a.id)
       from payment_accounts a where a.project_id = "projects".id)`,
    sql`(select string_agg(a::text, ',' order by a.id)
       from social_accounts a where a.project_id = "projects".id)`,
    sql`(select count(*) || ' ' || max(e.timestamp)::text
       from event_logs e where e.project_id = "projects".id)`,
  ),
  // Deployments are the provider's: the page adds them (dataVersion's parts).
  website: md5Of(...sectionFrame),
  // Only today's counts grow (views are counted per UTC day, in place), so the last two days
  // stand for the whole history at the price of a few index rows.
  analytics: md5Of(
    ...sectionFrame,
    sql`(select count(*) || ' ' || sum(d.views) from analytics_page_days d
       where d.project_id = "projects".id
         and d.day >= (now() at time zone 'utc')::date - 1)`,
    sql`(select count(*) || ' ' || sum(d.views) from analytics_referrer_days d
       where d.project_id = "projects".id
         and d.day >= (now() at time zone 'utc')::date - 1)`,
  ),
  // Submissions are only added and deleted: their count and newest time stand for them
  // (read from the (form_id, created_at) index, not the rows).
  forms: md5Of(
    ...sectionFrame,
    sql`(select string_agg(f::text, ',' order by f.id)
       from forms f where f.project_id = "projects".id)`,
    sql`(select string_agg(a::text, ',' order by a.form_id, a.email)
       from form_notification_addresses a join forms f on f.id = a.form_id
       where f.project_id = "projects".id)`,
    sql`(select count(*) || ' ' || max(s.created_at)::text
       from form_submissions s join forms f on f.id = s.form_id
       where f.project_id = "projects".id)`,
    sql`(select sum(d.held) || ' ' || min(d.first_held_at)::text
       from form_mail_days d where d.project_id = "projects".id and d.held > 0)`,
  ),
  // The settings' time of change, not their row: the logo's bytes would be hashed every check.
  newsletter: md5Of(
    ...sectionFrame,
    sql`(select n.updated_at::text from newsletter_settings n
       where n.project_id = "projects".id)`,
    sql`(select string_agg(d::text, ',' order by d.id)
       from newsletter_domains d where d.project_id = "projects".id)`,
    // Saved templates by id and time of change (each save and rename moves it), not their bodies.
    sql`(select string_agg(t.id::text || ' ' || t.updated_at::text, ',' order by t.id)
       from newsletter_saved_templates t where t.project_id = "projects".id)`,
  ),
  // The linked accounts; their posts are Instagram's, seen at the 5-minute full reload.
  "social-media": md5Of(
    ...sectionFrame,
    sql`(select string_agg(a::text, ',' order by a.id)
       from social_accounts a where a.project_id = "projects".id)`,
  ),
  // The transfer list names the admins: their accounts' names and addresses.
  settings: md5Of(
    ...sectionFrame,
    sql`(select string_agg(u.name || ' ' || u.email, ',' order by m.id)
       from members m join users u on u.id = m.user_id
       where m.project_id = "projects".id)`,
  ),
};

/** The digest of `page`, as a column of any select from "projects". */
export function projectDigestColumn(page: VersionedPage = "dashboard"): SQL<string> {
  return digestColumns[page];
}

const digestStatement = (page: VersionedPage) =>
  prepared((database) =>
    database
      .select({ digest: digestColumns[page] })
      .from(projects)
      .where(eq(projects.id, sql.placeholder("id")))
      .prepare(`project_data_digest_${page.replace("-", "_")}`),
  );
const digestOf = Object.fromEntries(
  VERSIONED_PAGES.map((page) => [page, digestStatement(page)]),
) as Record<VersionedPage, ReturnType<typeof digestStatement>>;

/** The database's part of a page's data version; null when the project is gone. */
export async function projectDataDigest(
  projectId: string,
  page: VersionedPage = "dashboard",
): Promise<string | null> {
  const [row] = await digestOf[page]().execute({ id: projectId });
  return row?.digest ?? null;
}

/**
 * The data version of a page: the database digest and what the page read from providers.
 * The same inputs give the same version in every process (it is stable JSON, hashed).
 */
export function dataVersion(digest: string | null, parts: unknown): string {
  return createHash("sha1")
    .update(digest ?? "gone")
    .update("\n")
    .update(JSON.stringify(parts) ?? "")
    .digest("base64url")
    .slice(0, 22);
}
