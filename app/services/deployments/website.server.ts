/**
 * The Website page: the site's addresses per hosting provider, its published deployment, and
 * two ways to change what is published: Redeploy (a new production deployment through the
 * deploy job) and Roll back (an earlier ready deployment published again: Netlify's restore,
 * Vercel's promote). Developers, admins, the owner and platform admins; both are logged.
 */
import { ProviderError } from "~/providers/errors";
import { hostingProvider } from "~/providers/hosting/index.server";
import type { User } from "~/services/accounts/index.server";
import { logEvent } from "~/services/activity/index.server";
import { emitProjectEvent } from "~/services/events/index.server";
import {
  listProjectDeployments,
  requestDeployment,
  toDeploymentEntity,
  type DeploymentEntity,
  type DeploymentView,
} from "./deployments.server";
import { ConflictError, NotFoundError, UpstreamError } from "~/services/core";
import { asUpstream } from "~/services/core/index.server";
import { can, projectForAction, withProjectAction } from "~/services/permissions/index.server";
import { forgetSite } from "~/services/core/index.server";
import { getProject } from "~/services/projects/index.server";
import { siteProvider } from "~/services/lifecycle/index.server";

export type WebsiteView = {
  sites: { provider: "netlify" | "vercel"; url: string | null; customDomain: string | null }[];
  published: DeploymentView | null;
  /** Earlier ready deployments of the first page: what Roll back may publish. */
  rollbackTargets: DeploymentView[];
  canRedeploy: boolean;
  canRollback: boolean;
  /** Why the deployments could not be read, when they could not. */
  error: string | null;
};

export async function getWebsite(user: User, studioId: string): Promise<WebsiteView> {
  const { actor } = await projectForAction(user, studioId, "project.view");
  const project = await getProject(user, studioId);
  let published: DeploymentView | null = null;
  let rollbackTargets: DeploymentView[] = [];
  let error: string | null = null;
  try {
    const list = await listProjectDeployments(user, project.studioId, {});
    published = list.latestDeployment;
    rollbackTargets = list.results.filter((d) => d.status === "ready" && d.id !== published?.id);
  } catch (failure) {
    if (!(failure instanceof UpstreamError || failure instanceof ConflictError)) throw failure;
    error = failure.message;
  }
  return {
    sites: project.sites.map((s) => ({
      provider: s.provider,
      url: s.url,
      customDomain: s.customDomain,
    })),
    published,
    rollbackTargets,
    canRedeploy: can(actor, "site.redeploy") && Boolean(project.siteId),
    canRollback: can(actor, "site.rollback") && Boolean(project.siteId),
    error,
  };
}

/** Redeploy: a new production deployment through the deploy job (the rules of any deploy). */
export async function redeploy(user: User, studioId: string) {
  const { project } = await projectForAction(user, studioId, "site.redeploy", { mode: "check" });
  const queued = await requestDeployment(user, studioId, "site.redeploy");
  await withProjectAction(user, project.id, "site.redeploy", async ({ tx }) => {
    await logEvent(tx, {
      projectId: project.id,
      type: "site.redeployed",
      content: `${user.name || user.email} redeployed the website`,
      actorId: user.id,
    });
  });
  return queued;
}

/** Roll back: publishes an earlier ready deployment again at the site's hosting provider. */
export async function rollBack(
  user: User,
  studioId: string,
  deployId: string,
): Promise<DeploymentView> {
  return (await publishAgain(user, studioId, deployId)).deployment;
}

/** POST /api/app/rollback: the same, answered as the API's Deployment entity. */
export async function rollBackEntity(
  user: User,
  studioId: string,
  deployId: string,
): Promise<DeploymentEntity> {
  const { deployment, provider } = await publishAgain(user, studioId, deployId);
  return toDeploymentEntity(deployment, provider === "vercel");
}

async function publishAgain(user: User, studioId: string, deployId: string) {
  const { project: row } = await projectForAction(user, studioId, "site.rollback", {
    mode: "check",
  });
  if (!row.siteId) throw new ConflictError("The site is still being created");
  const provider = siteProvider(row);
  let restored;
  try {
    restored = await hostingProvider(provider).restoreDeployment(row.siteId, deployId);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.details.status === 404)
      throw new NotFoundError("This deployment is not one of the site's");
    if (!error.retryable) throw new ConflictError("This deployment cannot be published again");
    throw asUpstream(error, "The hosting provider is not answering. Try again in a moment.");
  }
  // The next read shows the new published deployment, not the cached one.
  forgetSite(provider, row.siteId);
  await withProjectAction(user, row.id, "site.rollback", async ({ tx }) => {
    await logEvent(tx, {
      projectId: row.id,
      type: "site.rolledBack",
      content: `${user.name || user.email} rolled the website back to deployment ${deployId}`,
      actorId: user.id,
    });
    await emitProjectEvent(tx, {
      projectId: row.id,
      type: "deployment.rolledBack",
      payload: { deploymentId: deployId },
    });
  });
  return { deployment: { ...restored, label: "Published" as const }, provider };
}
