/**
 * Newsletter sender domains: the domain of the from-address, added with the newsletter provider
 * (Resend or local), its DNS records shown to publish, verified on request and re-checked by a
 * job with backoff. The page reads our rows; a row is refreshed from the provider when it is more
 * than five minutes old and not verified, so a page view does not call the provider each time.
 */
import { and, asc, eq, lt, ne, sql } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import { newsletterDomains, projects } from "~/db/schema";
import type { JobDefinition } from "~/jobs/types";
import { ProviderError } from "~/providers/errors";
import { newsletterProvider, type SenderDomain } from "~/providers/newsletter/index.server";
import type { User } from "~/services/accounts/index.server";
import { logEvent } from "~/services/activity/index.server";
import { ConflictError, InvalidError, NotFoundError } from "~/services/core";
import { asUpstream } from "~/services/core/index.server";
import { getNewsletterSettings } from "./newsletter.server";
import {
  displayRecords,
  MAX_SENDER_DOMAINS,
  NEWSLETTER_DEFAULTS,
  NEWSLETTER_MESSAGES,
  type DisplayRecord,
} from "./newsletter-rules";
import { can, projectForAction, withProjectAction } from "~/services/permissions/index.server";
import { log } from "~/utils/logger.server";

/**
 * A sender domain under the specification's names: the Domain entity's (id, domain, status,
 * metadata, records) and the sender-domain settings' (customDomain, isVerified,
 * verificationError). `domain` and `customDomain` are the same name, one for each reader.
 */
export type SenderDomainView = {
  id: string;
  domain: string;
  customDomain: string;
  /** The provider's finer states (not_started, failed, ...) are pending until verified. */
  status: "pending" | "verified";
  isVerified: boolean;
  records: DisplayRecord[];
  verificationError: string | null;
  checkedAt: string;
  metadata: Record<string, unknown>;
};

/** Rows older than this (and not verified) are read again from the provider on a page view. */
const STALE_MS = 5 * 60 * 1000;
/** Attempts of one provider read before the row's last known state is shown. */
const READ_ATTEMPTS = 3;

type Row = typeof newsletterDomains.$inferSelect;

function toView(row: Row): SenderDomainView {
  const records = row.records as {
    type: string;
    name: string;
    value: string;
    ttl: string;
    status: string;
    priority?: number;
  }[];
  const isVerified = row.status === "verified";
  return {
    id: row.id,
    domain: row.name,
    customDomain: row.name,
    status: isVerified ? "verified" : "pending",
    isVerified,
    records: displayRecords(row.name, records),
    verificationError:
      row.status === "verified"
        ? null
        : (row.verificationError ?? NEWSLETTER_MESSAGES.notVerifiedYet),
    checkedAt: row.checkedAt.toISOString(),
    metadata: row.metadata,
  };
}

/** The project holds MAX_SENDER_DOMAINS already (409; the page says it beside 'Add'). */
export class SenderDomainLimitError extends ConflictError {
  constructor() {
    super(NEWSLETTER_MESSAGES.domainLimit);
  }
}

async function senderDomainCount(tx: Queryable, projectId: string) {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(newsletterDomains)
    .where(eq(newsletterDomains.projectId, projectId));
  return row.n;
}

async function readWithRetries(id: string): Promise<SenderDomain> {
  let last: unknown;
  for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt += 1) {
    try {
      return await newsletterProvider().getDomain(id);
    } catch (error) {
      last = error;
      if (!(error instanceof ProviderError) || !error.retryable) break;
    }
  }
  throw last;
}

/** Stores what the provider says of a domain now. */
async function refresh(row: Row, countCheck = false): Promise<Row> {
  const domain = await readWithRetries(row.providerDomainId);
  const failed = domain.status === "failed" || domain.status === "partially_failed";
  const [updated] = await db()
    .update(newsletterDomains)
    .set({
      status: domain.status,
      records: domain.records.length > 0 ? domain.records : row.records,
      verificationError: failed
        ? "The DNS records do not match. Check them at your DNS provider and verify again."
        : null,
      checkedAt: new Date(),
      ...(countCheck ? { checks: sql`${newsletterDomains.checks} + 1` } : {}),
    })
    .where(eq(newsletterDomains.id, row.id))
    .returning();
  return updated ?? row;
}

export type SenderDomainsView = {
  domains: SenderDomainView[];
  canEdit: boolean;
  /** 'Failed to get domains' when a stale domain could not be read again (its last state shows). */
  error: string | null;
};

/** The project's sender domains, refreshing stale unverified rows from the provider. */
export async function listSenderDomains(user: User, studioId: string): Promise<SenderDomainsView> {
  const { actor, project } = await projectForAction(user, studioId, "project.view");
  const rows = await db()
    .select()
    .from(newsletterDomains)
    .where(eq(newsletterDomains.projectId, project.id))
    .orderBy(asc(newsletterDomains.createdAt));
  let error: string | null = null;
  const fresh = await Promise.all(
    rows.map(async (row) => {
      if (row.status === "verified" || Date.now() - row.checkedAt.getTime() < STALE_MS) return row;
      try {
        return await refresh(row);
      } catch (failure) {
        if (!(failure instanceof ProviderError)) throw failure;
        log().warn(
          { area: "newsletter", domain: row.name, reason: failure.message },
          "reading a sender domain failed",
        );
        error = NEWSLETTER_MESSAGES.getDomainsFailed;
        return row;
      }
    }),
  );
  return { domains: fresh.map(toView), canEdit: can(actor, "newsletter.edit"), error };
}

/**
 * Adds the sender domain (the from-address's, else the site's host) with the provider. 'Domain
 * already exists' when the project has it, or the provider knows it already; refused (409) when
 * the project holds MAX_SENDER_DOMAINS, before the provider is asked.
 */
export async function addSenderDomain(
  user: User,
  studioId: string,
  /** The JSON API names the domain; the page adds the from-address's. */
  name?: string,
  metadata: Record<string, unknown> = {},
): Promise<SenderDomainView> {
  const { project } = await projectForAction(user, studioId, "newsletter.edit", { mode: "check" });
  const senderDomain =
    name?.trim().toLowerCase() || (await getNewsletterSettings(user, studioId)).senderDomain;
  if (!senderDomain || !/^(?=.{1,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/.test(senderDomain)) {
    const message = name
      ? "domain must be a domain name like example.com"
      : "Set a from e-mail address with your own domain first";
    throw new InvalidError(message, { [name ? "domain" : "fromEmail"]: [message] });
  }
  const [existing] = await db()
    .select({ id: newsletterDomains.id })
    .from(newsletterDomains)
    .where(
      and(eq(newsletterDomains.projectId, project.id), eq(newsletterDomains.name, senderDomain)),
    );
  if (existing) throw new ConflictError(NEWSLETTER_MESSAGES.domainExists);
  if ((await senderDomainCount(db(), project.id)) >= MAX_SENDER_DOMAINS) {
    throw new SenderDomainLimitError();
  }
  let created: SenderDomain;
  try {
    created = await newsletterProvider().createDomain(senderDomain, NEWSLETTER_DEFAULTS.region);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.details.status === 409) throw new ConflictError(NEWSLETTER_MESSAGES.domainExists);
    throw asUpstream(error, NEWSLETTER_MESSAGES.createFailed, {
      log: { area: "newsletter", msg: "adding a sender domain failed", domain: senderDomain },
    });
  }
  try {
    return await withProjectAction(user, project.id, "newsletter.edit", async ({ tx }) => {
      // Counted again under the project's row lock: concurrent adds cannot pass the cap together.
      await tx
        .select({ id: projects.id })
        .from(projects)
        .where(eq(projects.id, project.id))
        .for("update");
      if ((await senderDomainCount(tx, project.id)) >= MAX_SENDER_DOMAINS) {
        throw new SenderDomainLimitError();
      }
      const [row] = await tx
        .insert(newsletterDomains)
        .values({
          projectId: project.id,
          providerDomainId: created.id,
          name: created.name,
          region: created.region || NEWSLETTER_DEFAULTS.region,
          status: created.status,
          records: created.records,
          metadata,
        })
        .returning();
      await logEvent(tx, {
        projectId: project.id,
        type: "newsletter.domain.added",
        content: `${user.name || user.email} added the sender domain ${created.name}`,
        actorId: user.id,
      });
      return toView(row);
    });
  } catch (error) {
    // Nothing of ours holds the domain the provider just made: take it back off its quota.
    if (error instanceof SenderDomainLimitError) {
      await newsletterProvider()
        .deleteDomain(created.id)
        .catch((failure: unknown) =>
          log().warn(
            { area: "newsletter", domain: created.name, reason: String(failure) },
            "undoing a sender domain failed",
          ),
        );
    }
    throw error;
  }
}

async function domainOf(projectId: string, domainId: string): Promise<Row> {
  const [row] = await db()
    .select()
    .from(newsletterDomains)
    .where(and(eq(newsletterDomains.id, domainId), eq(newsletterDomains.projectId, projectId)));
  if (!row) throw new NotFoundError("This sender domain is not in the project");
  return row;
}

/** Asks the provider to check the records, then reads the domain: verified or not (yet). */
export async function verifySenderDomain(
  user: User,
  studioId: string,
  domainId: string,
): Promise<SenderDomainView> {
  const { project } = await projectForAction(user, studioId, "newsletter.edit", { mode: "check" });
  const row = await domainOf(project.id, domainId);
  let updated: Row;
  try {
    await newsletterProvider().verifyDomain(row.providerDomainId);
    updated = await refresh(row);
  } catch (error) {
    throw asUpstream(error, NEWSLETTER_MESSAGES.verifyRequestFailed, {
      log: { area: "newsletter", msg: "verifying a sender domain failed", domain: row.name },
    });
  }
  // The job checks again with backoff from now on.
  await db().update(newsletterDomains).set({ checks: 0 }).where(eq(newsletterDomains.id, row.id));
  if (updated.status === "verified" && row.status !== "verified") {
    await logEvent(db(), {
      projectId: project.id,
      type: "newsletter.domain.verified",
      content: `The sender domain ${row.name} is verified`,
      actorId: user.id,
    });
  }
  return toView(updated);
}

/** Deletes the domain at the provider (already gone there is fine) and here. */
export async function deleteSenderDomain(
  user: User,
  studioId: string,
  domainId: string,
): Promise<{ name: string }> {
  const { project } = await projectForAction(user, studioId, "newsletter.edit", { mode: "check" });
  const row = await domainOf(project.id, domainId);
  try {
    await newsletterProvider().deleteDomain(row.providerDomainId);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.details.status !== 404) {
      throw asUpstream(error, NEWSLETTER_MESSAGES.deleteRequestFailed, {
        log: { area: "newsletter", msg: "deleting a sender domain failed", domain: row.name },
      });
    }
  }
  await withProjectAction(user, project.id, "newsletter.edit", async ({ tx }) => {
    await tx.delete(newsletterDomains).where(eq(newsletterDomains.id, row.id));
    await logEvent(tx, {
      projectId: project.id,
      type: "newsletter.domain.deleted",
      content: `${user.name || user.email} deleted the sender domain ${row.name}`,
      actorId: user.id,
    });
  });
  return { name: row.name };
}

/** The studioId of the project a sender domain belongs to ("" when unknown: then a 404). */
export async function studioIdOfDomain(domainId: string): Promise<string> {
  if (!/^[0-9a-f-]{36}$/i.test(domainId)) return "";
  const [row] = await db()
    .select({ studioId: projects.studioId })
    .from(newsletterDomains)
    .innerJoin(projects, eq(projects.id, newsletterDomains.projectId))
    .where(eq(newsletterDomains.id, domainId));
  return row?.studioId ?? "";
}

/** One domain's DNS records as the table shows them. */
export async function senderDomainRecords(user: User, studioId: string, domainId: string) {
  const { project } = await projectForAction(user, studioId, "project.view");
  return toView(await domainOf(project.id, domainId)).records;
}

/** Replaces what the API's caller keeps with a domain (the owner, admins, platform admins). */
export async function updateSenderDomainMetadata(
  user: User,
  studioId: string,
  domainId: string,
  metadata: Record<string, unknown>,
): Promise<SenderDomainView> {
  const { project } = await projectForAction(user, studioId, "newsletter.edit", { mode: "check" });
  await domainOf(project.id, domainId);
  return withProjectAction(user, project.id, "newsletter.edit", async ({ tx }) => {
    const [row] = await tx
      .update(newsletterDomains)
      .set({ metadata })
      .where(eq(newsletterDomains.id, domainId))
      .returning();
    return toView(row);
  });
}

/** After this many checks the job stops (the Verify button still works). */
const MAX_CHECKS = 16;

/** The job: re-checks unverified domains whose backoff has passed. */
export async function recheckSenderDomains(batch = 50): Promise<number> {
  const due = await db()
    .select()
    .from(newsletterDomains)
    .where(
      and(
        ne(newsletterDomains.status, "verified"),
        lt(newsletterDomains.checks, MAX_CHECKS),
        // The backoff: 1, 2, 4, ... minutes after the last check, at most a day.
        lt(
          newsletterDomains.checkedAt,
          sql`now() - make_interval(mins => least(power(2, ${newsletterDomains.checks})::int, 1440))`,
        ),
      ),
    )
    .orderBy(asc(newsletterDomains.checkedAt))
    .limit(batch);
  let checked = 0;
  for (const row of due) {
    try {
      const updated = await refresh(row, true);
      checked += 1;
      if (updated.status === "verified") {
        await logEvent(db(), {
          projectId: row.projectId,
          type: "newsletter.domain.verified",
          content: `The sender domain ${row.name} is verified`,
          actorId: null,
        });
      }
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      log().warn(
        { area: "newsletter", domain: row.name, reason: error.message },
        "re-checking a sender domain failed",
      );
      await db()
        .update(newsletterDomains)
        .set({ checkedAt: new Date(), checks: sql`${newsletterDomains.checks} + 1` })
        .where(eq(newsletterDomains.id, row.id));
    }
  }
  return checked;
}

export const NEWSLETTER_RECHECK_JOB = "newsletter.recheck-domains";

export const newsletterJobs: JobDefinition[] = [
  {
    name: NEWSLETTER_RECHECK_JOB,
    schedule: "* * * * *",
    handler: async () => {
      await recheckSenderDomains();
    },
  },
];
