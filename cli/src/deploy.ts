/**
 * `stackshift deploy <project> [--wait]`: asks for a deployment (a failed project's is a retry;
 * a project whose site is still being created is already deploying) and, with --wait, follows
 * it, printing its state each time it changes, until it is ready (exit 0) or has failed (exit 10
 * with the dashboard's page of the failure and the provider's message).
 */
import { unwrap, type StackShiftClient } from "@stackshift/client";
import { findProject, type Context } from "./context.js";
import { CliError, EXIT } from "./output.js";

type Project = Awaited<ReturnType<typeof findProject>>;

export type DeployResult = {
  project: { studioId: string; name: string };
  requested: "deployment" | "retry" | "first deployment";
  state: string;
  deployment: { id: string; state: string; url: string | null } | null;
};

const FAILED = new Set(["error", "canceled", "cancelled"]);

async function deploymentIds(api: StackShiftClient, studioId: string) {
  const result = await api.GET("/api/deployments/{studioId}", { params: { path: { studioId } } });
  // 409: the site does not exist yet, so there is no deployment either.
  if (result.response.status === 409) return [];
  return unwrap(result).results;
}

async function request(
  api: StackShiftClient,
  project: Project,
): Promise<DeployResult["requested"]> {
  if (project.siteCreationStatus === "failed") {
    unwrap(
      await api.POST("/api/app/retry", {
        body: { name: project.name, idempotencyKey: project.idempotencyKey },
      }),
    );
    return "retry";
  }
  if (!project.siteId) return "first deployment";
  unwrap(await api.POST("/api/app/deployments", { body: { id: project._id } }));
  return "deployment";
}

export async function deploy(
  ctx: Context,
  ref: string,
  {
    wait,
    timeoutSeconds,
    intervalMs = 1000,
  }: { wait: boolean; timeoutSeconds: number; intervalMs?: number },
): Promise<DeployResult> {
  const { api, out } = ctx;
  const project = await findProject(api, ref);
  const before = new Set((await deploymentIds(api, project.studioId)).map((d) => d.id));
  const requested = await request(api, project);
  const summary = { studioId: project.studioId, name: project.name };
  if (!wait) return { project: summary, requested, state: "queued", deployment: null };

  const failurePage = `${ctx.baseUrl}/sites/${encodeURIComponent(project.studioId)}/failed-deployment`;
  const spin = out.spinner(`Deploying ${project.name}`);
  const deadline = Date.now() + timeoutSeconds * 1000;
  let shown = "";
  const show = (state: string) => {
    if (state === shown) return;
    shown = state;
    spin.print(() => out.note(`${new Date().toISOString().slice(11, 19)}  ${state}`));
    spin.update(`Deploying ${project.name}: ${state}`);
  };
  show(requested === "first deployment" ? "creating the site" : "queued");
  try {
    while (Date.now() < deadline) {
      const now = unwrap(await api.GET("/api/app/{id}", { params: { path: { id: project._id } } }));
      const mine = (await deploymentIds(api, project.studioId)).find((d) => !before.has(d.id));
      const state = mine ? mine.state.toLowerCase() : now.siteId ? "queued" : "creating the site";
      show(state);
      const deployment = mine
        ? { id: mine.id, state, url: mine.deploy_ssl_url ?? mine.url ?? null }
        : null;
      if (mine && FAILED.has(state)) {
        throw new CliError(
          `The deployment failed: ${mine.error_message ?? state}. See ${failurePage}`,
          EXIT.deployFailed,
          { errorPage: failurePage, deploymentId: mine.id, state },
        );
      }
      if (now.siteCreationStatus === "failed") {
        throw new CliError(`The deployment failed. See ${failurePage}`, EXIT.deployFailed, {
          errorPage: failurePage,
          state: "error",
        });
      }
      if (mine && state === "ready") {
        return { project: summary, requested, state, deployment };
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  } finally {
    spin.stop();
  }
  throw new CliError(
    `Still ${shown} after ${timeoutSeconds} s; follow it at ${ctx.baseUrl}/sites/${encodeURIComponent(project.studioId)}`,
    EXIT.timeout,
    { state: shown },
  );
}
