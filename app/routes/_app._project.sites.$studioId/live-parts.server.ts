/**
 * What the dashboard reads from providers (through the provider cache) rather than from its own
 * tables: Site Builds, the viewer's studio invitation, the add-ons' test runs, and a failed
 * creation's deployment status. The page loader shows them; the data version
 * (`dashboardVersion`) hashes them with the database digest, so the version route and the page
 * agree on one version for one state.
 */
import type { BuildsRequest, BuildsView } from "~/components/project-dashboard/builds-view";
import type { User } from "~/services/accounts/index.server";
import { getAddons } from "~/services/addons/index.server";
import { listDeploymentsSchema } from "~/services/deployments";
import { getDeploymentStatus, listProjectDeployments } from "~/services/deployments/index.server";
import { InvalidError, ServiceError } from "~/services/core";
import { dataVersion } from "~/services/projects/index.server";
import type { Project } from "~/services/projects/index.server";
import { activationState } from "~/services/studio/index.server";
import { log } from "~/utils/logger.server";
import { fieldErrorsOf } from "~/web/http.server";

/** ?page= (page-numbered providers) or ?next= / ?prev= (cursor ones), or why not. */
function buildsRequest(
  url: URL,
): { ok: true; request: BuildsRequest } | { ok: false; message: string } {
  const raw: Record<string, string> = {};
  for (const key of ["page", "next", "prev"] as const) {
    const value = url.searchParams.get(key);
    if (value) raw[key] = value;
  }
  const parsed = listDeploymentsSchema.safeParse(raw);
  if (parsed.success) return { ok: true, request: parsed.data };
  return {
    ok: false,
    message: Object.values(fieldErrorsOf(parsed.error)).flat()[0] ?? "Invalid page",
  };
}

/**
 * The Site Builds list. Its failures show in the list and the rest of the dashboard still
 * shows; a page or cursor that is not valid (ours or the provider's verdict) is marked invalid,
 * which makes the page a 400.
 */
async function loadBuilds(user: User, project: Project, url: URL): Promise<BuildsView> {
  const isSiteOnVercel = project.isSiteOnVercel;
  const parsed = buildsRequest(url);
  if (!parsed.ok) {
    return { ok: false, invalid: true, request: {}, message: parsed.message, isSiteOnVercel };
  }
  const req = parsed.request;
  try {
    const list = await listProjectDeployments(user, project.studioId, req);
    return { ok: true, request: req, ...list };
  } catch (error) {
    const failed = { ok: false as const, request: req, isSiteOnVercel };
    if (error instanceof InvalidError && Object.keys(req).length > 0) {
      return { ...failed, invalid: true, message: error.message };
    }
    // Domain errors carry a message meant for people (e.g. the hosting provider is down).
    if (error instanceof ServiceError) return { ...failed, message: error.message };
    log().error({ area: "dashboard", err: error }, "Site Builds failed to load");
    return { ...failed, message: "Something went wrong" };
  }
}

/** The dashboard's provider-backed parts, read at once. */
export async function loadLiveParts(user: User, project: Project, url: URL) {
  const creationFailed =
    project.siteCreationStatus === "failed" || project.studioCreationStatus === "failed";
  const [activation, builds, deployment, addons] = await Promise.all([
    // Support does not open the customer's studio: no invitation of theirs to ask about.
    project.role === "support" ? { accepted: false } : activationState(user, project),
    loadBuilds(user, project, url),
    creationFailed ? getDeploymentStatus(user, project.studioId) : null,
    getAddons(user, project.studioId),
  ]);
  return { activation, builds, deployment, addons };
}

type LiveParts = Awaited<ReturnType<typeof loadLiveParts>>;

/** The dashboard's data version: the database digest with the parts above. */
export function dashboardVersion(digest: string | null, live: LiveParts): string {
  return dataVersion(digest, [
    live.activation.accepted,
    live.builds,
    live.deployment,
    live.addons.testRuns,
  ]);
}

/**
 * The version of the dashboard `url` shows now, for `user`, from the project's digest read with
 * the project (getProjectWithDigest): a change landing while the rest is read makes the next
 * check differ.
 */
export async function currentDashboardVersion(
  user: User,
  project: Project,
  digest: string | null,
  url: URL,
) {
  return dashboardVersion(digest, await loadLiveParts(user, project, url));
}
