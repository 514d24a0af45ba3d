/**
 * A stand-in for Sanity's management and access APIs on 127.0.0.1, built from
 * Sanity's published API documentation: the request paths and payloads the adapter must send, vendor
 * error bodies `{statusCode, error, message}`, 409 on duplicates and 429 with retry-after.
 * Projects carry `metadata` (a new one has Sanity's `color`), which PATCH /projects/{id} replaces
 * as a whole: the adapter keeps its feature flags there (metadata.stackshiftFeatures).
 * DELETE /projects/{id} removes a project with its datasets, CORS origins and invites (200
 * `{deleted: true}`; 404 once it is gone).
 * Members, as Sanity's project answer lists them: `{id, role, roles: [{name, title}], isRobot,
 * isCurrentUser}` (`role` is the older single-role field). DELETE /projects/{id}/members/{userId}
 * removes one (404 when not a member); PUT /projects/{id}/members/{userId}/roles/{role} grants a
 * role (400 for an unknown role) and DELETE of the same path takes it back (404 when not held,
 * 400 for the member's last role: a member always has one).
 * API (robot) tokens, as Sanity's CLI reads and writes them (`sanity tokens list|add|delete`):
 * GET /projects/{id}/tokens lists `{id, label, projectUserId, createdAt, roles: [{name, title}]}`,
 * with nothing saying who made a token; POST {label, roleName} answers `{id, key, label, roles,
 * projectUserId}` and adds the token's robot to the members (isRobot); DELETE
 * /projects/{id}/tokens/{tokenId} revokes it (its robot goes; 404 once gone). A new project
 * lists one token already: the one the stand-in's own bearer token stands for (robot-1, the
 * members' isCurrentUser).
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { createSanityContentStudio } from "~/providers/content-studio/sanity.server";

export type RecordedRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | undefined;
};

type Member = {
  id: string;
  email: string;
  roles: string[];
  isRobot?: boolean;
  isCurrentUser?: boolean;
};
type Token = {
  id: string;
  key: string;
  label: string;
  projectUserId: string;
  createdAt: string;
  roleName: string;
};

/** The roles a Sanity project has by default (and their titles). */
const ROLE_TITLES: Record<string, string> = {
  administrator: "Administrator",
  editor: "Editor",
  developer: "Developer",
  viewer: "Viewer",
  contributor: "Contributor",
};
type Invite = { id: string; email: string; roleNames: string[]; status: "pending" };
type Project = {
  id: string;
  displayName: string;
  organizationId: string | null;
  createdAt: string;
  metadata: Record<string, unknown>;
  members: Member[];
  datasets: Map<string, { aclMode: string }>;
  cors: { id: number; origin: string; allowCredentials: boolean }[];
  invites: Invite[];
  tokens: Token[];
};

type Failure = { status: number; body?: unknown; headers?: Record<string, string> };

export type SanityStandInOptions = {
  token?: string;
  /** Which invite body the API accepts; the other shape gets a 400 (the contract is unsure). */
  inviteBody?: "role" | "roleNames";
  /** Invites per page of the list (to exercise nextCursor). */
  invitePageSize?: number;
  /** How project creation names the id: `id` (documented) or `projectId`. */
  createdIdField?: "id" | "projectId";
};

const id = (n = 8) =>
  randomBytes(n)
    .toString("base64url")
    .replace(/[^a-z0-9]/gi, "")
    .toLowerCase()
    .padEnd(n, "x")
    .slice(0, n);

function vendorError(status: number, message: string) {
  const error =
    { 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 409: "Conflict" }[status] ??
    "Error";
  return { status, body: { statusCode: status, error, message } };
}

export async function startSanityStandIn(options: SanityStandInOptions = {}) {
  const token = options.token ?? "test-sanity-token";
  const projects = new Map<string, Project>();
  const requests: RecordedRequest[] = [];
  const failures: { method?: string; path: RegExp; failure: Failure }[] = [];
  const pageSize = options.invitePageSize ?? 500;
  let corsSeq = 0;

  function route(
    method: string,
    path: string,
    query: URLSearchParams,
    body: unknown,
  ): { status: number; body?: unknown; headers?: Record<string, string> } {
    let m: RegExpMatchArray | null;
    const b = (body ?? {}) as Record<string, unknown>;

    if (method === "GET" && path === "/v2021-06-07/projects") {
      const org = query.get("organizationId");
      return {
        status: 200,
        body: [...projects.values()]
          .filter((p) => !org || p.organizationId === org)
          .map((p) => ({
            id: p.id,
            displayName: p.displayName,
            organizationId: p.organizationId,
            createdAt: p.createdAt,
          })),
      };
    }
    if (method === "POST" && path === "/v2021-06-07/projects") {
      if (typeof b.displayName !== "string" || !b.displayName) {
        return vendorError(400, "displayName is required");
      }
      const project: Project = {
        id: id(),
        displayName: b.displayName,
        organizationId: typeof b.organizationId === "string" ? b.organizationId : null,
        createdAt: new Date().toISOString(),
        metadata: { color: "#2276fc" },
        members: [
          {
            id: "robot-1",
            email: "",
            roles: ["administrator"],
            isRobot: true,
            isCurrentUser: true,
          },
        ],
        datasets: new Map(),
        cors: [],
        invites: [],
        tokens: [
          {
            id: id(14),
            key: token,
            label: "StackShift dashboard",
            projectUserId: "robot-1",
            createdAt: new Date().toISOString(),
            roleName: "administrator",
          },
        ],
      };
      projects.set(project.id, project);
      const idField = options.createdIdField ?? "id";
      return {
        status: 200,
        body: {
          [idField]: project.id,
          displayName: project.displayName,
          organizationId: project.organizationId,
          createdAt: project.createdAt,
          members: [],
        },
      };
    }
    if ((m = path.match(/^\/v2021-06-07\/users\/([^/]+)$/)) && method === "GET") {
      const ids = decodeURIComponent(m[1]).split(",");
      const all = [...projects.values()].flatMap((p) => p.members);
      const users = ids
        .map((uid) => all.find((u) => u.id === uid))
        .filter((u): u is Member => Boolean(u))
        .map((u) => ({ id: u.id, displayName: u.email.split("@")[0], email: u.email }));
      // Like the vendor: one id answers with the object itself.
      return { status: 200, body: ids.length === 1 ? (users[0] ?? null) : users };
    }

    m = path.match(/^\/(v2021-06-07\/projects|v2025-07-11\/access\/project)\/([^/]+)(\/.*)?$/);
    if (!m) return vendorError(404, `No route for ${method} ${path}`);
    const project = projects.get(decodeURIComponent(m[2]));
    if (!project) return vendorError(404, "Project not found");
    const rest = m[3] ?? "";

    if (m[1] === "v2021-06-07/projects") {
      const projectJson = () => ({
        id: project.id,
        displayName: project.displayName,
        organizationId: project.organizationId,
        createdAt: project.createdAt,
        metadata: project.metadata,
        members: project.members.map((u) => ({
          id: u.id,
          role: u.roles[0],
          roles: u.roles.map((name) => ({ name, title: ROLE_TITLES[name] ?? name })),
          isRobot: Boolean(u.isRobot),
          // The stand-in's bearer token is robot-1's.
          isCurrentUser: Boolean(u.isCurrentUser),
        })),
      });
      if (method === "GET" && rest === "") return { status: 200, body: projectJson() };
      if (method === "DELETE" && rest === "") {
        // Everything of the project lives on it, so it goes with it.
        projects.delete(project.id);
        return { status: 200, body: { deleted: true } };
      }
      if (method === "PATCH" && rest === "") {
        const unknown = Object.keys(b).filter(
          (k) => !["displayName", "studioHost", "metadata"].includes(k),
        );
        if (unknown.length > 0) return vendorError(400, `Unknown fields: ${unknown.join(", ")}`);
        if (b.metadata !== undefined) {
          if (!b.metadata || typeof b.metadata !== "object" || Array.isArray(b.metadata)) {
            return vendorError(400, "metadata must be an object");
          }
          project.metadata = b.metadata as Record<string, unknown>;
        }
        if (typeof b.displayName === "string" && b.displayName) {
          project.displayName = b.displayName;
        }
        return { status: 200, body: projectJson() };
      }
      const dataset = rest.match(/^\/datasets\/([^/]+)$/);
      if (dataset && method === "PUT") {
        if (project.datasets.has(dataset[1])) {
          return vendorError(409, `Dataset "${dataset[1]}" already exists`);
        }
        project.datasets.set(dataset[1], { aclMode: String(b.aclMode ?? "public") });
        return { status: 200, body: { datasetName: dataset[1], aclMode: b.aclMode } };
      }
      const member = rest.match(/^\/members\/([^/]+)(?:\/roles\/([^/]+))?$/);
      if (member) {
        const userId = decodeURIComponent(member[1]);
        const index = project.members.findIndex((u) => u.id === userId);
        if (index < 0) return vendorError(404, "User is not a member of the project");
        const target = project.members[index];
        const role = member[2] ? decodeURIComponent(member[2]) : undefined;
        if (method === "DELETE" && role === undefined) {
          project.members.splice(index, 1);
          return { status: 200, body: { deleted: true } };
        }
        if (method === "PUT" && role !== undefined) {
          if (!ROLE_TITLES[role]) return vendorError(400, `Unknown role "${role}"`);
          if (!target.roles.includes(role)) target.roles.push(role);
          return { status: 200, body: { userId, roles: target.roles } };
        }
        if (method === "DELETE" && role !== undefined) {
          if (!target.roles.includes(role)) return vendorError(404, "The member has no such role");
          if (target.roles.length === 1) {
            return vendorError(400, "A member must have at least one role");
          }
          target.roles = target.roles.filter((r) => r !== role);
          return { status: 200, body: { userId, roles: target.roles } };
        }
      }
      if (rest === "/tokens" && method === "GET") {
        return {
          status: 200,
          body: project.tokens.map((t) => ({
            id: t.id,
            label: t.label,
            projectUserId: t.projectUserId,
            createdAt: t.createdAt,
            roles: [{ name: t.roleName, title: ROLE_TITLES[t.roleName] ?? t.roleName }],
          })),
        };
      }
      if (rest === "/tokens" && method === "POST") {
        if (typeof b.label !== "string" || !b.label) return vendorError(400, "label is required");
        const roleName = typeof b.roleName === "string" ? b.roleName : "editor";
        if (!ROLE_TITLES[roleName]) return vendorError(400, `Unknown role "${roleName}"`);
        const made = addToken(project, b.label, roleName);
        return {
          status: 200,
          body: {
            id: made.id,
            key: made.key,
            label: made.label,
            projectUserId: made.projectUserId,
            roles: [{ name: roleName, title: ROLE_TITLES[roleName] }],
          },
        };
      }
      const tokenPath = rest.match(/^\/tokens\/([^/]+)$/);
      if (tokenPath && method === "DELETE") {
        const index = project.tokens.findIndex((t) => t.id === decodeURIComponent(tokenPath[1]));
        if (index < 0) return vendorError(404, "Token not found");
        const [gone] = project.tokens.splice(index, 1);
        project.members = project.members.filter((u) => u.id !== gone.projectUserId);
        return { status: 200, body: { deleted: true } };
      }
      if (rest === "/cors" && method === "GET") return { status: 200, body: project.cors };
      if (rest === "/cors" && method === "POST") {
        if (typeof b.origin !== "string") return vendorError(400, "origin is required");
        if (project.cors.some((c) => c.origin === b.origin)) {
          return vendorError(409, "Origin already exists");
        }
        const entry = {
          id: (corsSeq += 1),
          origin: b.origin,
          allowCredentials: b.allowCredentials === true,
        };
        project.cors.push(entry);
        return { status: 201, body: entry };
      }
      return vendorError(404, `No route for ${method} ${path}`);
    }

    // Access API
    if (rest === "/invites" && method === "GET") {
      if (query.get("status") !== "pending") return vendorError(400, "status must be pending");
      const limit = Math.min(Number(query.get("limit") ?? 500), pageSize);
      const start = Number(query.get("nextCursor") ?? 0);
      const page = project.invites.slice(start, start + limit);
      const next = start + limit < project.invites.length ? String(start + limit) : null;
      return { status: 200, body: { data: page, nextCursor: next } };
    }
    if (rest === "/invites" && method === "POST") {
      const wanted = options.inviteBody ?? "role";
      const role =
        wanted === "role"
          ? typeof b.role === "string" && !("roleNames" in b)
            ? b.role
            : null
          : Array.isArray(b.roleNames) && typeof b.roleNames[0] === "string" && !("role" in b)
            ? (b.roleNames[0] as string)
            : null;
      if (!role) {
        return vendorError(
          400,
          wanted === "role" ? "body/role is required" : "body/roleNames must be an array",
        );
      }
      if (typeof b.email !== "string" || !b.email.includes("@")) {
        return vendorError(400, "body/email must be an email");
      }
      const email = b.email.toLowerCase();
      if (project.members.some((u) => u.email === email)) {
        return vendorError(409, "User is already a member of the project");
      }
      if (project.invites.some((i) => i.email === email)) {
        return vendorError(409, "An invitation for this email is already pending");
      }
      const invite: Invite = { id: id(12), email, roleNames: [role], status: "pending" };
      project.invites.push(invite);
      return { status: 201, body: invite };
    }
    const invite = rest.match(/^\/invites\/([^/]+)$/);
    if (invite && method === "DELETE") {
      const index = project.invites.findIndex((i) => i.id === decodeURIComponent(invite[1]));
      if (index < 0) return vendorError(404, "Invite not found");
      project.invites.splice(index, 1);
      return { status: 204 };
    }
    return vendorError(404, `No route for ${method} ${path}`);
  }

  /** A robot token and its robot member, as the vendor makes them. */
  function addToken(project: Project, label: string, roleName: string): Token {
    const made: Token = {
      id: id(14),
      key: `sk${randomBytes(24).toString("base64url")}`,
      label,
      projectUserId: `p${id(9)}`,
      createdAt: new Date().toISOString(),
      roleName,
    };
    project.tokens.push(made);
    project.members.push({ id: made.projectUserId, email: "", roles: [roleName], isRobot: true });
    return made;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const method = req.method ?? "GET";
      requests.push({
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body,
        authorization: req.headers.authorization,
      });
      let answer: { status: number; body?: unknown; headers?: Record<string, string> };
      const failureAt = failures.findIndex(
        (f) => (!f.method || f.method === method) && f.path.test(url.pathname),
      );
      if (failureAt >= 0) {
        answer = failures.splice(failureAt, 1)[0].failure;
      } else if (req.headers.authorization !== `Bearer ${token}`) {
        answer = vendorError(401, "Session not found");
      } else {
        answer = route(method, url.pathname, url.searchParams, body);
      }
      res.writeHead(answer.status, {
        ...(answer.body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...answer.headers,
      });
      res.end(answer.body !== undefined ? JSON.stringify(answer.body) : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    projects,
    /** The next request matching `path` (and `method`) gets this answer instead. */
    failNext(path: RegExp, failure: Failure, method?: string) {
      failures.push({ method, path, failure });
    },
    /** The invitee clicks the vendor's e-mail: the invite becomes a membership. */
    acceptInvite(projectId: string, email: string) {
      const project = projects.get(projectId);
      const index = project?.invites.findIndex((i) => i.email === email.toLowerCase()) ?? -1;
      if (!project || index < 0) throw new Error(`No pending invite for ${email}`);
      const [invite] = project.invites.splice(index, 1);
      project.members.push({ id: `u${id(9)}`, email: invite.email, roles: [...invite.roleNames] });
    },
    /** Adds a member directly, as someone in Sanity's manage UI would (drift to find). */
    seedMember(projectId: string, email: string, roles: string[] = ["editor"]) {
      const project = projects.get(projectId);
      if (!project) throw new Error(`No project ${projectId}`);
      project.members.push({ id: `u${id(9)}`, email: email.toLowerCase(), roles: [...roles] });
    },
    /**
     * An API token made in Sanity's manage interface (by whoever administers the project: the
     * vendor records no maker). Returns its id and key.
     */
    createToken(projectId: string, label: string, roleName = "editor") {
      const project = projects.get(projectId);
      if (!project) throw new Error(`No project ${projectId}`);
      const made = addToken(project, label, roleName);
      return { id: made.id, key: made.key };
    },
    /** Whether a token's key still works (it does until the token is revoked). */
    tokenWorks(key: string) {
      return [...projects.values()].some((p) => p.tokens.some((t) => t.key === key));
    },
    /** Adds an invite directly (to fill pages beyond the first). */
    seedInvite(projectId: string, email: string, role = "editor") {
      projects
        .get(projectId)
        ?.invites.push({ id: id(12), email, roleNames: [role], status: "pending" });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type SanityStandIn = Awaited<ReturnType<typeof startSanityStandIn>>;

/**
 * For the Sanity adapter's tests: a fresh stand-in per test (closed after it), the adapter
 * calling it, and one studio made through it; `calls` filters the requests the stand-in saw.
 */
export function sanityAdapterUnderTest(name: string) {
  let standIn: SanityStandIn | undefined;
  afterEach(async () => {
    await standIn?.close();
    standIn = undefined;
  });
  return {
    async setup() {
      standIn = await startSanityStandIn();
      const studio = createSanityContentStudio({ token: standIn.token, baseUrl: standIn.url });
      const { projectId } = await studio.createStudio({
        displayName: name,
        idempotencyKey: name.toLowerCase(),
      });
      return { s: standIn, studio, projectId };
    },
    calls: (s: SanityStandIn, method: string, path: RegExp) =>
      s.requests.filter((r) => r.method === method && path.test(r.path)),
  };
}
