/**
 * GET /api/app/{id}: the project entity with members[], eventLogs[] and
 * integrations[], each filtered by what the caller may see (as on the dashboard).
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs, users } from "~/db/schema";
import { loader } from "~/routes/api.app.$id";
import { newsletterSettingsSchema } from "~/services/newsletter/newsletter.schema";
import { saveNewsletterSettings } from "~/services/newsletter/newsletter.server";
import type { ProjectEntity } from "~/services/projects/project-entity.server";
import { resetEnv } from "~/utils/env.server";
import { call, makeRequest, sessionCookie } from "../helpers";
import { acceptedMember, actor, invite, keyOf, ownedProject, type Actor } from "./members-support";

const get = (cookie: string | undefined, id: string, query = "") =>
  call(loader, makeRequest(`/api/app/${id}${query}`, { cookie }), { id });

let owner: Actor;
let project: Awaited<ReturnType<typeof ownedProject>>;
let editor: Actor;
let memberAdmin: Actor;
let invitedKey: string;

beforeAll(async () => {
  owner = await actor({ name: "Olive Owner" });
  project = await ownedProject(owner);
  editor = await acceptedMember(owner, project, "editor");
  memberAdmin = await acceptedMember(owner, project, "admin");
  await invite(owner.cookie, project.studioId, "pending@example.com", "developer");
  invitedKey = await keyOf(project._id, "pending@example.com");
  // Enough history for two pages: 25 more events, one second apart.
  const base = Date.now() - 60_000;
  await db()
    .insert(eventLogs)
    .values(
      Array.from({ length: 25 }, (_, i) => ({
        projectId: project._id,
        type: "members.invited",
        content: `Event ${i}`,
        timestamp: new Date(base + i * 1000),
      })),
    );
});

describe("GET /api/app/{id}", () => {
  it("gives the owner every member (keys of pending invitations only), 20 events and a cursor", async () => {
    const res = await get(owner.cookie, project.studioId);
    expect(res.status).toBe(200);
    const body = (await res.json()) as ProjectEntity;
    expect(body).toMatchObject({
      _id: project._id,
      studioId: project.studioId,
      owner: { name: "Olive Owner", email: owner.email },
      integrations: [],
    });
    expect(body.members.map((m) => [m.invitedEmail, m.status, m.role])).toEqual([
      [editor.email, "accepted", "editor"],
      [memberAdmin.email, "accepted", "admin"],
      ["pending@example.com", "invited", "developer"],
    ]);
    expect(body.members[0].user).toEqual({
      _id: editor.id,
      name: editor.name,
      email: editor.email,
      status: "accepted",
    });
    expect(body.members.map((m) => m.invitationKey)).toEqual([null, null, invitedKey]);

    expect(body.eventLogs).toHaveLength(20);
    expect(Object.keys(body.eventLogs[0]).sort()).toEqual(
      ["_key", "content", "label", "metadata", "timestamp", "type"].sort(),
    );
    const times = body.eventLogs.map((e) => e.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect(body.eventLogsNextCursor).toEqual(expect.any(String));

    // The cursor reaches the rest, without repeats, and ends.
    const rest = (await (
      await get(owner.cookie, project.studioId, `?eventLogsCursor=${body.eventLogsNextCursor}`)
    ).json()) as ProjectEntity;
    const keys = new Set([...body.eventLogs, ...rest.eventLogs].map((e) => e._key));
    expect(keys.size).toBe(body.eventLogs.length + rest.eventLogs.length);
    expect(rest.eventLogs.length).toBeGreaterThanOrEqual(5);
    expect(rest.eventLogsNextCursor).toBeNull();
  });

  it("gives a member admin everyone too, and a plain member only their own entry", async () => {
    const asAdmin = (await (await get(memberAdmin.cookie, project._id)).json()) as ProjectEntity;
    expect(asAdmin.members).toHaveLength(3);
    expect(asAdmin.members.find((m) => m.status === "invited")?.invitationKey).toBe(invitedKey);

    const asEditor = (await (await get(editor.cookie, project.studioId)).json()) as ProjectEntity;
    expect(asEditor.members).toEqual([
      {
        user: { _id: editor.id, name: editor.name, email: editor.email, status: "accepted" },
        invitedEmail: editor.email,
        role: "editor",
        status: "accepted",
        invitationKey: null,
      },
    ]);
    expect(asEditor.eventLogs).toHaveLength(20);
    expect(JSON.stringify(asEditor)).not.toContain(invitedKey);
  });

  it("is a 404 for outsiders and the invited, support for platform admins, 401 anonymously", async () => {
    const outsider = await actor();
    expect((await get(outsider.cookie, project.studioId)).status).toBe(404);
    const invitee = await actor({ email: "pending@example.com" });
    expect((await get(invitee.cookie, project.studioId)).status).toBe(404);
    // The platform admin (PLATFORM_ADMIN_EMAILS in tests), who may exist already in this database.
    const [existing] = await db().select().from(users).where(eq(users.email, "admin@example.com"));
    const adminCookie = existing
      ? await sessionCookie(existing.id)
      : (await actor({ email: "admin@example.com" })).cookie;
    const support = await get(adminCookie, project.studioId);
    expect(support.status).toBe(200);
    const body = (await support.json()) as { role: string; members: unknown[] };
    // Support sees every member, as the owner and member admins do.
    expect(body.role).toBe("support");
    expect(body.members.length).toBeGreaterThan(1);
    expect((await get(undefined, project.studioId)).status).toBe(401);
    expect((await get(owner.cookie, "no-such-project")).status).toBe(404);
  });

  it("answers a malformed event cursor with a 400 beside the parameter", async () => {
    const res = await get(owner.cookie, project.studioId, "?eventLogsCursor=nope");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      fieldErrors: { eventLogsCursor: ["Invalid cursor"] },
    });
  });
});

describe("the newsletter integration's newsletterAccount", () => {
  const saved = { PROVIDERS: process.env.PROVIDERS, RESEND_API_KEY: process.env.RESEND_API_KEY };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnv();
  });

  it("shows the key the newsletter sends with, masked to its last 4 characters, and never the key", async () => {
    const own = await ownedProject(owner);
    await saveNewsletterSettings(
      owner.user,
      own.studioId,
      newsletterSettingsSchema.parse({ fromName: "Masked", fromEmail: "news@masked.example" }),
    );
    const newsletterAccount = async () => {
      const body = (await (await get(owner.cookie, own.studioId)).json()) as ProjectEntity;
      const entry = body.integrations.find((i) => i.id === "newsletter");
      return { entry, text: JSON.stringify(body) };
    };
    // The local provider sends with no key: nothing to show but the mask.
    expect((await newsletterAccount()).entry).toMatchObject({
      newsletterAccount: { id: own._id, api_key: "••••" },
    });
    // With Resend, the platform's key: its last 4 characters only.
    const key = "re_Platform0123456789Abcd";
    process.env.PROVIDERS = "live";
    process.env.RESEND_API_KEY = key;
    resetEnv();
    const live = await newsletterAccount();
    expect(live.entry).toMatchObject({ newsletterAccount: { id: own._id, api_key: "••••Abcd" } });
    expect(live.text).not.toContain(key.slice(0, -4));
  });
});
