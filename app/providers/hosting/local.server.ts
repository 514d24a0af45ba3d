/**
 * The built-in hosting provider (PROVIDERS=local). It behaves like the vendor it is named after,
 * with its state in local_sites / local_deploys:
 * - createSite is idempotent on (provider, idempotencyKey); the site answers at
 *   `${APP_URL}/local/sites/{siteId}` (app/routes/local.sites.$siteId.tsx).
 * - triggerDeployment is idempotent on triggerKey and starts in the vendor's first state
 *   (Netlify "enqueued", Vercel "QUEUED"); the pg-boss job LOCAL_ADVANCE_JOB then moves it, one
 *   step every LOCAL_DEPLOY_STEP_SECONDS, to building and to ready or error.
 * - A deploy fails with probability LOCAL_DEPLOY_FAILURE_RATE, and ALWAYS when the site name
 *   contains "fail-deploy" (case-insensitive): a deterministic hook for demos and tests.
 * - A site whose name contains "slow-deploy" moves five times slower (each step waits
 *   5 x LOCAL_DEPLOY_STEP_SECONDS), so every state can be watched however slow the machine is.
 * - A ready deploy becomes the site's published deploy (the newest ready one wins).
 *   restoreDeployment publishes an earlier ready deploy again (a rollback); a newer deploy that
 *   becomes ready afterwards is published as usual, as on Netlify without a publishing lock.
 * - setCustomDomain stores the domain and when it was set (custom_domain, domain_set_at); the
 *   domain counts as verified, and served over HTTPS, LOCAL_DOMAIN_VERIFY_SECONDS later. Its
 *   records point at `{siteId}.local.stackshift.test` (apex: A 203.0.113.10, a documentation
 *   address). Two deterministic hooks on the domain's first label, for demos and tests:
 *   `unverified.` (unverified.example.com) never verifies, the pending state; `fail-domain.`
 *   is refused by setCustomDomain (422 "The provider refused the domain").
 * - setEnvironmentVariable keeps the site's variables in local_sites.env, one statement each
 *   way; nothing builds here, so nothing reads them but the tests.
 * - deleteSite removes the site row, and its deploys with it (local_deploys cascades); an
 *   unknown site is already deleted. An advance job still scheduled for one of its deploys
 *   then finds nothing to move and ends.
 */
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { localDeploys, localSites } from "~/db/schema";
import { env } from "~/utils/env.server";
import { ProviderError } from "../errors";
import { deploymentStatus, FIRST_STATE } from "./status";
import type { HostingProvider, HostingProviderName } from "./types";
import { firstLabel, localDomainState } from "./local/domains.server";
import { scheduleStep } from "./local/progress.server";
import { cursorPage, numberedPage, toDeployment, toHostedSite } from "./local/shapes.server";
import {
  FAIL_DOMAIN_HOOK,
  isId,
  isInProgress,
  newDeployId,
  newSiteId,
  notFound,
} from "./local/shared.server";

export function createLocalHosting(name: HostingProviderName): HostingProvider {
  async function findSite(siteId: string) {
    if (!isId(siteId)) return undefined;
    const [row] = await db()
      .select()
      .from(localSites)
      .where(and(eq(localSites.id, siteId), eq(localSites.provider, name)));
    return row;
  }

  async function requireSite(siteId: string) {
    const site = await findSite(siteId);
    if (!site) throw notFound(name, `Site ${siteId}`);
    return site;
  }

  return {
    name,

    async createSite({ name: siteName, idempotencyKey, repoUrl }) {
      const template = env().SITE_TEMPLATE_REPO;
      await db()
        .insert(localSites)
        .values({
          id: newSiteId(name),
          provider: name,
          name: siteName,
          idempotencyKey,
          // Each local site has a repository of its own unless a template is configured (the
          // End To End Tests card reads its runs; a `missing-` name has none).
          repoUrl: repoUrl ?? `https://github.com/${template ?? `stackshift-sites/${siteName}`}`,
        })
        .onConflictDoNothing({ target: [localSites.provider, localSites.idempotencyKey] });
      const [row] = await db()
        .select()
        .from(localSites)
        .where(and(eq(localSites.provider, name), eq(localSites.idempotencyKey, idempotencyKey)));
      return toHostedSite(row);
    },

    async getSite(siteId) {
      return toHostedSite(await requireSite(siteId));
    },

    async listDeployments(siteId, page) {
      const site = await requireSite(siteId);
      return name === "netlify" ? numberedPage(site, page) : cursorPage(site, page);
    },

    async triggerDeployment(siteId, { triggerKey, title, branch }) {
      const site = await requireSite(siteId);
      await db()
        .insert(localDeploys)
        .values({
          id: newDeployId(name),
          siteId,
          state: FIRST_STATE[name],
          branch: branch ?? "main",
          commitRef: randomBytes(20).toString("hex"),
          title: title ?? "Production deploy",
          context: "production",
          triggerKey,
        })
        .onConflictDoNothing({ target: [localDeploys.siteId, localDeploys.triggerKey] });
      const [row] = await db()
        .select()
        .from(localDeploys)
        .where(and(eq(localDeploys.siteId, siteId), eq(localDeploys.triggerKey, triggerKey)));
      // Also on a re-run: if the first attempt died before scheduling, the chain starts now.
      if (isInProgress(name, row.state)) {
        await scheduleStep({ deployId: row.id, from: row.state }, site.name);
      }
      return toDeployment(site, row);
    },

    async getDeployment(siteId, deployId) {
      const site = await requireSite(siteId);
      const [row] = isId(deployId)
        ? await db()
            .select()
            .from(localDeploys)
            .where(and(eq(localDeploys.siteId, siteId), eq(localDeploys.id, deployId)))
        : [];
      if (!row) throw notFound(name, `Deploy ${deployId}`);
      return toDeployment(site, row);
    },

    async restoreDeployment(siteId, deployId) {
      if (!isId(siteId)) throw notFound(name, `Site ${siteId}`);
      if (!isId(deployId)) throw notFound(name, `Deploy ${deployId}`);
      return db().transaction(async (tx) => {
        // Locks the site like the advance job does, so a deploy finishing meanwhile publishes
        // before or after the restore, never half-way through it.
        const [site] = await tx
          .select()
          .from(localSites)
          .where(and(eq(localSites.id, siteId), eq(localSites.provider, name)))
          .for("update");
        if (!site) throw notFound(name, `Site ${siteId}`);
        const [row] = await tx
          .select()
          .from(localDeploys)
          .where(and(eq(localDeploys.siteId, siteId), eq(localDeploys.id, deployId)));
        if (!row) throw notFound(name, `Deploy ${deployId}`);
        if (deploymentStatus(name, row.state) !== "ready") {
          // Nothing to serve: a conflict with the deploy's state, not worth retrying as is.
          throw new ProviderError(`Deploy ${deployId} is not ready (${row.state})`, {
            provider: `local-${name}`,
            status: 409,
            code: "conflict",
          });
        }
        // publishedAt is the deploy's updatedAt here, so the republish moves it to now.
        const now = new Date();
        const [restored] = await tx
          .update(localDeploys)
          .set({ updatedAt: now })
          .where(eq(localDeploys.id, deployId))
          .returning();
        const [published] = await tx
          .update(localSites)
          .set({ publishedDeployId: deployId, updatedAt: now })
          .where(eq(localSites.id, siteId))
          .returning();
        return toDeployment(published, restored);
      });
    },

    async setCustomDomain(siteId, domain) {
      await requireSite(siteId);
      if (firstLabel(domain) === FAIL_DOMAIN_HOOK) {
        throw new ProviderError("The provider refused the domain", {
          provider: `local-${name}`,
          status: 422,
          code: "unprocessable",
        });
      }
      // The same domain again keeps its time, so a re-run does not restart the verification.
      // The app's clock, not the database's: getDomainStatus compares with Date.now().
      const now = new Date();
      const [row] = await db()
        .update(localSites)
        .set({
          customDomain: domain,
          domainSetAt: sql`case when ${localSites.customDomain} = ${domain}
            then coalesce(${localSites.domainSetAt}, ${now.toISOString()}::timestamptz)
            else ${now.toISOString()}::timestamptz end`,
          updatedAt: now,
        })
        .where(eq(localSites.id, siteId))
        .returning();
      return localDomainState(row, domain);
    },

    async removeCustomDomain(siteId, domain) {
      if (!isId(siteId)) return;
      // Only our domain: a site moved on to another one keeps it; a missing site has none.
      await db()
        .update(localSites)
        .set({ customDomain: null, domainSetAt: null, updatedAt: new Date() })
        .where(
          and(
            eq(localSites.id, siteId),
            eq(localSites.provider, name),
            eq(localSites.customDomain, domain),
          ),
        );
    },

    async getDomainStatus(siteId, domain) {
      const site = await requireSite(siteId);
      if (site.customDomain !== domain) throw notFound(name, `Domain ${domain} of site ${siteId}`);
      return localDomainState(site, domain);
    },

    async setEnvironmentVariable(siteId, key, value) {
      // Like the vendors: removing from a site that does not exist is done; setting is a 404.
      if (!isId(siteId)) {
        if (value === null) return;
        throw notFound(name, `Site ${siteId}`);
      }
      // In one statement, so two add-ons switched at once do not overwrite each other's key.
      const env =
        value === null
          ? sql`${localSites.env} - ${key}::text`
          : sql`${localSites.env} || jsonb_build_object(${key}::text, ${value}::text)`;
      const [row] = await db()
        .update(localSites)
        .set({ env, updatedAt: new Date() })
        .where(and(eq(localSites.id, siteId), eq(localSites.provider, name)))
        .returning({ id: localSites.id });
      if (!row && value !== null) throw notFound(name, `Site ${siteId}`);
    },

    async deleteSite(siteId) {
      // Not one of our ids: no such site, so nothing to delete.
      if (!isId(siteId)) return;
      // Only this vendor's site; deleting nothing (already gone) is fine.
      await db()
        .delete(localSites)
        .where(and(eq(localSites.id, siteId), eq(localSites.provider, name)));
    },
  };
}
