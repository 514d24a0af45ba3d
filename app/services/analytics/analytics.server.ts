/**
 * Page-view analytics of a project's hosted site, without cookies or personal data (decision
 * 020). The site's script (or the pixel of its <noscript>) reports a view with the project's
 * public analytics key; the view increments one row per UTC day and path, and one per day and
 * referring host: nothing per visitor or per view is stored, and the Analytics page reads at most
 * one row per day and page of its period.
 */
import { and, count, desc, eq, gte, lte, sql, sum } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { db } from "~/db/client.server";
import { isForeignKeyViolation } from "~/db/errors.server";
import { analyticsPageDays, analyticsReferrerDays, projects } from "~/db/schema";
import { env } from "~/utils/env.server";
import { rateLimitRefused } from "~/utils/metrics.server";
import type { User } from "~/services/accounts/index.server";
import {
  ANALYTICS_KEY,
  MAX_PATHS_PER_DAY,
  MAX_REFERRERS_PER_DAY,
  OTHER_PAGES,
  OTHER_REFERRERS,
  ROBOT_AGENT,
  daysOf,
  normalizePath,
  referrerHost,
  utcDay,
  type DayRange,
} from "./analytics.schema";
import { ForbiddenError, NotFoundError, RateLimitedError } from "~/services/core";
import { projectForAction } from "~/services/permissions/index.server";
import { siteOrigins } from "~/services/projects/index.server";

// ---------------------------------------------------------------------------------------------
// Counting

type TrackedSite = {
  projectId: string;
  /** Browser origins allowed to report (the site's addresses). */
  origins: string[];
  /** Host names of those origins: a referrer among them is the site itself. */
  hosts: string[];
  /** Where the local provider serves the site on the dashboard's host, cut from paths. */
  root: string;
};

/**
 * Sites by analytics key, kept 30 s per process: a busy site reports many views a second and its
 * addresses rarely change. Unknown keys are remembered too (null), so a flood of made-up keys
 * costs one lookup each per 30 s.
 */
const sites = new LRUCache<string, TrackedSite | "unknown">({ max: 10_000, ttl: 30_000 });

async function trackedSite(key: string): Promise<TrackedSite | null> {
  const cached = sites.get(key);
  if (cached) return cached === "unknown" ? null : cached;
  const [row] = await db().select().from(projects).where(eq(projects.analyticsKey, key));
  if (!row) {
    sites.set(key, "unknown");
    return null;
  }
  const origins = await siteOrigins(row);
  const site: TrackedSite = {
    projectId: row.id,
    origins,
    hosts: origins.map((o) => new URL(o).hostname.toLowerCase()),
    root: env().PROVIDERS === "local" && row.siteId ? `/local/sites/${row.siteId}` : "",
  };
  sites.set(key, site);
  return site;
}

/**
 * Reports per client address and site. A visitor's page loads come seconds apart; a whole office
 * reading its own site stays far below this; a script inflating the counts is cut off. In memory
 * (per process) on purpose: a shared store would cost a write per view, which is what the
 * aggregation avoids.
 */
const reports = new RateLimiterMemory({ points: 600, duration: 60 });

export type PageViewReport = {
  key: unknown;
  path: unknown;
  referrer: unknown;
  /** The Origin header of a browser's report, when it sent one. */
  origin: string | null;
  userAgent: string | null;
  clientIp: string;
};

/** Why a report was not counted, when it was not (the endpoint still answers quickly). */
export type PageViewOutcome = "counted" | "robot";

/**
 * Counts one page view. NotFound for an unknown key, Forbidden for an Origin that is not the
 * site's, RateLimited past the address's limit; a robot's view is answered but not counted.
 */
export async function recordPageView(report: PageViewReport, now = new Date()) {
  if (typeof report.key !== "string" || !ANALYTICS_KEY.test(report.key)) {
    throw new NotFoundError("Unknown site");
  }
  const site = await trackedSite(report.key);
  if (!site) throw new NotFoundError("Unknown site");
  if (report.origin && !site.origins.includes(report.origin)) {
    throw new ForbiddenError("Page views are accepted from the site's own addresses only");
  }
  try {
    // RATE_LIMITS=off: the benchmark's one address sends everything (README).
    if (env().RATE_LIMITS !== "off") await reports.consume(`${report.clientIp}|${report.key}`);
  } catch {
    // Per process, in memory (not a policy of rate-limit.server.ts), counted under its own name.
    rateLimitRefused("pageViewsAddress");
    throw new RateLimitedError("Too many page views from this address", 60);
  }
  if (report.userAgent && ROBOT_AGENT.test(report.userAgent)) return "robot" as PageViewOutcome;
  const path = normalizePath(report.path, site.root) ?? "/";
  const referrer = referrerHost(report.referrer, site.hosts);
  const day = utcDay(now);
  try {
    await increment("page", site.projectId, day, path);
    if (referrer) await increment("referrer", site.projectId, day, referrer);
  } catch (error) {
    // The project was deleted since its site was cached: the key is gone.
    if (!isForeignKeyViolation(error)) throw error;
    sites.delete(report.key);
    throw new NotFoundError("Unknown site");
  }
  return "counted" as PageViewOutcome;
}

const DIMENSIONS = {
  page: {
    table: analyticsPageDays,
    column: analyticsPageDays.path,
    cap: MAX_PATHS_PER_DAY,
    other: OTHER_PAGES,
  },
  referrer: {
    table: analyticsReferrerDays,
    column: analyticsReferrerDays.referrer,
    cap: MAX_REFERRERS_PER_DAY,
    other: OTHER_REFERRERS,
  },
} as const;

/**
 * Adds a view to the day's row of `value`: an UPDATE of the existing row (the usual case, one
 * statement), else an insert, under `other` once the day has its cap of distinct values (made-up
 * paths cannot grow the table without bound; two first views racing may pass the cap by one).
 */
async function increment(
  dimension: keyof typeof DIMENSIONS,
  projectId: string,
  day: string,
  value: string,
) {
  const { table, column, cap, other } = DIMENSIONS[dimension];
  const row = and(eq(table.projectId, projectId), eq(table.day, day), eq(column, value));
  const updated = await db()
    .update(table)
    .set({ views: sql`${table.views} + 1` })
    .where(row)
    .returning({ views: table.views });
  if (updated.length > 0) return;
  const [{ distinct }] = await db()
    .select({ distinct: count() })
    .from(table)
    .where(and(eq(table.projectId, projectId), eq(table.day, day)));
  const key = distinct >= cap ? other : value;
  await db()
    .insert(table)
    .values({ projectId, day, views: 1, [dimension === "page" ? "path" : "referrer"]: key } as {
      projectId: string;
      day: string;
      views: number;
      path: string;
      referrer: string;
    })
    .onConflictDoUpdate({
      target: [table.projectId, table.day, column],
      set: { views: sql`${table.views} + 1` },
    });
}

// ---------------------------------------------------------------------------------------------
// Reading

export type AnalyticsView = {
  range: DayRange;
  /** Every day of the range, days without views as 0. */
  days: { day: string; views: number }[];
  total: number;
  topPages: { path: string; views: number }[];
  topReferrers: { referrer: string; views: number }[];
  /** The tag a live site adds to its pages to report views. */
  snippet: string;
};

const TOP = 10;

/** The Analytics page of a project: its owner, members and platform admins (support). */
export async function getAnalytics(
  user: User,
  studioId: string,
  range: DayRange,
): Promise<AnalyticsView> {
  const { actor } = await projectForAction(user, studioId, "project.view");
  const projectId = actor.project.id;
  const inRange = <T extends typeof analyticsPageDays | typeof analyticsReferrerDays>(table: T) =>
    and(eq(table.projectId, projectId), gte(table.day, range.from), lte(table.day, range.to));
  const pageViews = sql<number>`${sum(analyticsPageDays.views)}::int`;
  const referrerViews = sql<number>`${sum(analyticsReferrerDays.views)}::int`;
  const [perDay, topPages, topReferrers, [key]] = await Promise.all([
    db()
      .select({ day: analyticsPageDays.day, views: pageViews })
      .from(analyticsPageDays)
      .where(inRange(analyticsPageDays))
      .groupBy(analyticsPageDays.day),
    db()
      .select({ path: analyticsPageDays.path, views: pageViews })
      .from(analyticsPageDays)
      .where(inRange(analyticsPageDays))
      .groupBy(analyticsPageDays.path)
      .orderBy(desc(pageViews), analyticsPageDays.path)
      .limit(TOP),
    db()
      .select({ referrer: analyticsReferrerDays.referrer, views: referrerViews })
      .from(analyticsReferrerDays)
      .where(inRange(analyticsReferrerDays))
      .groupBy(analyticsReferrerDays.referrer)
      .orderBy(desc(referrerViews), analyticsReferrerDays.referrer)
      .limit(TOP),
    db()
      .select({ analyticsKey: projects.analyticsKey })
      .from(projects)
      .where(eq(projects.id, projectId)),
  ]);
  const byDay = new Map(perDay.map((d) => [d.day, d.views]));
  const days = daysOf(range).map((day) => ({ day, views: byDay.get(day) ?? 0 }));
  return {
    range,
    days,
    total: days.reduce((n, d) => n + d.views, 0),
    topPages,
    topReferrers,
    snippet: analyticsSnippet(key.analyticsKey),
  };
}

/** The script tag of a site: reports each page view (and each client-side navigation). */
export function analyticsSnippet(analyticsKey: string) {
  return `<script defer src="${env().APP_URL}/analytics.js" data-site="${analyticsKey}"></script>`;
}

/**
 * What the local provider's published site puts in its page to report views: the script, and
 * for browsers without JavaScript a pixel carrying the page's own path and referrer.
 */
export async function localSiteAnalytics(siteId: string) {
  const [row] = await db()
    .select({ analyticsKey: projects.analyticsKey })
    .from(projects)
    .where(eq(projects.siteId, siteId));
  return row ? { key: row.analyticsKey, scriptUrl: `${env().APP_URL}/analytics.js` } : null;
}
