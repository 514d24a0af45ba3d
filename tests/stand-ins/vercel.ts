/**
 * A Vercel API stand-in (https://api.vercel.com) following Vercel's API reference and
 * the @vercel/sdk response schemas: projects (GET /v9/projects/{idOrName}, POST /v11/projects,
 * DELETE /v9/projects/{idOrName} with its deployments and domains: 204, 404 once gone),
 * deployments (GET /v7/deployments with until/since cursors, POST and GET /v13/deployments),
 * promoting one to production (POST /v10/projects/{idOrName}/promote/{deploymentId}: 201 with
 * no body; 404 for a deployment the project does not have, 409 for one that is not READY),
 * project domains (add, get, list, verify, remove) and the domain config, project environment
 * variables (POST /v10/projects/{id}/env with upsert, list, DELETE /v9/.../env/{id}; values are
 * answered encrypted, as Vercel does for `encrypted` ones), Bearer auth (403 for a
 * bad token, as Vercel does), `{"error":{code,message}}` errors.
 *
 * Domains: a project domain is verified at once (Vercel's usual case) unless its apex is in
 * `claimedElsewhere` (used by another account: a TXT challenge until `pointDns`); its config is
 * `misconfigured` until `pointDns` says the DNS points at Vercel.
 *
 * The SDK parses leniently (a missing field becomes "" or 0), so every answer is also parsed
 * here with the SDK's own schema while counting the fields it had to default or could not
 * recognise: any such field lands in `violations` (tests assert it stays empty).
 */
import { randomBytes } from "node:crypto";
import { AddProjectDomainResponseBody$inboundSchema } from "@vercel/sdk/models/addprojectdomainop.js";
import { CreateDeploymentResponseBody$inboundSchema } from "@vercel/sdk/models/createdeploymentresponsebody.js";
import { CreateProjectEnvResponseBody$inboundSchema } from "@vercel/sdk/models/createprojectenvop.js";
import { CreateProjectResponseBody$inboundSchema } from "@vercel/sdk/models/createprojectresponsebody.js";
import { FilterProjectEnvsResponseBody$inboundSchema } from "@vercel/sdk/models/filterprojectenvsop.js";
import { GetDeploymentResponseBody$inboundSchema } from "@vercel/sdk/models/getdeploymentresponsebody.js";
import { GetDeploymentsResponseBody$inboundSchema } from "@vercel/sdk/models/getdeploymentsop.js";
import { GetDomainConfigResponseBody$inboundSchema } from "@vercel/sdk/models/getdomainconfigop.js";
import { GetProjectDomainResponseBody$inboundSchema } from "@vercel/sdk/models/getprojectdomainop.js";
import { GetProjectDomainsResponseBody$inboundSchema } from "@vercel/sdk/models/getprojectdomainsop.js";
import { GetProjectResponseBody$inboundSchema } from "@vercel/sdk/models/getprojectresponsebody.js";
import { RemoveProjectDomainResponseBody$inboundSchema } from "@vercel/sdk/models/removeprojectdomainop.js";
import { RemoveProjectEnvResponseBody$inboundSchema } from "@vercel/sdk/models/removeprojectenvop.js";
import { VerifyProjectDomainResponseBody$inboundSchema } from "@vercel/sdk/models/verifyprojectdomainop.js";
import { startCountingDefaultToZeroValue } from "@vercel/sdk/types/defaultToZeroValue.js";
import { startCountingUnrecognized } from "@vercel/sdk/types/unrecognized.js";
import { resetEnv } from "~/utils/env.server";
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
  /**
   * The deployment promoted to production, which then stays production (as after Vercel's
   * rollback); null while the newest production deployment is, Vercel's default.
   */
  promotedId: string | null;
  /** The project's environment variables (one key may have several, for other targets). */
  env: ProjectEnv[];
};

export type ProjectEnv = {
  id: string;
  key: string;
  /** The plain value; answers carry it encrypted. */
  value: string;
  type: "encrypted" | "plain" | "sensitive" | "system";
  target: ("production" | "preview" | "development")[];
  createdAt: number;
  updatedAt: number;
};

const ENV_TYPES = ["encrypted", "plain", "sensitive", "system"];
const ENV_TARGETS = ["production", "preview", "development"];

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

export type ProjectDomain = {
  name: string;
  apexName: string;
  projectId: string;
  verified: boolean;
  /** The TXT value Vercel asks for while `verified` is false. */
  challenge: string;
  createdAt: number;
  updatedAt: number;
};

/** The registrable part of a domain, as Vercel's apexName (no public-suffix list here). */
const apexOf = (name: string) => name.split(".").slice(-2).join(".");

const CREATOR = { uid: "usr_stackshift", username: "stackshift", email: "ops@stackshift.app" };

export async function startVercelStandIn(options: { token?: string; teamId?: string } = {}) {
  const token = options.token ?? "vercel-test-token";
  const teamId = options.teamId;
  const projects = new Map<string, Project>();
  const deployments: Deployment[] = [];
  const violations: string[] = [];
  /** Project domains by name: a domain belongs to one project. */
  const domains = new Map<string, ProjectDomain>();
  /** Apex names another account used: adding them needs a TXT record. */
  const claimedElsewhere = new Set<string>();
  /** Domains whose DNS points at Vercel (and carry the TXT record, if one was asked for). */
  const dns = new Set<string>();
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

  function ok(schema: ZodLike, label: string, body: unknown, status = 200): Reply {
    violations.push(...sdkSchemaViolations(schema, body).map((v) => `${label}: ${v}`));
    return { status, body };
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
    const production =
      own.find((d) => d.id === p.promotedId) ?? own.find((d) => d.target === "production");
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

  /** The project, its deployments and its domains go; Vercel answers 204 with no body. */
  function deleteProject(project: Project): Reply {
    projects.delete(project.id);
    for (let i = deployments.length - 1; i >= 0; i -= 1) {
      if (deployments[i].projectId === project.id) deployments.splice(i, 1);
    }
    for (const [name, domain] of domains) {
      if (domain.projectId === project.id) domains.delete(name);
    }
    return { status: 204 };
  }

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
      promotedId: null,
      env: [],
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

  /**
   * Points production at a READY deployment of the project. Vercel answers 201 (or 202 while
   * it switches) with no body. Promoting a preview, which Vercel turns into a new production
   * deployment, is not modelled: the adapter only makes production deployments.
   */
  function promote(project: Project, deploymentId: string): Reply {
    const deployment = deployments.find((d) => d.id === deploymentId);
    if (!deployment || deployment.projectId !== project.id) {
      return fail(404, "Deployment not found", "not_found");
    }
    if (deployment.readyState !== "READY") {
      return fail(409, `Deployment ${deploymentId} is not ready (${deployment.readyState})`);
    }
    project.promotedId = deployment.id;
    return { status: 201 };
  }

  function domainJson(d: ProjectDomain, withVerification = true) {
    return {
      name: d.name,
      apexName: d.apexName,
      projectId: d.projectId,
      redirect: null,
      redirectStatusCode: null,
      gitBranch: null,
      customEnvironmentId: null,
      updatedAt: d.updatedAt,
      createdAt: d.createdAt,
      verified: d.verified,
      ...(withVerification && !d.verified
        ? {
            verification: [
              {
                type: "TXT",
                domain: `_vercel.${d.apexName}`,
                value: d.challenge,
                reason: "pending_domain_verification",
              },
            ],
          }
        : {}),
    };
  }

  /** The *.vercel.app domain every project has, listed with its custom domains. */
  function defaultDomain(p: Project): ProjectDomain {
    return {
      name: `${p.name}.vercel.app`,
      apexName: "vercel.app",
      projectId: p.id,
      verified: true,
      challenge: "",
      createdAt: p.createdAt,
      updatedAt: p.createdAt,
    };
  }

  function addDomain(request: Recorded, project: Project) {
    const name = String((request.body as { name?: unknown } | undefined)?.name ?? "");
    if (!/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/.test(name)) {
      return fail(400, `Invalid domain name "${name}"`, "invalid_domain");
    }
    const existing = domains.get(name);
    if (existing) {
      return {
        status: 409,
        body: {
          error: {
            code: "domain_already_in_use",
            message:
              existing.projectId === project.id
                ? `The domain ${name} is already assigned to this project`
                : `Cannot add ${name} since it's already in use by another project`,
            projectId: existing.projectId,
          },
        },
      };
    }
    const now = tick();
    const domain: ProjectDomain = {
      name,
      apexName: apexOf(name),
      projectId: project.id,
      verified: !claimedElsewhere.has(apexOf(name)),
      challenge: `vc-domain-verify=${name},${randomBytes(10).toString("hex")}`,
      createdAt: now,
      updatedAt: now,
    };
    domains.set(name, domain);
    return ok(
      AddProjectDomainResponseBody$inboundSchema,
      "POST /v10/projects/domains",
      domainJson(domain),
    );
  }

  function listDomains(request: Recorded, project: Project) {
    const limit = Math.min(100, Math.max(1, Number(request.query.get("limit") ?? 20) || 20));
    const until = request.query.get("until") ? Number(request.query.get("until")) : null;
    const all = [defaultDomain(project), ...domains.values()]
      .filter((d) => d.projectId === project.id)
      .sort((a, b) => b.createdAt - a.createdAt);
    const page = all.filter((d) => until === null || d.createdAt < until).slice(0, limit);
    const last = page.at(-1);
    const first = page[0];
    return ok(GetProjectDomainsResponseBody$inboundSchema, "GET /v9/projects/domains", {
      domains: page.map((d) => domainJson(d)),
      pagination: {
        count: page.length,
        next: last && all.some((d) => d.createdAt < last.createdAt) ? last.createdAt : null,
        prev: first && all.some((d) => d.createdAt > first.createdAt) ? first.createdAt : null,
      },
    });
  }

  function domainConfig(name: string) {
    const configured = dns.has(name);
    const apex = apexOf(name) === name;
    return ok(GetDomainConfigResponseBody$inboundSchema, "GET /v6/domains/config", {
      acceptedChallenges: apex ? ["dns-01", "http-01"] : ["http-01"],
      configuredBy: configured ? (apex ? "A" : "CNAME") : null,
      recommendedCNAME: [{ rank: 1, value: "cname.vercel-dns.com." }],
      recommendedIPv4: [{ rank: 1, value: ["76.76.21.21"] }],
      misconfigured: !configured,
    });
  }

  function projectDomainRoute(request: Recorded, project: Project, name: string, rest: string) {
    const domain = domains.get(name);
    if (!domain || domain.projectId !== project.id) {
      return fail(404, `The domain "${name}" is not assigned to the project`, "not_found");
    }
    if (rest === "" && request.method === "GET") {
      return ok(
        GetProjectDomainResponseBody$inboundSchema,
        "GET /v9/projects/domains/{domain}",
        domainJson(domain),
      );
    }
    if (rest === "" && request.method === "DELETE") {
      domains.delete(name);
      return ok(RemoveProjectDomainResponseBody$inboundSchema, "DELETE /v9/projects/domains", {});
    }
    if (rest === "/verify" && request.method === "POST") {
      if (!domain.verified && dns.has(name)) {
        domain.verified = true;
        domain.updatedAt = tick();
      }
      if (!domain.verified) {
        return fail(
          400,
          `Domain _vercel.${domain.apexName} is missing required TXT Record "${domain.challenge}"`,
          "missing_txt_record",
        );
      }
      return ok(
        VerifyProjectDomainResponseBody$inboundSchema,
        "POST /v9/projects/domains/verify",
        domainJson(domain, false),
      );
    }
    return fail(404, "The requested path was not found", "not_found");
  }

  /** A variable as Vercel answers it: the value of an encrypted one stays encrypted. */
  function envJson(e: ProjectEnv, listed: boolean) {
    return {
      type: e.type,
      value:
        e.type === "plain" ? e.value : Buffer.from(`enc:${e.id}:${e.value}`).toString("base64"),
      target: e.target,
      configurationId: null,
      id: e.id,
      key: e.key,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
      createdBy: CREATOR.uid,
      updatedBy: null,
      decrypted: false,
      // Only the list answer's schema has (and requires) it.
      ...(listed ? { securityIssues: [] } : {}),
    };
  }

  function createEnv(request: Recorded, project: Project) {
    const input = (request.body ?? {}) as Partial<Record<keyof ProjectEnv, unknown>>;
    const target = Array.isArray(input.target) ? input.target : [];
    if (
      typeof input.key !== "string" ||
      !/^[A-Za-z_][A-Za-z0-9_]*$/.test(input.key) ||
      typeof input.value !== "string" ||
      !ENV_TYPES.includes(String(input.type)) ||
      target.length === 0 ||
      !target.every((t) => ENV_TARGETS.includes(String(t)))
    ) {
      return fail(400, "Invalid request: key, value, type and target are required", "bad_request");
    }
    const key = input.key;
    const targets = target as ProjectEnv["target"];
    const clash = project.env.find(
      (e) => e.key === key && e.target.some((t) => targets.includes(t)),
    );
    const now = tick();
    let env: ProjectEnv;
    if (clash && request.query.get("upsert") === "true") {
      Object.assign(clash, {
        value: input.value,
        type: input.type,
        target: targets,
        updatedAt: now,
      });
      env = clash;
    } else if (clash) {
      return fail(
        400,
        `A variable with the name \`${key}\` already exists for the target ${clash.target.join(", ")}`,
        "ENV_ALREADY_EXISTS",
      );
    } else {
      env = {
        id: randomBytes(8).toString("base64url"),
        key,
        value: input.value,
        type: input.type as ProjectEnv["type"],
        target: targets,
        createdAt: now,
        updatedAt: now,
      };
      project.env.push(env);
    }
    return ok(
      CreateProjectEnvResponseBody$inboundSchema,
      "POST /v10/projects/env",
      { created: envJson(env, false), failed: [] },
      201,
    );
  }

  function envRoute(request: Recorded, project: Project, version: string, id: string | null) {
    if (id === null && request.method === "POST" && version === "10") {
      return createEnv(request, project);
    }
    if (id === null && request.method === "GET") {
      const envs = project.env.map((e) => envJson(e, true));
      return ok(FilterProjectEnvsResponseBody$inboundSchema, "GET /v10/projects/env", {
        envs,
        pagination: { count: envs.length, next: null, prev: null },
      });
    }
    if (id !== null && request.method === "DELETE" && version === "9") {
      const index = project.env.findIndex((e) => e.id === id);
      if (index < 0) return fail(404, `Environment Variable ${id} not found`, "not_found");
      const [removed] = project.env.splice(index, 1);
      return ok(
        RemoveProjectEnvResponseBody$inboundSchema,
        "DELETE /v9/projects/env",
        envJson(removed, false),
      );
    }
    return fail(404, "The requested path was not found", "not_found");
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
    if (method === "DELETE" && (m = /^\/v9\/projects\/([^/]+)$/.exec(path))) {
      const project = findProject(decodeURIComponent(m[1]));
      if (!project) return fail(404, "Project not found");
      return deleteProject(project);
    }
    if ((m = /^\/v(?:9|10)\/projects\/([^/]+)\/domains(?:\/([^/]+)(\/verify)?)?$/.exec(path))) {
      const project = findProject(decodeURIComponent(m[1]));
      if (!project) return fail(404, "Project not found");
      if (!m[2] && method === "POST" && path.startsWith("/v10/"))
        return addDomain(request, project);
      if (!m[2] && method === "GET" && path.startsWith("/v9/"))
        return listDomains(request, project);
      if (m[2] && path.startsWith("/v9/")) {
        return projectDomainRoute(request, project, decodeURIComponent(m[2]), m[3] ?? "");
      }
    }
    if ((m = /^\/v(9|10)\/projects\/([^/]+)\/env(?:\/([^/]+))?$/.exec(path))) {
      const project = findProject(decodeURIComponent(m[2]));
      if (!project) return fail(404, "Project not found");
      return envRoute(request, project, m[1], m[3] ? decodeURIComponent(m[3]) : null);
    }
    if (method === "POST" && (m = /^\/v10\/projects\/([^/]+)\/promote\/([^/]+)$/.exec(path))) {
      const project = findProject(decodeURIComponent(m[1]));
      if (!project) return fail(404, "Project not found");
      return promote(project, decodeURIComponent(m[2]));
    }
    if (method === "GET" && (m = /^\/v6\/domains\/([^/]+)\/config$/.exec(path))) {
      return domainConfig(decodeURIComponent(m[1]));
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
    domains,
    claimedElsewhere,
    fail: (rule: FailureRule) => server.fail(rule),
    /** Points the domains' DNS at Vercel, with the TXT record where one was asked for. */
    pointDns(...names: string[]) {
      for (const name of names) dns.add(name);
    },
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

/**
 * Runs `body` with PROVIDERS=live and the Vercel adapter pointed at `standIn` (a fresh parsed
 * environment), then puts the local providers back.
 */
export async function withLiveVercel(standIn: VercelStandIn, body: () => Promise<void>) {
  process.env.PROVIDERS = "live";
  process.env.VERCEL_TOKEN = standIn.token;
  process.env.VERCEL_API_URL = standIn.url;
  resetEnv();
  try {
    await body();
  } finally {
    delete process.env.PROVIDERS;
    delete process.env.VERCEL_TOKEN;
    delete process.env.VERCEL_API_URL;
    resetEnv();
  }
}
