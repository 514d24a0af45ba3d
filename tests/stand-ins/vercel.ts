/**
 * A Vercel API stand-in (https://api.vercel.com) following provider-contracts/PROVIDERS.md and
 * the @vercel/sdk response schemas: projects (GET /v9/projects/{idOrName}, POST /v11/projects),
 * deployments (GET /v7/deployments with until/since cursors, POST and GET /v13/deployments),
 * Bearer auth (403 for a bad token, as Vercel does), `{"error":{code,message}}` errors.
 *
 * The SDK parses leniently (a missing field becomes "" or 0), so every answer is also parsed
 * here with the SDK's own schema while counting the fields it had to default or could not
 * recognise: any such field lands in `violations` (tests assert it stays empty).
 */
import { randomBytes } from "node:crypto";
import { CreateDeploymentResponseBody$inboundSchema } from "@vercel/sdk/models/createdeploymentresponsebody.js";
import { CreateProjectResponseBody$inboundSchema } from "@vercel/sdk/models/createprojectresponsebody.js";
import { GetDeploymentResponseBody$inboundSchema } from "@vercel/sdk/models/getdeploymentresponsebody.js";
import { GetDeploymentsResponseBody$inboundSchema } from "@vercel/sdk/models/getdeploymentsop.js";
import { GetProjectResponseBody$inboundSchema } from "@vercel/sdk/models/getprojectresponsebody.js";
import { startCountingDefaultToZeroValue } from "@vercel/sdk/types/defaultToZeroValue.js";
import { startCountingUnrecognized } from "@vercel/sdk/types/unrecognized.js";
import { startStandInServer, type FailureRule, type Recorded, type Reply } from "./hosting-server";

type ZodLike = {
  safeParse(value: unknown): { success: boolean; error?: { issues: unknown[] } };
};

/** How faithfully `body` fits the SDK schema: parse errors, defaulted and unrecognised fields. */
export function sdkSchemaViolations(schema: ZodLike, body: unknown): string[] {
  const unrecognized = startCountingUnrecognized();
  const defaulted = startCountingDefaultToZeroValue();
  const result = schema.safeParse(body);
  const defaults = defaulted.end();
  const unknown = unrecognized.end();
  const problems: string[] = [];
  if (!result.success) problems.push(`does not parse: ${JSON.stringify(result.error?.issues)}`);
  if (defaults > 0) problems.push(`${defaults} required field(s) missing (defaulted)`);
  if (unknown > 0) problems.push(`${unknown} value(s) of an unexpected type or enum`);
  return problems;
}

type Project = {
  id: string;
  name: string;
  repo: string | null;
  repoId: number | null;
  createdAt: number;
};

type Deployment = {
  id: string;
  projectId: string;
  name: string;
  url: string;
  createdAt: number;
  buildingAt: number | null;
  ready: number | null;
  readyState: string;
  target: "production" | null;
  meta: Record<string, string>;
  errorMessage: string | null;
};

const CREATOR = { uid: "usr_stackshift", username: "stackshift", email: "ops@stackshift.app" };

export async function startVercelStandIn(options: { token?: string; teamId?: string } = {}) {
  const token = options.token ?? "vercel-test-token";
  const teamId = options.teamId;
  const projects = new Map<string, Project>();
  const deployments: Deployment[] = [];
  const violations: string[] = [];
  let clock = Date.parse("2026-01-01T00:00:00Z");
  const tick = () => (clock += 1000);

  const error = (status: number, message: string) => ({
    error: {
      code:
        status === 403
          ? "forbidden"
          : status === 404
            ? "not_found"
            : status === 409
              ? "conflict"
              : status === 429
                ? "rate_limited"
                : "bad_request",
      message,
    },
  });
  const fail = (status: number, message: string, code?: string): Reply => ({
    status,
    body: code ? { error: { code, message } } : error(status, message),
  });

  function ok(schema: ZodLike, label: string, body: unknown): Reply {
    violations.push(...sdkSchemaViolations(schema, body).map((v) => `${label}: ${v}`));
    return { status: 200, body };
  }

  const inspectorUrl = (d: Deployment) =>
    `https://vercel.com/stackshift/${d.name}/${d.id.slice(4)}`;

  function listItem(d: Deployment) {
    return {
      uid: d.id,
      name: d.name,
      url: d.url,
      created: d.createdAt,
      createdAt: d.createdAt,
      ...(d.buildingAt ? { buildingAt: d.buildingAt } : {}),
      ...(d.ready ? { ready: d.ready } : {}),
      readyState: d.readyState,
      state: d.readyState,
      type: "LAMBDAS",
      target: d.target,
      projectId: d.projectId,
      inspectorUrl: inspectorUrl(d),
      creator: CREATOR,
      meta: d.meta,
      source: "api-trigger-git-deploy",
      ...(d.errorMessage ? { errorMessage: d.errorMessage } : {}),
    };
  }

  function fullDeployment(d: Deployment) {
    return {
      id: d.id,
      name: d.name,
      url: d.url,
      createdAt: d.createdAt,
      buildingAt: d.buildingAt ?? d.createdAt,
      bootedAt: d.createdAt,
      ...(d.ready ? { ready: d.ready } : {}),
      readyState: d.readyState,
      status: d.readyState,
      target: d.target,
      projectId: d.projectId,
      ownerId: teamId ?? "team_stackshift",
      meta: d.meta,
      inspectorUrl: inspectorUrl(d),
      aliasAssigned: d.readyState === "READY",
      alias: d.readyState === "READY" ? [`${d.name}.vercel.app`] : [],
      aliasError: null,
      aliasFinal: null,
      buildSkipped: false,
      build: { env: [] },
      createdIn: "iad1",
      creator: { uid: CREATOR.uid, username: CREATOR.username },
      env: [],
      isInConcurrentBuildsQueue: false,
      isInSystemBuildsQueue: false,
      lambdas: [],
      plan: "pro",
      projectSettings: { framework: "nextjs" },
      public: false,
      regions: ["iad1"],
      routes: null,
      type: "LAMBDAS",
      version: 2,
      ...(d.errorMessage ? { errorMessage: d.errorMessage, errorCode: "BUILD_FAILED" } : {}),
    };
  }

  /** A deployment as projects embed it (targets.production, latestDeployments). */
  function projectDeployment(d: Deployment) {
    return {
      id: d.id,
      alias: d.readyState === "READY" ? [`${d.name}.vercel.app`] : [],
      createdAt: d.createdAt,
      createdIn: "iad1",
      creator: CREATOR,
      deploymentHostname: d.url.replace(".vercel.app", ""),
      name: d.name,
      meta: d.meta,
      plan: "pro",
      private: false,
      readyState: d.readyState,
      ...(d.ready ? { readyAt: d.ready } : {}),
      ...(d.buildingAt ? { buildingAt: d.buildingAt } : {}),
      target: d.target,
      type: "LAMBDAS",
      url: d.url,
      userId: CREATOR.uid,
    };
  }

  function projectJson(p: Project) {
    const own = deployments.filter((d) => d.projectId === p.id).reverse();
    const production = own.find((d) => d.target === "production");
    const live = own.some((d) => d.target === "production" && d.readyState === "READY");
    return {
      accountId: teamId ?? "team_stackshift",
      alias: live
        ? [
            {
              domain: `${p.name}.vercel.app`,
              environment: "production",
              target: "PRODUCTION",
              deployment: null,
              createdAt: p.createdAt,
            },
          ]
        : [],
      createdAt: p.createdAt,
      updatedAt: own[0]?.createdAt ?? p.createdAt,
      defaultResourceConfig: { functionDefaultRegions: ["iad1"] },
      deploymentExpiration: { expirationDays: 180 },
      resourceConfig: { functionDefaultRegions: ["iad1"] },
      directoryListing: false,
      framework: "nextjs",
      id: p.id,
      name: p.name,
      nodeVersion: "22.x",
      latestDeployments: own.slice(0, 5).map(projectDeployment),
      targets: production ? { production: projectDeployment(production) } : {},
      ...(p.repo
        ? {
            link: {
              type: "github",
              org: p.repo.split("/")[0],
              repo: p.repo.split("/")[1],
              repoId: p.repoId,
              productionBranch: "main",
              deployHooks: [],
              gitCredentialId: "cred_stackshift",
              createdAt: p.createdAt,
              updatedAt: p.createdAt,
              sourceless: true,
            },
          }
        : {}),
    };
  }

  const findProject = (idOrName: string) =>
    projects.get(idOrName) ?? [...projects.values()].find((p) => p.name === idOrName);

  function listDeployments(request: Recorded) {
    const q = request.query;
    const limit = Math.min(100, Math.max(1, Number(q.get("limit") ?? 20) || 20));
    const until = q.get("until") ? Number(q.get("until")) : null;
    const since = q.get("since") ? Number(q.get("since")) : null;
    const all = deployments
      .filter((d) => !q.get("projectId") || d.projectId === q.get("projectId"))
      .filter((d) => !q.get("target") || d.target === q.get("target"))
      .sort((a, b) => b.createdAt - a.createdAt);
    let page: Deployment[];
    if (since !== null && until === null) {
      // The page just newer than `since`: the `limit` closest to it, newest first.
      page = all.filter((d) => d.createdAt > since).slice(-limit);
    } else {
      page = all.filter((d) => until === null || d.createdAt < until).slice(0, limit);
    }
    const first = page[0];
    const last = page.at(-1);
    const body = {
      deployments: page.map(listItem),
      pagination: {
        count: page.length,
        next: last && all.some((d) => d.createdAt < last.createdAt) ? last.createdAt : null,
        prev: first && all.some((d) => d.createdAt > first.createdAt) ? first.createdAt : null,
      },
    };
    return ok(GetDeploymentsResponseBody$inboundSchema, "GET /v7/deployments", body);
  }

  function createProject(request: Recorded) {
    const input = (request.body ?? {}) as {
      name?: string;
      gitRepository?: { type?: string; repo?: string };
    };
    const name = input.name ?? "";
    if (!/^[a-z0-9._-]{1,100}$/.test(name) || name.includes("---")) {
      return fail(400, `The name "${name}" is invalid`, "invalid_name");
    }
    if (findProject(name)) return fail(409, `A project with the name ${name} already exists`);
    const project: Project = {
      id: `prj_${randomBytes(14).toString("hex")}`,
      name,
      repo: input.gitRepository?.repo ?? null,
      repoId: input.gitRepository ? 100_000 + projects.size : null,
      createdAt: tick(),
    };
    projects.set(project.id, project);
    return ok(CreateProjectResponseBody$inboundSchema, "POST /v11/projects", projectJson(project));
  }

  function createDeployment(request: Recorded) {
    const input = (request.body ?? {}) as {
      name?: string;
      project?: string;
      target?: string;
      meta?: Record<string, string>;
    };
    if (!input.name) return fail(400, "Missing required property `name`", "bad_request");
    const project = findProject(input.project ?? input.name);
    if (!project) return fail(404, "Project not found");
    const createdAt = tick();
    const deployment: Deployment = {
      id: `dpl_${randomBytes(14).toString("hex")}`,
      projectId: project.id,
      name: project.name,
      url: `${project.name}-${randomBytes(4).toString("hex")}-stackshift.vercel.app`,
      createdAt,
      buildingAt: null,
      ready: null,
      readyState: "QUEUED",
      target: input.target === "production" ? "production" : null,
      meta: input.meta ?? {},
      errorMessage: null,
    };
    deployments.push(deployment);
    return ok(
      CreateDeploymentResponseBody$inboundSchema,
      "POST /v13/deployments",
      fullDeployment(deployment),
    );
  }

  function handle(request: Recorded): Reply {
    if (request.headers.authorization !== `Bearer ${token}`) {
      return {
        status: 403,
        body: { error: { code: "forbidden", message: "Not authorized", invalidToken: true } },
      };
    }
    if (teamId && request.query.get("teamId") !== teamId) {
      return fail(403, "You don't have permission to access this team", "forbidden");
    }
    const { method, path } = request;
    let m: RegExpExecArray | null;
    if (method === "GET" && (m = /^\/v9\/projects\/([^/]+)$/.exec(path))) {
      const project = findProject(decodeURIComponent(m[1]));
      if (!project) return fail(404, "Project not found");
      return ok(GetProjectResponseBody$inboundSchema, "GET /v9/projects", projectJson(project));
    }
    if (method === "POST" && path === "/v11/projects") return createProject(request);
    if (method === "GET" && path === "/v7/deployments") return listDeployments(request);
    if (method === "POST" && path === "/v13/deployments") return createDeployment(request);
    if (method === "GET" && (m = /^\/v13\/deployments\/([^/]+)$/.exec(path))) {
      const id = decodeURIComponent(m[1]);
      const deployment = deployments.find((d) => d.id === id || d.url === id);
      if (!deployment) return fail(404, "Deployment not found");
      return ok(
        GetDeploymentResponseBody$inboundSchema,
        "GET /v13/deployments",
        fullDeployment(deployment),
      );
    }
    return fail(404, "The requested path was not found", "not_found");
  }

  const server = await startStandInServer({ handle, errorBody: error });

  return {
    ...server,
    token,
    projects,
    deployments,
    violations,
    fail: (rule: FailureRule) => server.fail(rule),
    /** Moves a deployment on, as Vercel's build would. */
    setReadyState(deploymentId: string, readyState: string, errorMessage: string | null = null) {
      const deployment = deployments.find((d) => d.id === deploymentId);
      if (!deployment) throw new Error(`no deployment ${deploymentId}`);
      deployment.readyState = readyState;
      deployment.errorMessage = errorMessage;
      if (readyState === "BUILDING") deployment.buildingAt = tick();
      if (readyState === "READY" || readyState === "ERROR") deployment.ready = tick();
    },
  };
}

export type VercelStandIn = Awaited<ReturnType<typeof startVercelStandIn>>;
