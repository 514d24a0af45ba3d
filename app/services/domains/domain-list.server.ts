/** The signed-in person's custom domains across their projects (/sites/domains), a page at a time. */
import { and, asc, eq, exists, gt, ilike, isNotNull, or, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { members, projects, projectSites } from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import { type DomainProvider } from "./domains.schema";

export type DomainListEntry = {
  domain: string;
  studioId: string;
  projectName: string;
  provider: DomainProvider;
  status: "pending" | "verified";
  ssl: boolean;
  checkedAt: string | null;
};

export type DomainListPage = {
  domains: DomainListEntry[];
  query: string;
  nextCursor: string | null;
};

export const DOMAINS_PAGE_SIZE = 20;

/**
 * The user's own projects: owned or an accepted member (platform admins too; other projects they
 * reach as support through 'All projects'). Domains are few, so the query starts from them.
 */
function ownOrMember(user: User): SQL {
  return or(
    eq(projects.ownerId, user.id),
    exists(
      db()
        .select({ one: members.id })
        .from(members)
        .where(
          and(
            eq(members.projectId, projects.id),
            eq(members.userId, user.id),
            eq(members.status, "accepted"),
          ),
        ),
    ),
  )!;
}

/**
 * Every custom domain of the projects `user` may view, by domain name; searchable by domain or
 * project name; keyset pages (the cursor is the last domain shown, domains being unique).
 */
export async function listDomains(
  user: User,
  input: { query?: string; cursor?: string | null } = {},
): Promise<DomainListPage> {
  // Control characters (a NUL byte from a URL) are never part of a domain or a project name.
  const query = (input.query ?? "")
    // eslint-disable-next-line no-control-regex -- removing them is the point
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .toLowerCase()
    .slice(0, 200);
  const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const cursor = input.cursor ? decodeCursor(input.cursor) : null;
  const rows = await db()
    .select({
      domain: projectSites.customDomain,
      studioId: projects.studioId,
      projectName: projects.name,
      provider: projectSites.provider,
      status: projectSites.domainStatus,
      ssl: projectSites.domainSsl,
      checkedAt: projectSites.domainCheckedAt,
    })
    .from(projectSites)
    .innerJoin(projects, eq(projects.id, projectSites.projectId))
    .where(
      and(
        isNotNull(projectSites.customDomain),
        ownOrMember(user),
        query
          ? or(ilike(projectSites.customDomain, pattern), ilike(projects.name, pattern))
          : undefined,
        cursor ? gt(projectSites.customDomain, cursor) : undefined,
      ),
    )
    .orderBy(asc(projectSites.customDomain))
    .limit(DOMAINS_PAGE_SIZE + 1);
  const page = rows.slice(0, DOMAINS_PAGE_SIZE).map((r) => ({
    domain: r.domain ?? "",
    studioId: r.studioId,
    projectName: r.projectName,
    provider: r.provider,
    status: r.status ?? "pending",
    ssl: r.ssl,
    checkedAt: r.checkedAt?.toISOString() ?? null,
  }));
  const last = page.at(-1);
  return {
    domains: page,
    query,
    nextCursor: rows.length > DOMAINS_PAGE_SIZE && last ? encodeCursor(last.domain) : null,
  };
}

const encodeCursor = (domain: string) => Buffer.from(domain).toString("base64url");
function decodeCursor(cursor: string) {
  const value = Buffer.from(cursor, "base64url").toString("utf8");
  return /^[a-z0-9.-]{1,253}$/.test(value) ? value : null;
}
