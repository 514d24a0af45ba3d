import { afterEach, describe, expect, it } from "vitest";
import { startSanityStandIn, type SanityStandIn } from "../../../tests/stand-ins/sanity";
import { createSanityContentStudio, idempotencyTag } from "./sanity.server";
import { rejection } from "../../../tests/stand-ins/provider-error";

let standIn: SanityStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function setup(options: Parameters<typeof startSanityStandIn>[0] = {}) {
  standIn = await startSanityStandIn(options);
  const studio = createSanityContentStudio({
    token: standIn.token,
    organizationId: "org-1",
    baseUrl: standIn.url,
    studioHost: "studio.example",
  });
  return { s: standIn, studio };
}

const calls = (s: SanityStandIn, method: string, path: RegExp) =>
  s.requests.filter((r) => r.method === method && path.test(r.path));

describe("Sanity content studio adapter", () => {
  it("creates a project once per idempotency key, with the token and the organisation", async () => {
    const { s, studio } = await setup();
    const first = await studio.createStudio({ displayName: "Acme", idempotencyKey: "key-1" });
    expect(first.displayName).toBe("Acme");
    expect(first.studioUrl).toBe(`https://${first.projectId}.studio.example`);

    const [create] = calls(s, "POST", /^\/v2021-06-07\/projects$/);
    expect(create.authorization).toBe(`Bearer ${s.token}`);
    expect(create.body).toEqual({
      displayName: `Acme [${idempotencyTag("key-1")}]`,
      organizationId: "org-1",
    });

    // A re-run (say after a crash) finds the project instead of creating a second one.
    const again = await studio.createStudio({ displayName: "Acme", idempotencyKey: "key-1" });
    expect(again.projectId).toBe(first.projectId);
    expect(calls(s, "POST", /^\/v2021-06-07\/projects$/)).toHaveLength(1);
    expect(calls(s, "GET", /^\/v2021-06-07\/projects$/).at(-1)?.query.organizationId).toBe("org-1");

    const other = await studio.createStudio({ displayName: "Acme", idempotencyKey: "key-2" });
    expect(other.projectId).not.toBe(first.projectId);

    const read = await studio.getStudio(first.projectId);
    expect(read).toEqual(first);
  });

  it("reads the new project's id from projectId when the API names it so", async () => {
    const { studio } = await setup({ createdIdField: "projectId" });
    const created = await studio.createStudio({ displayName: "Beta", idempotencyKey: "k" });
    expect(created.projectId).toMatch(/^[a-z0-9]{8}$/);
  });

  it("creates a private dataset and tolerates 409 already exists", async () => {
    const { s, studio } = await setup();
    const { projectId } = await studio.createStudio({ displayName: "D", idempotencyKey: "d" });
    await studio.ensureDataset(projectId, "production");
    await studio.ensureDataset(projectId, "production");
    const puts = calls(s, "PUT", /\/datasets\//);
    expect(puts.map((r) => r.path)).toEqual([
      `/v2021-06-07/projects/${projectId}/datasets/production`,
      `/v2021-06-07/projects/${projectId}/datasets/production`,
    ]);
    expect(puts[0].body).toEqual({ aclMode: "private" });
    expect(s.projects.get(projectId)?.datasets.get("production")).toEqual({ aclMode: "private" });

    const invalid = await rejection(studio.ensureDataset(projectId, "../Prod"));
    expect(invalid.details.status).toBe(400);
  });

  it("adds a CORS origin with credentials once, tolerating a concurrent duplicate", async () => {
    const { s, studio } = await setup();
    const { projectId } = await studio.createStudio({ displayName: "C", idempotencyKey: "c" });
    await studio.addCorsOrigin(projectId, "https://site.example");
    await studio.addCorsOrigin(projectId, "https://site.example");
    const posts = calls(s, "POST", /\/cors$/);
    expect(posts).toHaveLength(1);
    expect(posts[0].path).toBe(`/v2021-06-07/projects/${projectId}/cors`);
    expect(posts[0].body).toEqual({ origin: "https://site.example", allowCredentials: true });

    // Another run added it between our list and our create.
    s.failNext(
      /\/cors$/,
      {
        status: 409,
        body: { statusCode: 409, error: "Conflict", message: "Origin already exists" },
      },
      "POST",
    );
    await studio.addCorsOrigin(projectId, "https://other.example");
  });

  it("invites with {email, role} and follows invite, resend and acceptance", async () => {
    const { s, studio } = await setup({ inviteBody: "role" });
    const { projectId } = await studio.createStudio({ displayName: "I", idempotencyKey: "i" });
    expect(await studio.invitationStatus(projectId, "ann@example.com")).toBe("none");

    await studio.inviteMember(projectId, { email: "Ann@Example.com", role: "administrator" });
    const [post] = calls(s, "POST", /\/invites$/);
    expect(post.path).toBe(`/v2025-07-11/access/project/${projectId}/invites`);
    expect(post.body).toEqual({ email: "ann@example.com", role: "administrator" });
    expect(await studio.invitationStatus(projectId, "ann@example.com")).toBe("pending");
    const list = calls(s, "GET", /\/invites$/).at(-1);
    expect(list?.query).toMatchObject({ status: "pending", limit: "500" });

    // Resend: the pending invite is revoked and a new one sent, with the same role.
    const before = s.projects.get(projectId)!.invites[0].id;
    await studio.resendInvite(projectId, "ann@example.com");
    expect(calls(s, "DELETE", /\/invites\//)[0].path).toBe(
      `/v2025-07-11/access/project/${projectId}/invites/${before}`,
    );
    const renewed = s.projects.get(projectId)!.invites;
    expect(renewed).toHaveLength(1);
    expect(renewed[0].id).not.toBe(before);
    expect(renewed[0].roleNames).toEqual(["administrator"]);

    // Inviting again re-sends too (the API answers 409 for a pending e-mail).
    await studio.inviteMember(projectId, { email: "ann@example.com", role: "administrator" });
    expect(s.projects.get(projectId)!.invites).toHaveLength(1);
    expect(calls(s, "DELETE", /\/invites\//)).toHaveLength(2);

    s.acceptInvite(projectId, "ann@example.com");
    expect(await studio.invitationStatus(projectId, "ann@example.com")).toBe("accepted");
    expect(calls(s, "GET", /^\/v2021-06-07\/users\//)).not.toHaveLength(0);

    // Nothing pending any more: nothing to resend; inviting a member is a no-op.
    const none = await rejection(studio.resendInvite(projectId, "ann@example.com"));
    expect(none.details.status).toBe(404);
    await studio.inviteMember(projectId, { email: "ann@example.com", role: "editor" });
    expect(s.projects.get(projectId)!.invites).toHaveLength(0);
  });

  it("falls back to {email, roleNames[]} on 400 and keeps using that shape", async () => {
    const { s, studio } = await setup({ inviteBody: "roleNames" });
    const { projectId } = await studio.createStudio({ displayName: "R", idempotencyKey: "r" });
    await studio.inviteMember(projectId, { email: "bob@example.com", role: "editor" });
    expect(calls(s, "POST", /\/invites$/).map((r) => r.body)).toEqual([
      { email: "bob@example.com", role: "editor" },
      { email: "bob@example.com", roleNames: ["editor"] },
    ]);
    await studio.inviteMember(projectId, { email: "cy@example.com", role: "developer" });
    expect(calls(s, "POST", /\/invites$/).at(-1)?.body).toEqual({
      email: "cy@example.com",
      roleNames: ["developer"],
    });
    expect(calls(s, "POST", /\/invites$/)).toHaveLength(3);
    expect(await studio.invitationStatus(projectId, "cy@example.com")).toBe("pending");

    // A 400 for both shapes is the vendor's message, not retried forever.
    const bad = await rejection(
      studio.inviteMember(projectId, { email: "not-an-email", role: "editor" }),
    );
    expect(bad.details.status).toBe(400);
    expect(bad.retryable).toBe(false);
  });

  it("follows nextCursor through the pending invitations", async () => {
    const { s, studio } = await setup({ invitePageSize: 2 });
    const { projectId } = await studio.createStudio({ displayName: "P", idempotencyKey: "p" });
    for (let i = 0; i < 5; i += 1) s.seedInvite(projectId, `p${i}@example.com`);
    expect(await studio.invitationStatus(projectId, "p4@example.com")).toBe("pending");
    const cursors = calls(s, "GET", /\/invites$/).map((r) => r.query.nextCursor);
    expect(cursors).toEqual([undefined, "2", "4"]);
  });

  it("maps 401, 404 and 429 (retry-after) to ProviderError", async () => {
    const { s } = await setup();
    const wrong = createSanityContentStudio({ token: "wrong", baseUrl: s.url });
    const unauthorized = await rejection(
      wrong.createStudio({ displayName: "X", idempotencyKey: "x" }),
    );
    expect(unauthorized.details).toMatchObject({
      provider: "sanity",
      status: 401,
      code: "Unauthorized",
    });
    expect(unauthorized.message).toContain("Session not found");
    expect(unauthorized.retryable).toBe(false);
    const unauthorizedAccess = await rejection(wrong.invitationStatus("abc", "a@example.com"));
    expect(unauthorizedAccess.details.status).toBe(401);

    const studio = createSanityContentStudio({ token: s.token, baseUrl: s.url });
    const missing = await rejection(studio.getStudio("nope1234"));
    expect(missing.details).toMatchObject({ status: 404, code: "Not Found" });
    expect(missing.message).toContain("Project not found");
    expect(
      (await rejection(studio.inviteMember("nope1234", { email: "a@b.co", role: "editor" })))
        .details.status,
    ).toBe(404);

    const limited = {
      status: 429,
      body: { statusCode: 429, error: "Too Many Requests", message: "Rate limit exceeded" },
      headers: { "Retry-After": "7" },
    };
    s.failNext(/^\/v2021-06-07\/projects$/, limited, "GET");
    const sdkLimited = await rejection(
      studio.createStudio({ displayName: "X", idempotencyKey: "x" }),
    );
    expect(sdkLimited.details).toMatchObject({ status: 429, retryAfterSeconds: 7 });
    expect(sdkLimited.retryable).toBe(true);

    const { projectId } = await studio.createStudio({ displayName: "X", idempotencyKey: "x" });
    s.failNext(/\/invites$/, limited, "POST");
    const accessLimited = await rejection(
      studio.inviteMember(projectId, { email: "a@b.co", role: "editor" }),
    );
    expect(accessLimited.details).toMatchObject({ status: 429, retryAfterSeconds: 7 });

    s.failNext(/\/datasets\//, {
      status: 503,
      body: { statusCode: 503, error: "Service Unavailable", message: "Try later" },
    });
    expect((await rejection(studio.ensureDataset(projectId, "production"))).retryable).toBe(true);
  });

  it("reports an unreachable API as a retryable ProviderError", async () => {
    const { s } = await setup();
    const url = s.url;
    await s.close();
    standIn = undefined;
    const studio = createSanityContentStudio({ token: "t", baseUrl: url, timeoutMs: 2000 });
    const sdkDown = await rejection(studio.getStudio("abc"));
    expect(sdkDown.details.status).toBeUndefined();
    expect(sdkDown.retryable).toBe(true);
    const accessDown = await rejection(studio.resendInvite("abc", "a@b.co"));
    expect(accessDown.retryable).toBe(true);
  });

  it("keeps feature flags in the project's metadata, writing only what changes", async () => {
    const { s, studio } = await setup();
    const { projectId } = await studio.createStudio({ displayName: "F", idempotencyKey: "f" });
    const patches = () => calls(s, "PATCH", /^\/v2021-06-07\/projects\/[^/]+$/);

    await studio.setFeatureFlag(projectId, "ecommerce", true);
    const [first] = patches();
    expect(first.path).toBe(`/v2021-06-07/projects/${projectId}`);
    expect(first.authorization).toBe(`Bearer ${s.token}`);
    // The metadata Sanity had (its colour) goes back with the flags.
    expect(first.body).toEqual({
      metadata: { color: "#2276fc", stackshiftFeatures: { ecommerce: true } },
    });

    // Already on (a re-run): read, no write.
    await studio.setFeatureFlag(projectId, "ecommerce", true);
    expect(patches()).toHaveLength(1);

    await studio.setFeatureFlag(projectId, "gpt", true);
    await studio.setFeatureFlag(projectId, "ecommerce", false);
    await studio.setFeatureFlag(projectId, "ecommerce", false);
    expect(patches()).toHaveLength(3);
    expect(s.projects.get(projectId)?.metadata).toEqual({
      color: "#2276fc",
      stackshiftFeatures: { ecommerce: false, gpt: true },
    });
  });

  it("maps feature-flag failures: 429 (retry-after) and 5xx retryable, 404 permanent", async () => {
    const { s, studio } = await setup();
    const { projectId } = await studio.createStudio({ displayName: "E", idempotencyKey: "e" });
    s.failNext(
      /^\/v2021-06-07\/projects\/[^/]+$/,
      {
        status: 429,
        body: { statusCode: 429, error: "Too Many Requests", message: "Rate limit exceeded" },
        headers: { "Retry-After": "9" },
      },
      "GET",
    );
    const limited = await rejection(studio.setFeatureFlag(projectId, "ecommerce", true));
    expect(limited.details).toMatchObject({
      provider: "sanity",
      status: 429,
      retryAfterSeconds: 9,
    });
    expect(limited.retryable).toBe(true);

    s.failNext(
      /^\/v2021-06-07\/projects\/[^/]+$/,
      {
        status: 502,
        body: { statusCode: 502, error: "Bad Gateway", message: "Upstream unavailable" },
      },
      "PATCH",
    );
    const unavailable = await rejection(studio.setFeatureFlag(projectId, "ecommerce", true));
    expect(unavailable.details.status).toBe(502);
    expect(unavailable.retryable).toBe(true);
    expect(s.projects.get(projectId)?.metadata).toEqual({ color: "#2276fc" });

    const missing = await rejection(studio.setFeatureFlag("nope1234", "ecommerce", true));
    expect(missing.details).toMatchObject({ status: 404, code: "Not Found" });
    expect(missing.message).toContain("Project not found");
    expect(missing.retryable).toBe(false);
  });
});
