/**
 * Personal access tokens (decision 029): made in User Settings and shown once; `Authorization:
 * Bearer` on the JSON API, read against the owner's live rights; read tokens only read; tokens
 * limited to projects see no other; expired, revoked and unknown tokens get 401; changes say
 * 'via token {name}' in the activity log; the Origin rule still holds for cookies.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { and, eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { apiTokens, eventLogs, outbox } from "~/db/schema";
import { loader as getProjectApi } from "~/routes/api.app.$id";
import { loader as listApi } from "~/routes/api.app._index";
import { action as createApi } from "~/routes/api.app.create";
import { action as membersApi } from "~/routes/api.app.members";
import { action as ecommerceApi } from "~/routes/api.app.activate-cstudio";
import {
  action as tokensAction,
  loader as tokensLoader,
} from "~/routes/_app.sites.user-settings_.tokens";
import { action as leakedAction } from "~/routes/_app.admin_.tokens";
import { MAX_ACTIVE_TOKENS, TOKEN_PREFIX } from "~/services/accounts/api-tokens.schema";
import {
  authenticateApiToken,
  createApiToken,
  revokeApiToken,
} from "~/services/accounts/api-tokens.server";
import { removeMember } from "~/services/members/members.server";
import { declineInvitation } from "~/services/members/invitation-answers.server";
import { ProjectNotFoundError } from "~/services/permissions/permissions.server";
import { POLICIES } from "~/services/core/rate-limit.server";
import { sameOrigin } from "../../server/middleware.mjs";
import { call, makeRequest } from "../helpers";
import {
  acceptedMember,
  actor,
  keyOf,
  memberRow,
  ownedProject,
  type Actor,
} from "./members-support";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function tokenFor(
  who: Actor,
  options: Partial<{ scope: "read" | "read-write"; projectIds: string[]; name: string }> = {},
  now?: Date,
) {
  const { token } = await createApiToken(
    who.user,
    {
      name: options.name ?? "CI",
      scope: options.scope ?? "read-write",
      lifetimeDays: 30,
      projectIds: options.projectIds ?? [],
    },
    now,
  );
  return token;
}

const getProject = (token: string, id: string) =>
  call(getProjectApi, makeRequest(`/api/app/${id}`, { headers: bearer(token) }), { id });
const list = (token: string) => call(listApi, makeRequest("/api/app", { headers: bearer(token) }));
const create = (token: string, name: string) =>
  call(
    createApi,
    makeRequest("/api/app/create", {
      json: { name, idempotencyKey: `token-test-${Date.now()}-${Math.floor(Math.random() * 1e9)}` },
      headers: bearer(token),
    }),
  );
const invite = (token: string, studioId: string, email: string) =>
  call(
    membersApi,
    makeRequest("/api/app/members", {
      json: { studioId, email, role: "editor" },
      headers: bearer(token),
    }),
  );

let owner: Actor;
let project: Awaited<ReturnType<typeof ownedProject>>;
let other: Awaited<ReturnType<typeof ownedProject>>;

beforeAll(async () => {
  owner = await actor({ name: "Tess Token" });
  project = await ownedProject(owner);
  other = await ownedProject(owner);
});

describe("a read-write token", () => {
  it("looks like a StackShift token, is stored only as a hash, and acts as its owner", async () => {
    const token = await tokenFor(owner);
    expect(token).toMatch(new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
    const rows = await db().select().from(apiTokens).where(eq(apiTokens.userId, owner.id));
    expect(JSON.stringify(rows)).not.toContain(token);

    const listed = await list(token);
    expect(listed.status).toBe(200);
    const names = ((await listed.json()) as { data: { name: string }[] }).data.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining([project.name, other.name]));
    expect((await getProject(token, project.studioId)).status).toBe(200);
  });

  it("creates and invites, and the activity log says the change came via the token", async () => {
    const token = await tokenFor(owner, { name: "Deploy bot" });
    const made = await create(token, "Made by a script");
    expect(made.status).toBe(201);

    const email = `token-invitee-${Date.now()}@example.com`;
    expect((await invite(token, project.studioId, email)).status).toBe(201);
    const [event] = await db()
      .select({ content: eventLogs.content, actorId: eventLogs.actorId })
      .from(eventLogs)
      .where(
        and(eq(eventLogs.projectId, project._id), eq(eventLogs.type, "members.invitation.sent")),
      );
    expect(event.actorId).toBe(owner.id);
    expect(event.content).toMatch(/ via token Deploy bot$/);
  });

  it("is refused when sent with another scheme, or beside a cookie it does not match", async () => {
    const res = await call(
      listApi,
      makeRequest("/api/app", { headers: { Authorization: `Basic ${btoa("a:b")}` } }),
    );
    expect(res.status).toBe(401);
    // A request with a token is judged by the token alone, even with a good session cookie.
    const mixed = await call(
      listApi,
      makeRequest("/api/app", { cookie: owner.cookie, headers: bearer(`${TOKEN_PREFIX}nope`) }),
    );
    expect(mixed.status).toBe(401);
    expect(mixed.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
  });
});

describe("a read token", () => {
  it("reads, and is refused with 403 on every change", async () => {
    const token = await tokenFor(owner, { scope: "read" });
    expect((await list(token)).status).toBe(200);
    expect((await getProject(token, project.studioId)).status).toBe(200);

    const refused = await create(token, "Never made");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/can only read/);
    expect((await invite(token, project.studioId, "nobody@example.com")).status).toBe(403);
    const toggle = await call(
      ecommerceApi,
      makeRequest("/api/app/activate-cstudio", {
        method: "PUT",
        json: { studioId: project.studioId, value: true },
        headers: bearer(token),
      }),
    );
    expect(toggle.status).toBe(403);
  });
});

describe("a token limited to chosen projects", () => {
  it("lists and reaches only those, and cannot create projects", async () => {
    const token = await tokenFor(owner, { projectIds: [project._id] });
    const listed = (await (await list(token)).json()) as { data: { _id: string }[] };
    expect(listed.data.map((p) => p._id)).toEqual([project._id]);
    expect((await getProject(token, project.studioId)).status).toBe(200);
    expect((await getProject(token, other.studioId)).status).toBe(404);
    expect((await create(token, "Not with this token")).status).toBe(403);
  });

  it("cannot be made for a project its owner cannot see", async () => {
    const stranger = await actor();
    await expect(
      createApiToken(stranger.user, {
        name: "Sneaky",
        scope: "read",
        lifetimeDays: 7,
        projectIds: [project._id],
      }),
    ).rejects.toMatchObject({ fieldErrors: { projectIds: ["Choose projects from the list"] } });
  });
});

describe("a token limited to chosen projects and an invitation to another", () => {
  it("cannot accept or decline it by its key (404, the invitation stays), though a session can", async () => {
    const invitee = await actor({ name: "Ina Invitee" });
    const mine = await ownedProject(invitee);
    const theirs = await ownedProject(owner);
    expect((await invite(await tokenFor(owner), theirs.studioId, invitee.email)).status).toBe(201);
    const key = await keyOf(theirs._id, invitee.email);
    const limited = await tokenFor(invitee, { projectIds: [mine._id] });
    const accept = (body: Record<string, string>) =>
      call(
        membersApi,
        makeRequest("/api/app/members", {
          method: "PATCH",
          json: { memberInvitationKey: key, action: "accept", email: invitee.email, ...body },
          headers: bearer(limited),
        }),
      );

    for (const res of [await accept({}), await accept({ studioId: theirs.studioId })]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Project not found" });
    }
    const asToken = await authenticateApiToken(limited);
    await expect(declineInvitation(asToken, key)).rejects.toBeInstanceOf(ProjectNotFoundError);
    expect(await memberRow(theirs._id, invitee.email)).toMatchObject({
      status: "invited",
      invitationKey: key,
    });

    // A token for every project, like the session, answers it.
    const everywhere = await tokenFor(invitee);
    const res = await call(
      membersApi,
      makeRequest("/api/app/members", {
        method: "PATCH",
        json: { memberInvitationKey: key, action: "accept", studioId: theirs.studioId },
        headers: bearer(everywhere),
      }),
    );
    expect(res.status).toBe(200);
    expect(await memberRow(theirs._id, invitee.email)).toMatchObject({ status: "accepted" });
  });
});

describe("a token never has more rights than its owner now", () => {
  it("stops reaching a project once its owner is removed from it", async () => {
    const member = await acceptedMember(owner, project, "developer");
    const token = await tokenFor(member);
    expect((await getProject(token, project.studioId)).status).toBe(200);
    await removeMember(owner.user, { studioId: project.studioId, memberId: member.memberId });
    expect((await getProject(token, project.studioId)).status).toBe(404);
  });
});

describe("tokens that ended", () => {
  it("answers 401 to an expired, a revoked and an unknown token, with one message", async () => {
    const expired = await tokenFor(owner, {}, new Date(Date.now() - 31 * 24 * 60 * 60 * 1000));
    const revoked = await tokenFor(owner, { name: "Old laptop" });
    const [row] = await db()
      .select({ id: apiTokens.id })
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, owner.id), eq(apiTokens.name, "Old laptop")));
    await revokeApiToken(owner.user, row.id);
    for (const token of [expired, revoked, `${TOKEN_PREFIX}${"x".repeat(43)}`]) {
      const res = await list(token);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "Invalid, expired or revoked token" });
    }
  });

  it("a platform admin revokes a leaked token by its value, and its owner is mailed", async () => {
    const token = await tokenFor(owner, { name: "Pasted in a gist" });
    const admin = await actor({ email: `admin-${Date.now()}@example.com` });
    // Not a platform admin: the page does not exist for them.
    const denied = await call(
      leakedAction,
      makeRequest("/admin/tokens", { cookie: admin.cookie, form: { token } }),
    );
    expect(denied.status).toBe(404);
    expect((await list(token)).status).toBe(200);

    const { revokeLeakedToken } = await import("~/services/accounts/api-tokens.server");
    await revokeLeakedToken({ ...admin.user, isAdmin: true }, token);
    expect((await list(token)).status).toBe(401);
    // Beside the mails saying each of the owner's tokens was made (decision 040).
    const mails = await db()
      .select({ subject: outbox.subject })
      .from(outbox)
      .where(eq(outbox.to, owner.email));
    expect(mails.map((m) => m.subject)).toContain(
      "Your StackShift API token Pasted in a gist was revoked",
    );
  });
});

describe("limits", () => {
  it(`answers 429 with Retry-After past ${POLICIES.apiToken.points} requests a minute per token`, async () => {
    const token = await tokenFor(owner, { name: "Busy" });
    // The budget spent in batches of requests at once, as a busy script would.
    for (let i = 0; i < POLICIES.apiToken.points; i += 50) {
      await Promise.all(Array.from({ length: 50 }, () => authenticateApiToken(token)));
    }
    const res = await list(token);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Another token of the same person has its own budget.
    expect((await list(await tokenFor(owner, { name: "Other" }))).status).toBe(200);
  }, 60_000);

  it(`refuses a token past ${MAX_ACTIVE_TOKENS} active ones, beside the Name field`, async () => {
    const busy = await actor();
    for (let i = 0; i < MAX_ACTIVE_TOKENS; i += 1) await tokenFor(busy, { name: `t${i}` });
    const res = await call(
      tokensAction,
      makeRequest("/sites/user-settings/tokens", {
        cookie: busy.cookie,
        form: { intent: "token-create", name: "One more", scope: "read", lifetimeDays: "30" },
      }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.name[0]).toMatch(/50 active tokens/);
  });
});

describe("the API tokens page", () => {
  it("shows a new token once, in the answer to the form, and never in the page after", async () => {
    const person = await actor();
    const made = await call(
      tokensAction,
      makeRequest("/sites/user-settings/tokens", {
        cookie: person.cookie,
        form: {
          intent: "token-create",
          name: "GitHub Actions",
          scope: "read-write",
          lifetimeDays: "90",
        },
      }),
    );
    expect(made.status).toBe(200);
    const { created } = (await made.json()) as { created: { name: string; token: string } };
    expect(created.name).toBe("GitHub Actions");
    expect(created.token.startsWith(TOKEN_PREFIX)).toBe(true);

    const page = await call(
      tokensLoader,
      makeRequest("/sites/user-settings/tokens", { cookie: person.cookie }),
    );
    const text = await page.text();
    expect(text).not.toContain(created.token);
    const data = JSON.parse(text) as {
      tokens: { name: string; lastFour: string; state: string }[];
    };
    expect(data.tokens).toMatchObject([
      { name: "GitHub Actions", lastFour: created.token.slice(-4), state: "active" },
    ]);
  });

  it("answers a bad lifetime or a missing name beside the field", async () => {
    const person = await actor();
    const res = await call(
      tokensAction,
      makeRequest("/sites/user-settings/tokens", {
        cookie: person.cookie,
        form: { intent: "token-create", name: " ", scope: "read", lifetimeDays: "9999" },
      }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(Object.keys(body.result.error).sort()).toEqual(["lifetimeDays", "name"]);
  });
});

describe("the Origin rule (server/middleware.mjs)", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use(sameOrigin("http://localhost:3000"));
    app.all("*", (_req, res) => {
      res.json({ ok: true });
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("lets a token request to the API through without Origin, and nothing else", async () => {
    const post = (path: string, headers: Record<string, string>) =>
      fetch(`${base}${path}`, { method: "POST", headers, body: "{}" });
    expect((await post("/api/app/create", bearer("stackshift_pat_x"))).status).toBe(200);
    // Cookies alone still need Origin; a token header does not open the pages' forms.
    expect((await post("/api/app/create", { Cookie: "stackshift_session=x" })).status).toBe(403);
    expect((await post("/auth/logout", bearer("stackshift_pat_x"))).status).toBe(403);
    expect((await post("/api/app/create", { Authorization: "Basic eDp5" })).status).toBe(403);
  });
});
