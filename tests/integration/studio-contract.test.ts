/**
 * The content studio contract (decision 009: the local providers behave like the vendors): the
 * same cases run against the local studio and the Sanity adapter with its stand-in on
 * 127.0.0.1. Idempotent creates, datasets, CORS origins and feature flags; an invitation from
 * none to pending to accepted, listed with its role; a member's role set, a member removed and
 * an invitation revoked, each idempotently; API tokens listed (oldest first, never the adapter's
 * own) and revoked idempotently, the key refused afterwards; and the 404 of what does not exist. What only one of
 * them does (Sanity's requests and bodies, the local studio's pages and mails) stays in
 * studio-local-provider.test.ts, studio-sync.test.ts and provider-deletes.test.ts.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localStudioInvites, localStudios } from "~/db/schema";
import {
  acceptLocalInvite,
  createLocalContentStudio,
  createLocalStudioToken,
  localStudioTokenWorks,
} from "~/providers/content-studio/local.server";
import {
  createSanityContentStudio,
  FEATURES_METADATA_KEY,
} from "~/providers/content-studio/sanity.server";
import type { ContentStudioProvider } from "~/providers/content-studio/types";
import { rejection } from "../stand-ins/provider-error";
import { startSanityStandIn, type SanityStandIn } from "../stand-ins/sanity";

/** The studio's set-up as the provider holds it. */
type StudioSetup = { datasets: string[]; corsOrigins: string[]; features: Record<string, boolean> };

/** What the suite needs beyond the interface: the vendor's side of the world. */
type StudioDriver = {
  label: string;
  start(): Promise<ContentStudioProvider>;
  stop(): Promise<void>;
  /** The invitee follows the invitation's link and accepts. */
  accept(projectId: string, email: string): Promise<void>;
  setup(projectId: string): Promise<StudioSetup>;
  /** An administrator makes an API token in the studio's own interface. */
  makeToken(projectId: string, label: string): Promise<{ id: string; key: string }>;
  tokenWorks(projectId: string, key: string): Promise<boolean>;
};

function localDriver(): StudioDriver {
  return {
    label: "local studio",
    start: async () => createLocalContentStudio(),
    stop: async () => {},
    async accept(projectId, email) {
      const [row] = await db()
        .select({ id: localStudioInvites.id })
        .from(localStudioInvites)
        .where(
          and(eq(localStudioInvites.studioId, projectId), eq(localStudioInvites.email, email)),
        );
      expect((await acceptLocalInvite(projectId, row.id, email)).outcome).toBe("accepted");
    },
    async setup(projectId) {
      const [row] = await db().select().from(localStudios).where(eq(localStudios.id, projectId));
      return { datasets: row.datasets, corsOrigins: row.corsOrigins, features: row.features };
    },
    makeToken: (projectId, label) => createLocalStudioToken(projectId, { label, role: "editor" }),
    tokenWorks: localStudioTokenWorks,
  };
}

function sanityDriver(): StudioDriver {
  let standIn: SanityStandIn;
  return {
    label: "Sanity adapter",
    async start() {
      standIn = await startSanityStandIn();
      return createSanityContentStudio({ token: standIn.token, baseUrl: standIn.url });
    },
    stop: () => standIn.close(),
    accept: async (projectId, email) => standIn.acceptInvite(projectId, email),
    async setup(projectId) {
      const project = standIn.projects.get(projectId)!;
      return {
        datasets: [...project.datasets.keys()],
        corsOrigins: project.cors.map((c) => c.origin),
        features: (project.metadata[FEATURES_METADATA_KEY] ?? {}) as Record<string, boolean>,
      };
    },
    makeToken: async (projectId, label) => standIn.createToken(projectId, label),
    tokenWorks: async (_projectId, key) => standIn.tokenWorks(key),
  };
}

describe.each([localDriver(), sanityDriver()])("$label", (driver) => {
  let studio: ContentStudioProvider;

  beforeAll(async () => {
    studio = await driver.start();
  });
  afterAll(() => driver.stop());

  const newStudio = (displayName = "Acme") =>
    studio.createStudio({ displayName, idempotencyKey: randomUUID() });
  const email = () => `person-${randomUUID().slice(0, 8)}@example.com`;

  it("creates a studio once per idempotency key, and reads it back", async () => {
    const idempotencyKey = randomUUID();
    const created = await studio.createStudio({ displayName: "Acme", idempotencyKey });
    expect(created.projectId).toEqual(expect.any(String));
    expect(created.studioUrl).toMatch(/^https?:\/\//);
    expect(await studio.createStudio({ displayName: "Acme", idempotencyKey })).toEqual(created);
    expect(await studio.getStudio(created.projectId)).toEqual(created);
    expect((await newStudio("Acme")).projectId).not.toBe(created.projectId);
  });

  it("keeps datasets, CORS origins and feature flags idempotent", async () => {
    const { projectId } = await newStudio("Setup");
    await studio.ensureDataset(projectId, "production");
    await studio.ensureDataset(projectId, "production");
    await studio.addCorsOrigin(projectId, "https://site.example");
    await studio.addCorsOrigin(projectId, "https://site.example");
    await studio.setFeatureFlag(projectId, "ecommerce", true);
    await studio.setFeatureFlag(projectId, "ecommerce", true);
    await studio.setFeatureFlag(projectId, "gpt", true);
    await studio.setFeatureFlag(projectId, "gpt", false);
    const setup = await driver.setup(projectId);
    expect(setup.datasets.filter((d) => d === "production")).toHaveLength(1);
    expect(setup.corsOrigins.filter((o) => o === "https://site.example")).toHaveLength(1);
    expect(setup.features).toEqual({ ecommerce: true, gpt: false });
  });

  it("what does not exist is a permanent 404", async () => {
    const missing = "nope1234";
    for (const call of [
      () => studio.getStudio(missing),
      () => studio.ensureDataset(missing, "production"),
      () => studio.addCorsOrigin(missing, "https://x.example"),
      () => studio.inviteMember(missing, { email: "a@example.com", role: "editor" }),
      () => studio.setFeatureFlag(missing, "ecommerce", true),
      () => studio.listTokens(missing),
    ]) {
      const error = await rejection(call());
      expect(error.details.status).toBe(404);
      expect(error.retryable).toBe(false);
    }
  });

  it("an invitation goes from none to pending to accepted, listed with its role", async () => {
    const { projectId } = await newStudio("Invites");
    const invitee = email();
    expect(await studio.invitationStatus(projectId, invitee)).toBe("none");

    await studio.inviteMember(projectId, { email: invitee, role: "developer" });
    await studio.resendInvite(projectId, invitee);
    expect(await studio.invitationStatus(projectId, invitee)).toBe("pending");
    let access = await studio.listAccess(projectId);
    expect(access.invitations.filter((i) => i.email === invitee)).toEqual([
      { email: invitee, role: "developer" },
    ]);
    expect(access.members.some((m) => m.email === invitee)).toBe(false);

    await driver.accept(projectId, invitee);
    expect(await studio.invitationStatus(projectId, invitee)).toBe("accepted");
    access = await studio.listAccess(projectId);
    expect(access.invitations.some((i) => i.email === invitee)).toBe(false);
    expect(access.members.filter((m) => m.email === invitee)).toEqual([
      { email: invitee, roles: ["developer"] },
    ]);
  });

  it("sets a member's one role; someone who is not a member is a 404", async () => {
    const { projectId } = await newStudio("Roles");
    const member = email();
    await studio.inviteMember(projectId, { email: member, role: "editor" });
    await driver.accept(projectId, member);
    await studio.setMemberRole(projectId, member, "administrator");
    await studio.setMemberRole(projectId, member, "administrator");
    const access = await studio.listAccess(projectId);
    expect(access.members.find((m) => m.email === member)?.roles).toEqual(["administrator"]);

    const stranger = await rejection(studio.setMemberRole(projectId, email(), "editor"));
    expect(stranger.details.status).toBe(404);
    expect(stranger.retryable).toBe(false);
  });

  it("removes a member and revokes an invitation, each idempotently", async () => {
    const { projectId } = await newStudio("Leavers");
    const member = email();
    const invitee = email();
    await studio.inviteMember(projectId, { email: member, role: "editor" });
    await driver.accept(projectId, member);
    await studio.inviteMember(projectId, { email: invitee, role: "viewer" });

    await studio.removeMember(projectId, member);
    await studio.removeMember(projectId, member);
    await studio.revokeInvite(projectId, invitee);
    await studio.revokeInvite(projectId, invitee);
    const access = await studio.listAccess(projectId);
    expect(access.members.some((m) => m.email === member)).toBe(false);
    expect(access.invitations.some((i) => i.email === invitee)).toBe(false);
    expect(await studio.invitationStatus(projectId, invitee)).toBe("none");
  });

  it("lists API tokens oldest first, and revokes one idempotently: its key stops working", async () => {
    const { projectId } = await newStudio("Tokens");
    expect(await studio.listTokens(projectId)).toEqual([]);
    const first = await driver.makeToken(projectId, "CI import");
    const second = await driver.makeToken(projectId, "Preview");
    const listed = await studio.listTokens(projectId);
    expect(listed.map(({ id, label, roles }) => ({ id, label, roles }))).toEqual([
      { id: first.id, label: "CI import", roles: ["editor"] },
      { id: second.id, label: "Preview", roles: ["editor"] },
    ]);
    expect(listed.every((t) => t.createdAt && !Number.isNaN(Date.parse(t.createdAt)))).toBe(true);

    await studio.revokeToken(projectId, first.id);
    await studio.revokeToken(projectId, first.id);
    expect((await studio.listTokens(projectId)).map((t) => t.id)).toEqual([second.id]);
    expect(await driver.tokenWorks(projectId, first.key)).toBe(false);
    expect(await driver.tokenWorks(projectId, second.key)).toBe(true);
  });
});
