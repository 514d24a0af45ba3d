/** Polling a deployment to its end and recording what the hosting provider reports. */
import { and, eq, sql } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import { projects, type HostingDetails } from "~/db/schema";
import { ProviderError } from "~/providers/errors";
import { forgetSite } from "~/services/core/index.server";
import type { Deployment, HostedSite } from "~/providers/hosting/types";
import { MAX_DEPLOY_RETRIES } from "~/services/deployments";
import {
  PROVIDERS,
  type ProjectRow,
  TERMINAL,
  expectedTriggerKey,
  loadProject,
  markFailed,
  recordError,
  siteProvider,
} from "./common.server";
import { type PollData, enqueuePoll } from "./queue.server";
import { log } from "~/utils/logger.server";
import { deploymentErrorPage, emitProjectEvent } from "~/services/events/index.server";

/** The API's siteDetails from what the provider reports. `state` is the latest deployment's. */
export function siteDetailsOf(site: HostedSite, latest: Deployment | null): HostingDetails {
  return {
    state: latest?.state ?? site.state,
    ssl: site.ssl,
    published_deploy: site.publishedDeploy
      ? {
          id: site.publishedDeploy.id,
          ...(site.publishedDeploy.publishedAt
            ? { published_at: site.publishedDeploy.publishedAt }
            : {}),
        }
      : null,
    custom_domain: site.customDomain,
    domain_aliases: site.domainAliases,
    build_settings: site.repoUrl ? { repo_url: site.repoUrl } : {},
    targets: {
      production: {
        ...(site.productionReadyState ? { readyState: site.productionReadyState } : {}),
        alias: site.productionAlias,
      },
    },
  };
}

/**
 * The polling job. A project in 'deployed' is tracked: its latest deployment decides success or
 * failure, and the deployment it waits for (expectedTriggerKey) is triggered if it is missing
 * (a crash between a retry's commit and its trigger). Otherwise (`deployId`: a manual deployment
 * of a finished project) it only refreshes siteDetails until that deployment finishes.
 */
export async function pollProject(data: PollData, providers = PROVIDERS) {
  const project = await loadProject(data.projectId);
  if (!project?.siteId) return;
  const siteId = project.siteId;
  const tracking = project.siteCreationStatus === "deployed" && !data.deployId;
  if (!tracking && !data.deployId) return;
  const hosting = providers.hosting(siteProvider(project));

  let site: HostedSite;
  let current: Deployment | null;
  try {
    if (data.deployId) {
      current = await hosting.getDeployment(siteId, data.deployId);
    } else {
      const page = await hosting.listDeployments(siteId, { perPage: 1 });
      current = page.results[0] ?? null;
      if (!current || TERMINAL.has(current.status)) {
        // About to conclude: make sure the deployment we wait for exists (idempotent).
        const expected = await hosting.triggerDeployment(siteId, {
          triggerKey: expectedTriggerKey(project),
          title:
            project.deployRetryCount > 0 ? "StackShift: retry" : "StackShift: first deployment",
        });
        forgetSite(siteProvider(project), siteId);
        // A retry's deployment starts here (the first one's was told by provisioning: same id).
        await emitProjectEvent(db(), {
          projectId: project.id,
          type: "deployment.started",
          payload: {
            deploymentId: expected.id,
            trigger: project.deployRetryCount > 0 ? "retry" : "initial",
          },
          dedupeKey: expected.id,
        });
        if (!current || !TERMINAL.has(expected.status)) current = expected;
      }
    }
    site = await hosting.getSite(siteId);
  } catch (error) {
    if (error instanceof ProviderError && !error.retryable) {
      log().error(
        { area: "lifecycle", projectId: project.id, reason: error.message },
        "permanent provider error",
      );
      if (tracking) await markFailed(project.id, error, false);
      return;
    }
    await recordError(project.id, error).catch(() => undefined);
    throw error;
  }

  const siteDetails = siteDetailsOf(site, current);
  const done = current !== null && TERMINAL.has(current.status);
  if (tracking && done && current) {
    const succeeded = current.status === "ready";
    const permanent = !succeeded && project.deployRetryCount >= MAX_DEPLOY_RETRIES;
    const failure =
      current.errorMessage ?? `Deployment ${current.id} ended in state ${current.state}`;
    if (!succeeded) {
      log().error(
        { area: "lifecycle", projectId: project.id, reason: failure },
        "deployment failed",
      );
    }
    await db().transaction(async (tx) => {
      // Conditional on the state we read: a retry committed meanwhile is not overwritten.
      const [concluded] = await tx
        .update(projects)
        .set({
          siteDetails,
          siteCreationStatus: succeeded ? "success" : "failed",
          lastProvisionError: succeeded ? null : failure,
          ...(permanent ? { permanentErrorAt: sql`now()` } : {}),
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(projects.id, project.id),
            eq(projects.siteCreationStatus, "deployed"),
            eq(projects.deployRetryCount, project.deployRetryCount),
          ),
        )
        .returning({ id: projects.id });
      if (concluded) await emitConclusion(tx, project, current, siteDetails, permanent);
    });
    return;
  }
  await db().transaction(async (tx) => {
    await tx
      .update(projects)
      .set({ siteDetails, updatedAt: sql`now()` })
      .where(eq(projects.id, project.id));
    // A manual or automatic deployment of a finished project ends here.
    if (done && current) await emitConclusion(tx, project, current, siteDetails, false);
  });
  if (!done) await enqueuePoll(data);
}

/** deployment.succeeded or deployment.failed, once per deployment (its id is the key). */
async function emitConclusion(
  tx: Tx,
  project: ProjectRow,
  deployment: Deployment,
  siteDetails: HostingDetails,
  permanent: boolean,
) {
  if (deployment.status === "ready") {
    const url = siteDetails.custom_domain
      ? `https://${siteDetails.custom_domain}`
      : (project.siteUrl ?? null);
    await emitProjectEvent(tx, {
      projectId: project.id,
      type: "deployment.succeeded",
      payload: { deploymentId: deployment.id, url },
      dedupeKey: deployment.id,
    });
    return;
  }
  await emitProjectEvent(tx, {
    projectId: project.id,
    type: "deployment.failed",
    payload: {
      deploymentId: deployment.id,
      permanent,
      errorPageUrl: deploymentErrorPage(project.studioId, permanent),
    },
    dedupeKey: deployment.id,
  });
}
