/**
 * Deployments: the site's deployment list, deploying on request, retrying a failed deployment,
 * and the permanent 'Deployment Error' class. The work itself runs in jobs
 * (lifecycle/); these functions check permissions and record what is asked.
 */
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { projects, users } from "~/db/schema";
import { ProviderError } from "~/providers/errors";
import { hostingProvider } from "~/providers/hosting/index.server";
import { cachedProviderRead } from "~/services/core/index.server";
import type { Deployment, DeploymentPageRequest } from "~/providers/hosting/types";
import type { User } from "~/services/accounts/index.server";
import {
  ConflictError,
  ForbiddenError,
  InvalidError,
  UpstreamError,
  type ServiceError,
} from "~/services/core";
import { asUpstream } from "~/services/core/index.server";
import {
  listDeploymentsSchema,
  MAX_DEPLOY_RETRIES,
  retryDeploymentSchema,
  type ListDeploymentsInput,
} from "./deployments.schema";
import {
  firstPermitted,
  projectForAction,
  ProjectNotFoundError,
} from "~/services/permissions/index.server";
import { siteProvider } from "~/services/lifecycle/index.server";
import { scheduleRetry } from "~/services/lifecycle/index.server";
import { enqueueManualDeployment } from "~/services/lifecycle/index.server";
import { getProject } from "~/services/projects/index.server";
import { sanitizeProjectName } from "~/services/projects";
import { log } from "~/utils/logger.server";

/**
 * What members see when the hosting provider refused a request or a deployment failed: the
 * vendor's own words can name tokens, teams and internals, so they stay in the database
 * (projects.last_provision_error) and in the server log, and only platform admins see them.
 */
export const PROVIDER_ERROR_MESSAGE =
  "The hosting provider reported an error. Our team has the details.";

/** The hosting provider did not answer (or refused); the message is safe to show. */
export class HostingUnavailableError extends UpstreamError {}

export const PERMANENT_ERROR_MESSAGE = `This deployment failed after ${MAX_DEPLOY_RETRIES} retries and is now a Deployment Error: it is handled manually by our team, so it cannot be retried.`;

/** A retry or deployment refused because the project is a permanent 'Deployment Error' (409). */
export class PermanentDeploymentError extends ConflictError {
  constructor() {
    super(PERMANENT_ERROR_MESSAGE);
  }
}

// ---------------------------------------------------------------------------------------------
// The deployment list

export type DeploymentView = Deployment & { label: "Published" | "Error" | null };

export type DeploymentList = {
  results: DeploymentView[];
  latestDeployment: DeploymentView | null;
  pagination: { prev: string | null; next: string | null };
  isSiteOnVercel: boolean;
};

/**
 * A deployment in the JSON API's shape and field names. The one mapping from the UI's camelCase
 * view; `null` where the provider has no value. `label` (Published / Error) is the marker the
 * deployment list shows.
 */
export type DeploymentEntity = {
  id: string;
  state: string;
  branch: string | null;
  commit_ref: string | null;
  build_id: string | null;
  title: string | null;
  error_message: string | null;
  context: string | null;
  target: string | null;
  links: { permalink: string | null };
  deploy_ssl_url: string | null;
  updated_at: string;
  /** The specification's five meta fields, each null when the provider sent none. */
  meta: { [K in keyof NonNullable<Deployment["meta"]>]-?: string | null } | null;
  framework: Deployment["framework"];
  screenshot_url: string | null;
  /** Vercel's deployment id; Netlify has none. */
  uid: string | null;
  url: string | null;
  createdAt: string;
  label: DeploymentView["label"];
};

export type DeploymentListEntity = {
  results: DeploymentEntity[];
  latestDeployment: DeploymentEntity | null;
  pagination: { prev: string | null; next: string | null };
  isSiteOnVercel: boolean;
};

export function toDeploymentEntity(d: DeploymentView, onVercel: boolean): DeploymentEntity {
  return {
    id: d.id,
    state: d.state,
    branch: d.branch,
    commit_ref: d.commitRef,
    build_id: d.buildId,
    title: d.title,
    error_message: d.errorMessage,
    context: d.context,
    target: d.target,
    links: { permalink: d.permalink },
    deploy_ssl_url: d.deploySslUrl,
    updated_at: d.updatedAt,
    meta: d.meta && {
      githubCommitMessage: d.meta.githubCommitMessage ?? null,
      githubRepo: d.meta.githubRepo ?? null,
      githubCommitRef: d.meta.githubCommitRef ?? null,
      branchAlias: d.meta.branchAlias ?? null,
      deployHookName: d.meta.deployHookName ?? null,
    },
    framework: d.framework,
    screenshot_url: d.screenshotUrl,
    uid: onVercel ? d.id : null,
    url: d.url,
    createdAt: d.createdAt,
    label: d.label,
  };
}

export function toDeploymentListEntity(list: DeploymentList): DeploymentListEntity {
  const entity = (d: DeploymentView) => toDeploymentEntity(d, list.isSiteOnVercel);
  return {
    results: list.results.map(entity),
    latestDeployment: list.latestDeployment ? entity(list.latestDeployment) : null,
    pagination: list.pagination,
    isSiteOnVercel: list.isSiteOnVercel,
  };
}

function validationError(error: { issues: { path: PropertyKey[]; message: string }[] }) {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : "form";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  const first = Object.values(fieldErrors)[0]?.[0] ?? "Invalid input";
  return new InvalidError(first, fieldErrors);
}

/** The detail of a provider failure for the log: provider, status, code and the vendor's words. */
function logProviderError(context: Record<string, unknown>, error: ProviderError) {
  const { provider, status, code } = error.details;
  log().error(
    { area: "deployments", ...context, provider, status, code, reason: error.message },
    "reading deployments failed",
  );
}

function providerFailure(user: User, error: ProviderError): ServiceError {
  if (error.retryable) {
    return asUpstream(
      error,
      "The hosting provider is not answering right now. Please try again shortly.",
      { errorClass: HostingUnavailableError },
    );
  }
  return asUpstream(
    error,
    user.isAdmin
      ? `The hosting provider refused the request: ${error.message}`
      : PROVIDER_ERROR_MESSAGE,
    { errorClass: HostingUnavailableError, retryAfter: false },
  );
}

/** A stored provider error as the viewer may see it: platform admins the detail, members not. */
function visibleError(user: User, detail: string | null): string | null {
  if (!detail) return null;
  return user.isAdmin ? detail : PROVIDER_ERROR_MESSAGE;
}

/**
 * GET /api/deployments/{studioId}: the primary site's deployments, newest first. The first
 * provider (Netlify) pages by number (`page`), the second (Vercel) by cursors (`next`/`prev`).
 * `latestDeployment` is the deployment now published (null before the first one is); results
 * are labelled 'Published' (that deployment) or 'Error' (state error). Non-members: 404.
 */
export async function listProjectDeployments(
  user: User,
  studioId: string,
  req: { page?: number; next?: string; prev?: string },
): Promise<{
  results: DeploymentView[];
  latestDeployment: DeploymentView | null;
  pagination: { prev: string | null; next: string | null };
  isSiteOnVercel: boolean;
}> {
  const project = await getProject(user, studioId);
  const parsed = listDeploymentsSchema.safeParse(req);
  if (!parsed.success) throw validationError(parsed.error);
  const query: ListDeploymentsInput = parsed.data;
  // Before the site exists, the provider it will be created on (business: the second).
  const provider = siteProvider(project);
  const isSiteOnVercel = provider === "vercel";
  if (provider === "netlify" && (query.next || query.prev)) {
    throw new InvalidError("This site's deployments are paged by number: use page", {
      page: ["Use page for this site's deployments"],
    });
  }
  if (provider === "vercel" && query.page !== undefined && query.page !== 1) {
    throw new InvalidError("This site's deployments are paged by cursor: use next or prev", {
      page: ["Use next or prev for this site's deployments"],
    });
  }
  const empty = {
    results: [],
    latestDeployment: null,
    pagination: { prev: null, next: null },
    isSiteOnVercel,
  };
  if (!project.siteId) return empty;
  const siteId = project.siteId;

  const hosting = hostingProvider(provider);
  const pageRequest: DeploymentPageRequest =
    provider === "netlify"
      ? { page: query.page ?? 1 }
      : query.next
        ? { next: query.next }
        : query.prev
          ? { prev: query.prev }
          : {};
  try {
    // One cached answer per page (app/services/core/provider-cache.server.ts): the page, the site's
    // published deployment, and that deployment when it is on another page.
    const { page, publishedId, published } = await cachedProviderRead(
      provider,
      siteId,
      `deployments:${JSON.stringify(pageRequest)}`,
      async () => {
        const [page, site] = await Promise.all([
          hosting.listDeployments(siteId, pageRequest),
          hosting.getSite(siteId),
        ]);
        const publishedId = site.publishedDeploy?.id ?? null;
        let published = publishedId
          ? (page.results.find((d) => d.id === publishedId) ?? null)
          : null;
        let calls = 2;
        if (publishedId && !published) {
          calls += 1;
          published = await hosting.getDeployment(siteId, publishedId).catch((error: unknown) => {
            if (error instanceof ProviderError && error.details.status === 404) return null;
            throw error;
          });
        }
        const settled = page.results.every((d) => d.status !== "queued" && d.status !== "building");
        return { value: { page, publishedId, published }, calls, settled };
      },
    );
    const label = (d: Deployment): DeploymentView["label"] =>
      d.id === publishedId ? "Published" : d.status === "error" ? "Error" : null;
    const view = (d: Deployment): DeploymentView => ({ ...d, label: label(d) });
    return {
      results: page.results.map(view),
      latestDeployment: published ? view(published) : null,
      pagination: { prev: page.pagination.prev, next: page.pagination.next },
      isSiteOnVercel,
    };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    const status = error.details.status;
    const paged = query.page !== undefined || query.next || query.prev;
    if (paged && (status === 400 || status === 404 || status === 422)) {
      throw new InvalidError("Invalid page or cursor", {
        [query.page !== undefined ? "page" : query.next ? "next" : "prev"]: [
          "Invalid page or cursor",
        ],
      });
    }
    logProviderError({ studioId: project.studioId, siteId }, error);
    throw providerFailure(user, error);
  }
}

// ---------------------------------------------------------------------------------------------
// Deploying on request

/**
 * POST /api/app/deployments {id}: deploys the project now (a job triggers it, retrying while the
 * provider is unavailable). Who may: permissions "project.deploy" (members); others get 404. The site must exist, and a failed
 * deployment goes through retry instead.
 */
export async function requestDeployment(
  user: User,
  projectIdOrStudioId: string,
  /** The Website page's Redeploy has its own rule (support may, editors may not). */
  action: "project.deploy" | "site.redeploy" = "project.deploy",
) {
  await projectForAction(user, projectIdOrStudioId, action);
  const project = await getProject(user, projectIdOrStudioId);
  const [row] = await db()
    .select({ permanentErrorAt: projects.permanentErrorAt })
    .from(projects)
    .where(eq(projects.id, project._id));
  if (row?.permanentErrorAt) throw new PermanentDeploymentError();
  if (project.siteCreationStatus === "failed") {
    throw new ConflictError("This deployment failed: use 'Retry deploy' to deploy it again.");
  }
  if (!project.siteId) {
    throw new ConflictError("The site is still being created; it deploys as soon as it exists.");
  }
  const triggerKey = await enqueueManualDeployment(project._id);
  return {
    status: "queued" as const,
    projectId: project._id,
    studioId: project.studioId,
    triggerKey,
  };
}

// ---------------------------------------------------------------------------------------------
// Retry and permanent errors

/**
 * POST /api/app/retry {name, idempotencyKey} and the 'Retry deploy' button: for a project whose
 * deployment failed, counts the retry, sets it deploying again and queues the work, all in one
 * transaction. After MAX_DEPLOY_RETRIES failed retries the project is a permanent 'Deployment
 * Error' and this throws ConflictError.
 */
export async function retryDeployment(user: User, input: { name: string; idempotencyKey: string }) {
  const parsed = retryDeploymentSchema.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error);
  const { name, idempotencyKey } = parsed.data;

  // The key is unique per owner, so several people's projects may share it: take the caller's.
  const candidates = await db()
    .select()
    .from(projects)
    .where(
      and(
        eq(projects.idempotencyKey, idempotencyKey),
        eq(projects.name, sanitizeProjectName(name)),
      ),
    )
    .limit(20);
  const target = (await firstPermitted(user, candidates, "project.view"))?.project;
  if (!target) throw new ProjectNotFoundError();
  await projectForAction(user, target.id, "project.deploy", { mode: "check" });
  const id = target.id;

  const retryCount = await db().transaction(async (tx) => {
    const [project] = await tx.select().from(projects).where(eq(projects.id, id)).for("update");
    if (!project) throw new ProjectNotFoundError();
    if (project.permanentErrorAt) throw new PermanentDeploymentError();
    if (project.siteCreationStatus !== "failed" && project.studioCreationStatus !== "failed") {
      throw new ConflictError("Only a failed deployment can be retried; this one has not failed.");
    }
    if (project.deployRetryCount >= MAX_DEPLOY_RETRIES) {
      throw new PermanentDeploymentError();
    }
    const count = project.deployRetryCount + 1;
    await scheduleRetry(tx, project, count);
    return count;
  });
  return {
    status: "retrying" as const,
    projectId: target.id,
    studioId: target.studioId,
    name: target.name,
    deployRetryCount: retryCount,
    retriesLeft: MAX_DEPLOY_RETRIES - retryCount,
  };
}

export type DeploymentStatus = {
  projectId: string;
  studioId: string;
  name: string;
  idempotencyKey: string;
  siteCreationStatus: string;
  studioCreationStatus: string;
  /** The site is failed and can be retried now. */
  failed: boolean;
  /** 'Deployment Error': failed after MAX_DEPLOY_RETRIES retries, handled manually. */
  permanent: boolean;
  permanentErrorAt: string | null;
  deployRetryCount: number;
  retriesLeft: number;
  /**
   * Why it failed: PROVIDER_ERROR_MESSAGE for members, the provider's own words (the database's
   * last_provision_error) for platform admins.
   */
  lastError: string | null;
};

/**
 * Where a project's deployment stands, for the failed-deployment and deployment-error pages (and
 * the dashboard, to send people there). Members only; others get 404.
 */
export async function getDeploymentStatus(
  user: User,
  studioIdOrId: string,
): Promise<DeploymentStatus> {
  const project = await getProject(user, studioIdOrId);
  const [row] = await db().select().from(projects).where(eq(projects.id, project._id));
  if (!row) throw new ProjectNotFoundError();
  const permanent = Boolean(row.permanentErrorAt);
  const failed =
    !permanent && (row.siteCreationStatus === "failed" || row.studioCreationStatus === "failed");
  return {
    projectId: row.id,
    studioId: row.studioId,
    name: row.name,
    idempotencyKey: row.idempotencyKey,
    siteCreationStatus: row.siteCreationStatus,
    studioCreationStatus: row.studioCreationStatus,
    failed,
    permanent,
    permanentErrorAt: row.permanentErrorAt?.toISOString() ?? null,
    deployRetryCount: row.deployRetryCount,
    retriesLeft: Math.max(0, MAX_DEPLOY_RETRIES - row.deployRetryCount),
    lastError: visibleError(user, row.lastProvisionError),
  };
}

export type PermanentError = {
  projectId: string;
  studioId: string;
  name: string;
  ownerName: string;
  ownerEmail: string;
  siteProvider: "netlify" | "vercel";
  siteId: string | null;
  deployRetryCount: number;
  permanentErrorAt: string;
  lastError: string | null;
};

/** Platform admins: the projects in 'Deployment Error', newest first, to handle manually. */
export async function listPermanentErrors(user: User, limit = 100): Promise<PermanentError[]> {
  if (!user.isAdmin) throw new ForbiddenError("Only platform admins can see deployment errors");
  const rows = await db()
    .select({ project: projects, ownerName: users.name, ownerEmail: users.email })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(isNotNull(projects.permanentErrorAt))
    .orderBy(desc(projects.permanentErrorAt))
    .limit(Math.min(Math.max(Math.trunc(limit), 1), 500));
  return rows.map(({ project, ownerName, ownerEmail }) => ({
    projectId: project.id,
    studioId: project.studioId,
    name: project.name,
    ownerName,
    ownerEmail,
    siteProvider: siteProvider(project),
    siteId: project.siteId,
    deployRetryCount: project.deployRetryCount,
    permanentErrorAt: project.permanentErrorAt!.toISOString(),
    lastError: project.lastProvisionError,
  }));
}
