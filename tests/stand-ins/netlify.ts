/**
 * A Netlify API stand-in (https://api.netlify.com/api/v1) built from @netlify/open-api's
 * swagger.json and the adapter's needs: sites (create, by name, get, PATCH of the
 * custom domain, DELETE with its deploys: 204, 404 once gone), the certificate (POST
 * /sites/{id}/ssl: 422 until the DNS points at Netlify, see `pointDns`), builds and deploys
 * (page-numbered, newest first, with a Link header), restoring a deploy (POST
 * /sites/{id}/deploys/{deploy_id}/restore: 201 with the deploy, now the site's published one;
 * 404 for a deploy the site does not have, 422 for one that is not ready), site-level
 * environment variables (/accounts/{account}/env?site_id=, the account being the site's slug:
 * get, create, PUT, delete), Bearer auth, `{code, message}` errors. Every JSON answer is
 * checked against the swagger definition of its operation, and every request body against the
 * operation's body parameter: what does not fit lands in `violations` (tests assert it stays
 * empty).
 */
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import { startStandInServer, type FailureRule, type Recorded, type Reply } from "./hosting-server";

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  allOf?: Schema[];
};
type Swagger = {
  definitions: Record<string, Schema>;
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        parameters?: { in: string; schema?: Schema }[];
        responses?: Record<string, { schema?: Schema }>;
      }
    >
  >;
};

export const swagger: Swagger = JSON.parse(
  fs.readFileSync(createRequire(import.meta.url).resolve("@netlify/open-api"), "utf8"),
);

function resolve(schema: Schema): Schema {
  if (schema.$ref) return resolve(swagger.definitions[schema.$ref.replace("#/definitions/", "")]);
  if (schema.allOf) {
    const parts = schema.allOf.map(resolve);
    return {
      type: "object",
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    };
  }
  return schema;
}

/**
 * Fields of `value` the schema does not define, and values of the wrong JSON type. Null is
 * accepted anywhere: the real API sends null for unset fields the swagger types as strings.
 */
export function swaggerViolations(schema: Schema, value: unknown, path = "$"): string[] {
  if (value === null || value === undefined) return [];
  const s = resolve(schema);
  const type = s.type ?? (s.properties ? "object" : undefined);
  if (type === "array") {
    if (!Array.isArray(value)) return [`${path}: expected array`];
    return value.flatMap((v, i) => (s.items ? swaggerViolations(s.items, v, `${path}[${i}]`) : []));
  }
  if (type === "object") {
    if (typeof value !== "object" || Array.isArray(value)) return [`${path}: expected object`];
    if (!s.properties) return [];
    return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => {
      const property = s.properties?.[key];
      if (property) return swaggerViolations(property, v, `${path}.${key}`);
      if (s.additionalProperties && typeof s.additionalProperties === "object") {
        return swaggerViolations(s.additionalProperties, v, `${path}.${key}`);
      }
      return s.additionalProperties ? [] : [`${path}.${key}: not in the swagger`];
    });
  }
  const actual = typeof value;
  if (type === "string" && actual !== "string") return [`${path}: expected string`];
  if ((type === "integer" || type === "number") && actual !== "number") {
    return [`${path}: expected number`];
  }
  if (type === "boolean" && actual !== "boolean") return [`${path}: expected boolean`];
  return [];
}

export function operation(path: string, verb: string) {
  const op = swagger.paths[path]?.[verb];
  if (!op) throw new Error(`No ${verb} ${path} in the Netlify swagger`);
  return op;
}

export type NetlifySite = {
  id: string;
  name: string;
  account_slug: string;
  repo_url: string | null;
  repo_branch: string;
  custom_domain: string | null;
  domain_aliases: string[];
  /** A certificate was issued for the current custom domain. */
  certificate: boolean;
  published_deploy_id: string | null;
  created_at: string;
  /** Site-level environment variables by key, as the env API keeps them. */
  env: Map<string, NetlifyEnvVar>;
};

export type NetlifyEnvVar = {
  key: string;
  scopes: string[];
  values: { id: string; context: string; value: string }[];
  updated_at: string;
};

/** What a variable gets when created without scopes (granular ones need a Pro plan). */
const ALL_SCOPES = ["builds", "functions", "runtime", "post-processing"];

export type NetlifyDeploy = {
  id: string;
  site_id: string;
  build_id: string;
  state: string;
  title: string | null;
  branch: string;
  context: string;
  commit_ref: string;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  published_at: string | null;
};

export async function startNetlifyStandIn(options: { token?: string } = {}) {
  const token = options.token ?? "netlify-test-token";
  const sites = new Map<string, NetlifySite>();
  const deploys: NetlifyDeploy[] = [];
  const violations: string[] = [];
  /** Domains whose DNS points at Netlify (the stand-in's view of the registrar). */
  const dns = new Set<string>();
  let clock = Date.parse("2026-01-01T00:00:00Z");
  // Strictly increasing times keep "newest first" unambiguous.
  const tick = () => new Date((clock += 1000)).toISOString();
  let base = "";

  const error = (status: number, message: string) => ({ code: status, message });
  const fail = (status: number, message: string): Reply => ({
    status,
    body: error(status, message),
  });

  function deployJson(d: NetlifyDeploy) {
    const site = sites.get(d.site_id)!;
    const deployHost = `${d.id}--${site.name}.netlify.app`;
    return {
      id: d.id,
      site_id: d.site_id,
      build_id: d.build_id,
      state: d.state,
      name: site.name,
      url: `http://${site.name}.netlify.app`,
      ssl_url: `https://${site.name}.netlify.app`,
      admin_url: `https://app.netlify.com/projects/${site.name}`,
      deploy_url: `http://${deployHost}`,
      deploy_ssl_url: `https://${deployHost}`,
      screenshot_url: null,
      error_message: d.error_message,
      branch: d.branch,
      commit_ref: d.commit_ref,
      commit_url: `${site.repo_url}/commit/${d.commit_ref}`,
      skipped: null,
      created_at: d.created_at,
      updated_at: d.updated_at,
      published_at: d.published_at,
      title: d.title,
      context: d.context,
      locked: null,
      review_url: null,
      framework: "next",
      draft: false,
      required: [],
      required_functions: [],
    };
  }

  function siteJson(site: NetlifySite) {
    const published = site.published_deploy_id
      ? deploys.find((d) => d.id === site.published_deploy_id)
      : undefined;
    return {
      id: site.id,
      state: "current",
      plan: "nf_team_dev",
      name: site.name,
      custom_domain: site.custom_domain,
      domain_aliases: site.domain_aliases,
      url: `http://${site.name}.netlify.app`,
      ssl_url: `https://${site.name}.netlify.app`,
      admin_url: `https://app.netlify.com/projects/${site.name}`,
      screenshot_url: null,
      created_at: site.created_at,
      updated_at: site.created_at,
      user_id: "5f1b2c3d4e5f6a7b8c9d0e1f",
      // The *.netlify.app certificate covers a site without a custom domain.
      ssl: site.custom_domain ? site.certificate : true,
      force_ssl: true,
      managed_dns: true,
      deploy_url: `https://${site.name}.netlify.app`,
      published_deploy: published ? deployJson(published) : null,
      account_slug: site.account_slug,
      account_name: "StackShift",
      build_settings: site.repo_url
        ? {
            provider: "github",
            repo_path: site.repo_url.replace("https://github.com/", ""),
            repo_branch: site.repo_branch,
            repo_url: site.repo_url,
            cmd: "npm run build",
            dir: ".next",
          }
        : {},
      default_hooks_data: { access_token: "hook-token" },
    };
  }

  /** Answers 200 with `body`, recording anything outside the operation's swagger schema. */
  function ok(swaggerPath: string, verb: string, body: unknown, headers?: Record<string, string>) {
    const responses = operation(swaggerPath, verb).responses ?? {};
    const status = responses["201"] ? 201 : 200;
    const schema = responses[String(status)]?.schema;
    if (schema) {
      violations.push(
        ...swaggerViolations(schema, body).map((v) => `${verb} ${swaggerPath} response ${v}`),
      );
    }
    return { status, body, headers };
  }

  function checkBody(swaggerPath: string, verb: string, body: unknown) {
    const parameter = operation(swaggerPath, verb).parameters?.find((p) => p.in === "body");
    if (parameter?.schema) {
      violations.push(
        ...swaggerViolations(parameter.schema, body).map(
          (v) => `${verb} ${swaggerPath} request ${v}`,
        ),
      );
    }
  }

  function createSite(request: Recorded, accountSlug: string, swaggerPath: string) {
    checkBody(swaggerPath, "post", request.body);
    const input = (request.body ?? {}) as {
      name?: string;
      repo?: { repo_url?: string; repo_path?: string; repo_branch?: string };
    };
    const name = input.name ?? `site-${randomBytes(4).toString("hex")}`;
    if (!/^[a-z0-9-]{1,63}$/.test(name)) return fail(422, "Validation Failed: name is invalid");
    if ([...sites.values()].some((s) => s.name === name)) {
      return fail(422, "Validation Failed: subdomain must be unique");
    }
    const site: NetlifySite = {
      id: randomUUID(),
      name,
      account_slug: accountSlug,
      repo_url:
        input.repo?.repo_url ??
        (input.repo?.repo_path ? `https://github.com/${input.repo.repo_path}` : null),
      repo_branch: input.repo?.repo_branch ?? "main",
      custom_domain: null,
      domain_aliases: [],
      certificate: false,
      published_deploy_id: null,
      created_at: tick(),
      env: new Map(),
    };
    sites.set(site.id, site);
    return ok(swaggerPath, "post", siteJson(site));
  }

  function listSites(request: Recorded, swaggerPath: string, accountSlug?: string) {
    const name = request.query.get("name");
    const found = [...sites.values()].filter(
      (s) => (!name || s.name.includes(name)) && (!accountSlug || s.account_slug === accountSlug),
    );
    return ok(swaggerPath, "get", found.map(siteJson));
  }

  function updateSite(request: Recorded, site: NetlifySite) {
    checkBody("/sites/{site_id}", "patch", request.body);
    const input = (request.body ?? {}) as {
      custom_domain?: string | null;
      domain_aliases?: string[];
    };
    if (input.custom_domain !== undefined) {
      const domain = input.custom_domain || null;
      const owner = [...sites.values()].find((s) => s.id !== site.id && s.custom_domain === domain);
      if (domain && owner) {
        return fail(422, `Validation Failed: custom_domain ${domain} is already taken`);
      }
      if (domain !== site.custom_domain) site.certificate = false;
      site.custom_domain = domain;
    }
    if (input.domain_aliases !== undefined) site.domain_aliases = input.domain_aliases;
    return ok("/sites/{site_id}", "patch", siteJson(site));
  }

  function provisionCertificate(site: NetlifySite) {
    if (!site.custom_domain) return fail(422, "No custom domain configured");
    const names = [site.custom_domain, ...site.domain_aliases];
    if (!names.every((name) => dns.has(name))) return fail(422, "bad dns");
    site.certificate = true;
    const now = tick();
    return ok("/sites/{site_id}/ssl", "post", {
      state: "issued",
      domains: names,
      created_at: now,
      updated_at: now,
      expires_at: new Date(clock + 90 * 86_400_000).toISOString(),
    });
  }

  /** DELETE /sites/{id}: the site, its deploys and variables go; Netlify answers 204, no body. */
  function deleteSite(site: NetlifySite): Reply {
    // The swagger must have the operation (it answers 204, no body), as ok() checks for others.
    operation("/sites/{site_id}", "delete");
    sites.delete(site.id);
    for (let i = deploys.length - 1; i >= 0; i -= 1) {
      if (deploys[i].site_id === site.id) deploys.splice(i, 1);
    }
    return { status: 204 };
  }

  /** Publishes an earlier deploy again, as Netlify's "Publish deploy" does (no new build). */
  function restoreDeploy(site: NetlifySite, deployId: string): Reply {
    const deploy = deploys.find((d) => d.id === deployId && d.site_id === site.id);
    if (!deploy) return fail(404, "Not Found");
    // Only a finished deploy has files to serve.
    if (deploy.state !== "ready") return fail(422, `Deploy is not ready (state: ${deploy.state})`);
    deploy.published_at = deploy.updated_at = tick();
    site.published_deploy_id = deploy.id;
    return ok("/sites/{site_id}/deploys/{deploy_id}/restore", "post", deployJson(deploy));
  }

  function envJson(variable: NetlifyEnvVar) {
    return {
      key: variable.key,
      scopes: variable.scopes,
      values: variable.values,
      is_secret: false,
      updated_at: variable.updated_at,
    };
  }

  type EnvInput = {
    key?: string;
    scopes?: string[];
    values?: { context?: string; value?: string }[];
  };

  /** The variable as written, or the 422 Netlify gives for a malformed one. */
  function envFromInput(input: EnvInput, key: string, scopes: string[]): NetlifyEnvVar | Reply {
    if (!Array.isArray(input.values) || input.values.length === 0) {
      return fail(422, "Validation Failed: values are required");
    }
    const values = [];
    for (const v of input.values) {
      if (typeof v.value !== "string" || !v.context) {
        return fail(422, "Validation Failed: every value needs a context and a value");
      }
      values.push({ id: randomUUID(), context: v.context, value: v.value });
    }
    return { key, scopes: input.scopes ?? scopes, values, updated_at: tick() };
  }

  /** /accounts/{account}/env[/{key}]?site_id=: the site's own variables. */
  function envRoute(request: Recorded, account: string, key: string | null): Reply {
    const siteId = request.query.get("site_id");
    if (!siteId) return fail(400, "This stand-in keeps site-level variables only (site_id)");
    const site = sites.get(siteId);
    if (!site || site.account_slug !== account) return fail(404, "Not Found");
    if (key === null && request.method === "POST") {
      checkBody("/accounts/{account_id}/env", "post", request.body);
      if (!Array.isArray(request.body)) return fail(422, "Validation Failed: expected a list");
      const created: NetlifyEnvVar[] = [];
      for (const input of request.body as EnvInput[]) {
        if (!input.key || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(input.key)) {
          return fail(422, "Validation Failed: key is invalid");
        }
        if (site.env.has(input.key)) {
          return fail(400, `Environment variable ${input.key} already exists`);
        }
        const variable = envFromInput(input, input.key, ALL_SCOPES);
        if ("status" in variable) return variable;
        created.push(variable);
      }
      for (const variable of created) site.env.set(variable.key, variable);
      return ok("/accounts/{account_id}/env", "post", created.map(envJson));
    }
    if (key === null) return fail(404, "Not Found");
    const existing = site.env.get(key);
    if (!existing) return fail(404, "Environment variable not found");
    if (request.method === "GET") {
      return ok("/accounts/{account_id}/env/{key}", "get", envJson(existing));
    }
    if (request.method === "PUT") {
      checkBody("/accounts/{account_id}/env/{key}", "put", request.body);
      const variable = envFromInput((request.body ?? {}) as EnvInput, key, existing.scopes);
      if ("status" in variable) return variable;
      site.env.set(key, variable);
      return ok("/accounts/{account_id}/env/{key}", "put", envJson(variable));
    }
    if (request.method === "DELETE") {
      site.env.delete(key);
      return { status: 204 };
    }
    return fail(404, "Not Found");
  }

  function handle(request: Recorded): Reply {
    if (request.headers.authorization !== `Bearer ${token}`) {
      return fail(401, "Access Denied: Invalid or expired token");
    }
    const { method, path } = request;
    let m: RegExpExecArray | null;
    if ((m = /^\/accounts\/([^/]+)\/env(?:\/([^/]+))?$/.exec(path))) {
      return envRoute(request, decodeURIComponent(m[1]), m[2] ? decodeURIComponent(m[2]) : null);
    }
    if (path === "/sites" && method === "GET") return listSites(request, "/sites");
    if (path === "/sites" && method === "POST") return createSite(request, "stackshift", "/sites");
    if ((m = /^\/([^/]+)\/sites$/.exec(path)) && m[1] !== "sites") {
      if (method === "GET") return listSites(request, "/{account_slug}/sites", m[1]);
      if (method === "POST") return createSite(request, m[1], "/{account_slug}/sites");
    }
    if ((m = /^\/sites\/([^/]+)(\/.*)?$/.exec(path))) {
      const site = sites.get(m[1]);
      if (!site) return fail(404, "Not Found");
      const rest = m[2] ?? "";
      if (rest === "" && method === "GET") return ok("/sites/{site_id}", "get", siteJson(site));
      if (rest === "" && method === "PATCH") return updateSite(request, site);
      if (rest === "" && method === "DELETE") return deleteSite(site);
      if (rest === "/ssl" && method === "POST") return provisionCertificate(site);
      if (rest === "/deploys" && method === "GET") {
        const page = Math.max(1, Number(request.query.get("page") ?? 1) || 1);
        const perPage = Math.min(100, Math.max(1, Number(request.query.get("per_page") ?? 100)));
        const all = deploys.filter((d) => d.site_id === site.id).reverse();
        const slice = all.slice((page - 1) * perPage, page * perPage);
        const link = (p: number, rel: string) =>
          `<${base}/sites/${site.id}/deploys?page=${p}&per_page=${perPage}>; rel="${rel}"`;
        const last = Math.max(1, Math.ceil(all.length / perPage));
        const links = [
          ...(page < last ? [link(page + 1, "next")] : []),
          ...(page > 1 ? [link(page - 1, "prev")] : []),
          link(last, "last"),
        ];
        return ok("/sites/{site_id}/deploys", "get", slice.map(deployJson), {
          Link: links.join(", "),
        });
      }
      if (rest === "/builds" && method === "POST") {
        const branch = request.query.get("branch") ?? site.repo_branch;
        const now = tick();
        const deploy: NetlifyDeploy = {
          id: randomBytes(12).toString("hex"),
          site_id: site.id,
          build_id: randomBytes(12).toString("hex"),
          state: "enqueued",
          title: request.query.get("title"),
          branch,
          context: branch === site.repo_branch ? "production" : "branch-deploy",
          commit_ref: randomBytes(20).toString("hex"),
          error_message: null,
          created_at: now,
          updated_at: now,
          published_at: null,
        };
        deploys.push(deploy);
        return ok("/sites/{site_id}/builds", "post", {
          id: deploy.build_id,
          deploy_id: deploy.id,
          sha: deploy.commit_ref,
          done: false,
          error: null,
          created_at: now,
        });
      }
      if ((m = /^\/deploys\/([^/]+)\/restore$/.exec(rest)) && method === "POST") {
        return restoreDeploy(site, decodeURIComponent(m[1]));
      }
      if ((m = /^\/deploys\/([^/]+)$/.exec(rest)) && method === "GET") {
        const deploy = deploys.find((d) => d.id === m![1] && d.site_id === site.id);
        if (!deploy) return fail(404, "Not Found");
        return ok("/sites/{site_id}/deploys/{deploy_id}", "get", deployJson(deploy));
      }
    }
    return fail(404, "Not Found");
  }

  const server = await startStandInServer({ handle, errorBody: error, prefix: "/api/v1" });
  base = server.url;

  return {
    ...server,
    token,
    sites,
    deploys,
    violations,
    fail: (rule: FailureRule) => server.fail(rule),
    /** Points the domains' DNS at Netlify: the next certificate request succeeds. */
    pointDns(...domains: string[]) {
      for (const domain of domains) dns.add(domain);
    },
    /** Moves a deploy on, as Netlify's build would; a ready deploy is published. */
    setDeployState(deployId: string, state: string, errorMessage: string | null = null) {
      const deploy = deploys.find((d) => d.id === deployId);
      if (!deploy) throw new Error(`no deploy ${deployId}`);
      deploy.state = state;
      deploy.error_message = errorMessage;
      deploy.updated_at = tick();
      if (state === "ready") {
        deploy.published_at = deploy.updated_at;
        sites.get(deploy.site_id)!.published_deploy_id = deploy.id;
      }
    },
  };
}

export type NetlifyStandIn = Awaited<ReturnType<typeof startNetlifyStandIn>>;
