/**
 * A project's data version: a short fingerprint of what its pages show, so that a refresh can
 * ask "has anything changed?" for the price of one query instead of re-reading every section
 * (the dashboard's 30 s refresh in every open tab; docs/performance.md).
 *
 * The database's part is one digest computed in PostgreSQL from the rows themselves (the project,
 * its members and their accounts, sites, payment and social accounts, the latest activity entry),
 * so any write shows, a deletion included, whichever code path made it. What a page reads from
 * a provider (deployments, a studio invitation, test runs) is not in the database: the page adds
 * it, as read through the provider cache, with `dataVersion(digest, parts)`.
 */
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { prepared } from "~/db/prepared.server";
import { projects } from "~/db/schema";

// Rows are compared as their text (`row::text`), in a stable order. Activity entries are only
// appended or purged, so their count and newest timestamp stand for them (a transaction's
// entries carry its start time, which can be older than an entry already seen: the count
// still changes). A column of any select from "projects": the version route reads it with the
// project row itself (getProjectWithDigest), the page with the statement below; one definition.
export const projectDigestColumn = sql<string>`md5(concat_ws('|',
  "projects"::text,
  (select u.name || ' ' || u.email from users u where u.id = "projects".owner_id),
  (select string_agg(m::text || coalesce(u.name || ' ' || u.email, ''), ',' order by m.id)
     from members m left join users u on u.id = m.user_id
     where m.project_id = "projects".id),
  (select string_agg(s::text, ',' order by s.provider)
     from project_sites s where s.project_id = "projects".id),
  (select string_agg(a::text, ',' order by a.id)
     from payment_accounts a where a.project_id = "projects".id),
  (select string_agg(a::text, ',' order by a.id)
     from social_accounts a where a.project_id = "projects".id),
  (select count(*) || ' ' || max(e.timestamp)::text
     from event_logs e where e.project_id = "projects".id)
))`;

const digestOf = prepared((database) =>
  database
    .select({ digest: projectDigestColumn })
    .from(projects)
    .where(eq(projects.id, sql.placeholder("id")))
    .prepare("project_data_digest"),
);

/** The database's part of a project's data version; null when the project is gone. */
export async function projectDataDigest(projectId: string): Promise<string | null> {
  const [row] = await digestOf().execute({ id: projectId });
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
