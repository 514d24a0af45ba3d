/**
 * The content studio on Sanity (PROVIDERS=live). Projects, datasets and CORS origins go through
 * @sanity/client to Sanity's Projects API; invitations go to its Access API
 * (/access/project/{projectId}/invites), which has no SDK methods and is called with fetch. Both
 * are described in Sanity's HTTP API reference on sanity.io. Every failure is a ProviderError.
 * Feature flags are this adapter's convention (the contract names no flag endpoint): a map in
 * the project's metadata, `metadata.stackshiftFeatures`, which the studio reads when it starts.
 * deleteStudio is DELETE /projects/{projectId} on the Projects API; its 404 counts as done, since
 * a retried cleanup may find the project removed by the attempt whose answer was lost.
 * Members: listed from the project (GET /projects/{id}, e-mails from GET /users/{ids}), removed
 * with DELETE /projects/{id}/members/{userId}, and their role changed by granting the new one
 * (PUT .../members/{userId}/roles/{role}) then taking the others back (DELETE .../roles/{role});
 * a 404 on a removal counts as done.
 * API (robot) tokens: listed with GET /projects/{id}/tokens and revoked with
 * DELETE /projects/{id}/tokens/{tokenId} (404: already gone), the endpoints Sanity's CLI uses for
 * `sanity tokens list` and `delete`. A listed token names its own robot user (projectUserId),
 * never the person who made it; the token whose robot is the caller (isCurrentUser among the
 * project's members) is this adapter's own and never listed.
 */
import { createClient } from "@sanity/client";
import { ProviderError } from "../errors";
import type { ContentStudioProvider, InvitationStatus, Studio } from "./types";
import {
  fromSdk,
  idempotencyTag,
  list,
  networkError,
  PROVIDER,
  record,
  sameOrigin,
  sdkStatus,
  str,
  toInvite,
  toToken,
  vendorError,
  withTag,
  withoutTag,
  type VendorInvite,
  type VendorMember,
} from "./sanity/vendor.server";

export { idempotencyTag } from "./sanity/vendor.server";

export type SanityContentStudioOptions = {
  token: string;
  organizationId?: string;
  /** The API host, https://api.sanity.io by default; tests point it at a stand-in. */
  baseUrl?: string;
  /** Studios are served at https://{projectId}.{studioHost} (SANITY_STUDIO_HOST). */
  studioHost?: string;
  timeoutMs?: number;
};

const MANAGEMENT_API = "2021-06-07";
const ACCESS_API = "v2025-07-11";
const DEFAULT_HOST = "https://api.sanity.io";
const DATASET_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** The project metadata key holding our feature flags (see the module comment). */
export const FEATURES_METADATA_KEY = "stackshiftFeatures";

export function createSanityContentStudio(options: SanityContentStudioOptions) {
  const host = (options.baseUrl ?? DEFAULT_HOST).replace(/\/+$/, "");
  const timeout = options.timeoutMs ?? 30_000;
  const client = createClient({
    apiHost: host,
    apiVersion: MANAGEMENT_API,
    token: options.token,
    useProjectHostname: false,
    useCdn: false,
    // Retries belong to the jobs, which honour retry-after; the SDK would retry blindly.
    maxRetries: 0,
    timeout,
  });
  // Which invite body the API took last (`role` or `roleNames[]`); a 400 tries the other.
  let inviteShape: "role" | "roleNames" = "role";

  async function sdk<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw fromSdk(error, what);
    }
  }

  /** The access API, with fetch. Statuses in `allow` are returned instead of thrown. */
  async function access(
    method: string,
    path: string,
    what: string,
    init: { body?: unknown; allow?: number[] } = {},
  ): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await fetch(`${host}/${ACCESS_API}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${options.token}`,
          Accept: "application/json",
          ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
        },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(timeout),
      });
    } catch (error) {
      throw networkError(error, what);
    }
    const text = await response.text().catch(() => "");
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = { message: text.slice(0, 200) };
    }
    if (response.ok || init.allow?.includes(response.status)) {
      return { status: response.status, body };
    }
    throw vendorError(response.status, body, response.headers.get("retry-after"), what);
  }

  const invitesPath = (projectId: string) =>
    `/access/project/${encodeURIComponent(projectId)}/invites`;

  async function pendingInvites(projectId: string): Promise<VendorInvite[]> {
    const found: VendorInvite[] = [];
    let cursor: string | undefined;
    // Bounded: a cursor that never ends must not loop forever.
    for (let page = 0; page < 100; page += 1) {
      const query = new URLSearchParams({ status: "pending", limit: "500" });
      if (cursor) query.set("nextCursor", cursor);
      const { body } = await access(
        "GET",
        `${invitesPath(projectId)}?${query}`,
        "list invitations",
      );
      for (const item of list(body)) {
        const invite = toInvite(item);
        if (invite) found.push(invite);
      }
      cursor = Array.isArray(body)
        ? undefined
        : str((body as { nextCursor?: unknown })?.nextCursor);
      if (!cursor) break;
    }
    return found;
  }

  /**
   * The project's people: its members (GET /projects/{id}), then their user records for the
   * e-mails (GET /users/{ids}, 100 ids a request). Robots and the token's own user are left out:
   * nothing here may remove or demote them. Roles come from `roles[].name` (current API) or the
   * single `role` (older answers).
   */
  async function projectMembers(projectId: string): Promise<VendorMember[]> {
    const project = await sdk("read the project", () =>
      client.request<{ members?: unknown }>({ uri: `/projects/${encodeURIComponent(projectId)}` }),
    );
    const people = (Array.isArray(project?.members) ? project.members : [])
      .map(record)
      .filter((m) => m.isRobot !== true && m.isCurrentUser !== true)
      .flatMap((m) => {
        const id = str(m.id);
        if (!id) return [];
        const named = (Array.isArray(m.roles) ? m.roles : [])
          .map((r) => str(record(r).name) ?? str(r))
          .filter((r): r is string => Boolean(r));
        const roles = named.length > 0 ? named : [str(m.role)].filter((r): r is string => !!r);
        return [{ id, roles }];
      });
    const emails = new Map<string, string>();
    for (let i = 0; i < people.length; i += 100) {
      const chunk = people.slice(i, i + 100).map((p) => encodeURIComponent(p.id));
      const users = await sdk("read the project members", () =>
        client.request<unknown>({ uri: `/users/${chunk.join(",")}` }),
      );
      // One id answers with an object, several with an array.
      for (const user of Array.isArray(users) ? users : [users]) {
        const id = str(record(user).id);
        const email = str(record(user).email);
        if (id && email) emails.set(id, email.toLowerCase());
      }
    }
    return people.map((p) => ({ ...p, email: emails.get(p.id) ?? null }));
  }

  /** The members with an address (the dashboard matches people by it). */
  async function addressedMembers(projectId: string): Promise<VendorMember[]> {
    return (await projectMembers(projectId)).filter((m) => m.email !== null);
  }

  async function memberEmails(projectId: string): Promise<Set<string>> {
    return new Set((await addressedMembers(projectId)).map((m) => m.email!));
  }

  const memberPath = (projectId: string, userId: string) =>
    `/projects/${encodeURIComponent(projectId)}/members/${encodeURIComponent(userId)}`;

  /** A management API call whose 404 means "already so" (a retried job finds it done). */
  async function idempotent(what: string, method: string, uri: string) {
    try {
      await client.request({ method, uri });
    } catch (error) {
      if (sdkStatus(error) === 404) return;
      throw fromSdk(error, what);
    }
  }

  /** Creates an invitation; "exists" when the vendor says the e-mail is invited or a member. */
  async function postInvite(
    projectId: string,
    email: string,
    role: string,
  ): Promise<"created" | "exists"> {
    const shapes =
      inviteShape === "role" ? (["role", "roleNames"] as const) : (["roleNames", "role"] as const);
    let refused: { status: number; body: unknown } | undefined;
    for (const shape of shapes) {
      const body = shape === "role" ? { email, role } : { email, roleNames: [role] };
      const result = await access("POST", invitesPath(projectId), "send the invitation", {
        body,
        allow: [400, 409],
      });
      if (result.status === 409) return "exists";
      if (result.status === 400) {
        // Maybe the other body shape: try it once before giving up.
        refused = result;
        continue;
      }
      inviteShape = shape;
      return "created";
    }
    throw vendorError(400, refused?.body, undefined, "send the invitation");
  }

  async function revoke(projectId: string, inviteId: string) {
    await access(
      "DELETE",
      `${invitesPath(projectId)}/${encodeURIComponent(inviteId)}`,
      "revoke the invitation",
      { allow: [404] },
    );
  }

  function toStudio(project: { id?: unknown; projectId?: unknown; displayName?: unknown }): Studio {
    const projectId = str(project.projectId) ?? str(project.id);
    if (!projectId) {
      throw new ProviderError("Sanity answered without a project id", { provider: PROVIDER });
    }
    return {
      projectId,
      displayName: withoutTag(str(project.displayName) ?? ""),
      studioUrl: `https://${projectId}.${options.studioHost ?? "sanity.studio"}`,
    };
  }

  const provider: ContentStudioProvider = {
    async createStudio({ displayName, idempotencyKey }) {
      const name = withTag(displayName, idempotencyKey);
      const projects = await sdk("list projects", () =>
        client.projects.list({
          includeMembers: false,
          includeFeatures: false,
          ...(options.organizationId ? { organizationId: options.organizationId } : {}),
        }),
      );
      const suffix = ` [${idempotencyTag(idempotencyKey)}]`;
      const existing = projects.find((p) => str(p.displayName)?.endsWith(suffix));
      if (existing) return toStudio(existing);
      const created = await sdk("create the project", () =>
        client.request<Record<string, unknown>>({
          method: "POST",
          uri: "/projects",
          body: { displayName: name, organizationId: options.organizationId },
        }),
      );
      return toStudio({ displayName: name, ...created });
    },

    async getStudio(projectId) {
      const project = await sdk("read the project", () =>
        client.request<Record<string, unknown>>({
          uri: `/projects/${encodeURIComponent(projectId)}`,
        }),
      );
      return toStudio({ id: projectId, ...project });
    },

    async ensureDataset(projectId, name) {
      if (!DATASET_NAME.test(name)) {
        throw new ProviderError(`Invalid dataset name: ${name}`, {
          provider: PROVIDER,
          status: 400,
        });
      }
      try {
        await client.request({
          method: "PUT",
          uri: `/projects/${encodeURIComponent(projectId)}/datasets/${name}`,
          body: { aclMode: "private" },
        });
      } catch (error) {
        // 409: the dataset already exists, which is what we want.
        if (sdkStatus(error) === 409) return;
        throw fromSdk(error, "create the dataset");
      }
    },

    async addCorsOrigin(projectId, origin) {
      const path = `/projects/${encodeURIComponent(projectId)}/cors`;
      const existing = await sdk("list CORS origins", () => client.request<unknown>({ uri: path }));
      if (
        list(existing).some((entry) =>
          sameOrigin(str((entry as { origin?: unknown })?.origin) ?? "", origin),
        )
      ) {
        return;
      }
      try {
        await client.request({
          method: "POST",
          uri: path,
          body: { origin, allowCredentials: true },
        });
      } catch (error) {
        // A concurrent run added it meanwhile: 409, or 400 saying it exists.
        const status = sdkStatus(error);
        const message = error instanceof Error ? error.message : "";
        if (status === 409 || (status === 400 && /already|exists|duplicate/i.test(message))) return;
        throw fromSdk(error, "add the CORS origin");
      }
    },

    async inviteMember(projectId, { email, role }) {
      const address = email.trim().toLowerCase();
      if ((await postInvite(projectId, address, role)) === "created") return;
      // Already invited: the interface promises a fresh e-mail. Already a member: nothing to do.
      const pending = (await pendingInvites(projectId)).find((i) => i.email === address);
      if (!pending) return;
      await revoke(projectId, pending.id);
      await postInvite(projectId, address, role);
    },

    async resendInvite(projectId, email) {
      const address = email.trim().toLowerCase();
      const pending = (await pendingInvites(projectId)).find((i) => i.email === address);
      if (!pending) {
        throw new ProviderError(`No pending invitation for ${address}`, {
          provider: PROVIDER,
          status: 404,
          code: "notFound",
        });
      }
      // The API cannot re-send an invitation: revoke it and invite again with the same role.
      await revoke(projectId, pending.id);
      await postInvite(projectId, address, pending.role);
    },

    async invitationStatus(projectId, email): Promise<InvitationStatus> {
      const address = email.trim().toLowerCase();
      if ((await pendingInvites(projectId)).some((i) => i.email === address)) return "pending";
      return (await memberEmails(projectId)).has(address) ? "accepted" : "none";
    },

    async listAccess(projectId) {
      const people = await projectMembers(projectId);
      const invites = await pendingInvites(projectId);
      return {
        members: people.flatMap(({ email, roles }) => (email ? [{ email, roles }] : [])),
        invitations: invites.map(({ email, role }) => ({ email, role })),
        // A member without an address: one the users endpoint answers without `email`.
        unaddressed: people.flatMap(({ id, email, roles }) => (email ? [] : [{ id, roles }])),
      };
    },

    async removeMemberById(projectId, userId) {
      await idempotent("remove the member", "DELETE", memberPath(projectId, userId));
    },

    async removeMember(projectId, email) {
      const address = email.trim().toLowerCase();
      for (const member of (await addressedMembers(projectId)).filter((m) => m.email === address)) {
        await idempotent("remove the member", "DELETE", memberPath(projectId, member.id));
      }
    },

    async setMemberRole(projectId, email, role) {
      const address = email.trim().toLowerCase();
      const member = (await addressedMembers(projectId)).find((m) => m.email === address);
      if (!member) {
        throw new ProviderError(`${address} is not a member of the project`, {
          provider: PROVIDER,
          status: 404,
          code: "notFound",
        });
      }
      const rolesPath = `${memberPath(projectId, member.id)}/roles`;
      // The new role first: a member is never left without a role in between.
      if (!member.roles.includes(role)) {
        await sdk("grant the role", () =>
          client.request({ method: "PUT", uri: `${rolesPath}/${encodeURIComponent(role)}` }),
        );
      }
      for (const other of member.roles.filter((r) => r !== role)) {
        await idempotent(
          "take the role back",
          "DELETE",
          `${rolesPath}/${encodeURIComponent(other)}`,
        );
      }
    },

    async revokeInvite(projectId, email) {
      const address = email.trim().toLowerCase();
      for (const invite of (await pendingInvites(projectId)).filter((i) => i.email === address)) {
        await revoke(projectId, invite.id);
      }
    },

    async listTokens(projectId) {
      const uri = `/projects/${encodeURIComponent(projectId)}`;
      const project = await sdk("read the project", () =>
        client.request<{ members?: unknown }>({ uri }),
      );
      // The robot the adapter's own token belongs to, if the token is one of this project's.
      const own = new Set(
        (Array.isArray(project?.members) ? project.members : [])
          .map(record)
          .filter((m) => m.isCurrentUser === true)
          .map((m) => str(m.id)),
      );
      const answer = await sdk("list the API tokens", () =>
        client.request<unknown>({ uri: `${uri}/tokens` }),
      );
      return list(answer)
        .map(toToken)
        .filter((t): t is NonNullable<typeof t> => t !== null && !own.has(t.robotId ?? undefined))
        .map(({ id, label, roles, createdAt }) => ({ id, label, roles, createdAt }))
        .sort((a, b) => (a.createdAt ?? "").localeCompare(b.createdAt ?? ""));
    },

    async revokeToken(projectId, tokenId) {
      await idempotent(
        "revoke the API token",
        "DELETE",
        `/projects/${encodeURIComponent(projectId)}/tokens/${encodeURIComponent(tokenId)}`,
      );
    },

    async setFeatureFlag(projectId, flag, enabled) {
      const uri = `/projects/${encodeURIComponent(projectId)}`;
      const project = await sdk("read the project", () =>
        client.request<{ metadata?: unknown }>({ uri }),
      );
      const metadata = record(project?.metadata);
      const features = record(metadata[FEATURES_METADATA_KEY]);
      // Already so (a re-run): no write.
      if (features[flag] === enabled) return;
      // The PATCH replaces the metadata as a whole, so the rest of it goes back as it was read.
      await sdk("set the studio feature", () =>
        client.request({
          method: "PATCH",
          uri,
          body: {
            metadata: { ...metadata, [FEATURES_METADATA_KEY]: { ...features, [flag]: enabled } },
          },
        }),
      );
    },

    async deleteStudio(projectId) {
      try {
        await client.request({
          method: "DELETE",
          uri: `/projects/${encodeURIComponent(projectId)}`,
        });
      } catch (error) {
        // Already gone (an earlier attempt, or someone in Sanity's manage UI): what we want.
        if (sdkStatus(error) === 404) return;
        throw fromSdk(error, "delete the project");
      }
    },
  };
  return provider;
}
