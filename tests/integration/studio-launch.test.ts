import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { members, projects, users } from "~/db/schema";
import { action as launchAction } from "~/routes/resources.studio-launch";
import {
  action as splashAction,
  loader as autologinLoader,
} from "~/routes/studios.autologin.$studioId";
import { InvalidError } from "~/services/core/errors";
import { createLaunchToken, verifyLaunchToken } from "~/services/studio/studio.server";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";
import { locationOf } from "../setup/matchers";
import { addMember, asUser, provisionedProject } from "./studio-fixtures";

const expectInvalid = (run: () => unknown) => expect(run).toThrow(InvalidError);

describe("launch token", () => {
  const user = {
    id: "0b7a3c2e-0000-4000-8000-000000000001",
    name: "Ada",
    email: "ada@example.com",
    isAdmin: false,
  };

  it("carries the studio id and a user label for 2 minutes", () => {
    const now = Date.now();
    const token = createLaunchToken(user, { studioId: "abc123" }, now);
    const claims = verifyLaunchToken(token, now + 119_000);
    expect(claims).toMatchObject({ studioId: "abc123", userId: user.id, label: "Ada" });
    expect(claims.expiresAt.getTime()).toBeLessThanOrEqual(now + 120_000);
    const unnamed = createLaunchToken({ ...user, name: " " }, { studioId: "abc123" }, now);
    expect(verifyLaunchToken(unnamed, now).label).toBe("ada@example.com");
  });

  it("refuses expired, tampered and malformed tokens", () => {
    const now = Date.now();
    const token = createLaunchToken(user, { studioId: "abc123" }, now);
    expectInvalid(() => verifyLaunchToken(token, now + 121_000));

    const [body, sig] = token.split(".");
    const claims = JSON.parse(Buffer.from(body, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, s: "other1" })).toString("base64url");
    expectInvalid(() => verifyLaunchToken(`${forged}.${sig}`, now));
    const flipped = sig.slice(0, -2) + (sig.at(-2) === "A" ? "B" : "A") + sig.at(-1);
    expectInvalid(() => verifyLaunchToken(`${body}.${flipped}`, now));
    for (const junk of ["", "abc", `${body}.`, `${body}.${sig}.x`, "%%%.%%%", "a".repeat(5000)]) {
      expectInvalid(() => verifyLaunchToken(junk, now));
    }
  });
});

async function launch(
  cookie: string | undefined,
  studioId: string,
  json = false,
  target?: "theme-preview" | "dev-console" | "console",
) {
  return call(
    launchAction,
    makeRequest("/resources/studio-launch", {
      cookie,
      form: target ? { studioId, target } : { studioId },
      headers: json ? { Accept: "application/json" } : {},
    }),
  );
}

const autologin = (studioId: string, token: string) =>
  call(
    autologinLoader,
    makeRequest(`/studios/autologin/${studioId}?token=${encodeURIComponent(token)}`),
    { studioId },
  );

const tokenOf = (location: string) => new URL(location, "http://x").searchParams.get("token")!;

describe("'Take me to Studio'", () => {
  it("redirects the new window to the autologin page (no JavaScript) or answers {url}", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const cookie = await sessionCookie(owner.id);

    const res = await launch(cookie, project.studioId);
    expect(res.status).toBe(302);
    const location = locationOf(res)!;
    expect(location).toMatch(new RegExp(`^/studios/autologin/${project.studioId}\\?token=`));
    expect(verifyLaunchToken(tokenOf(location))).toMatchObject({
      studioId: project.studioId,
      userId: owner.id,
      label: owner.name,
    });

    const json = await launch(cookie, project.studioId, true);
    expect(json.status).toBe(200);
    expect((await json.json()).url).toMatch(/^\/studios\/autologin\//);
  });

  it("refuses outsiders, anonymous users and studios not ready", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const outsider = await sessionCookie((await createUser()).id);

    expect((await launch(outsider, project.studioId, true)).status).toBe(404);
    const page = await launch(outsider, project.studioId);
    expect(page).toHaveRedirect(`/studios/autologin/${project.studioId}?error=launch`);
    expect((await launch(undefined, project.studioId, true)).status).toBe(401);
    expect(await launch(undefined, project.studioId)).toHaveRedirect(/^\/auth\/login/);
    expect((await launch(await sessionCookie(owner.id), "", true)).status).toBe(400);

    await db()
      .update(projects)
      .set({ studioSanityId: null, studioUrl: null })
      .where(eq(projects.id, project._id));
    expect((await launch(await sessionCookie(owner.id), project.studioId, true)).status).toBe(409);
  });
});

describe("Theme Preview and Dev Console", () => {
  it("open the studio's tool at once for developers, admins and the owner", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    await db().update(projects).set({ schemaVersion: 6 }).where(eq(projects.id, project._id));
    const developer = await createUser();
    await addMember(project._id, developer, "developer");
    const [row] = await db().select().from(projects).where(eq(projects.id, project._id));

    for (const [who, target] of [
      [owner, "theme-preview"],
      [developer, "dev-console"],
    ] as const) {
      const res = await launch(await sessionCookie(who.id), project.studioId, false, target);
      expect(res.status).toBe(302);
      const token = tokenOf(locationOf(res)!);
      expect(verifyLaunchToken(token)).toMatchObject({ studioId: project.studioId, target });
      // No splash: straight to the tool under the studio's address.
      const opened = await autologin(project.studioId, token);
      expect(opened).toHaveRedirect(`${row.studioUrl!.replace(/\/+$/, "")}/${target}`);
    }
    // The studio's own token still opens the splash.
    const studio = tokenOf(
      locationOf(await launch(await sessionCookie(owner.id), project.studioId))!,
    );
    expect(verifyLaunchToken(studio).target).toBe("studio");
  });

  it("refuses editors, an unknown target, and Theme Preview below schema version 6", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const editor = await createUser();
    await addMember(project._id, editor, "editor");
    const editorCookie = await sessionCookie(editor.id);
    expect((await launch(editorCookie, project.studioId, true, "dev-console")).status).toBe(403);
    // An editor's studio token cannot be turned into a tool's: the target is signed.
    const token = createLaunchToken(asUser(editor), project, Date.now(), "dev-console");
    expect((await autologin(project.studioId, token)).status).toBe(403);

    const ownerCookie = await sessionCookie(owner.id);
    expect((await launch(ownerCookie, project.studioId, true, "console")).status).toBe(400);
    await db().update(projects).set({ schemaVersion: 5 }).where(eq(projects.id, project._id));
    const gated = await launch(ownerCookie, project.studioId, true, "theme-preview");
    expect(gated.status).toBe(409);
    expect(await gated.json()).toMatchObject({
      error: "Theme Preview needs StackShift version 6 or later.",
    });
    expect((await launch(ownerCookie, project.studioId, true, "dev-console")).status).toBe(200);
  });
});

describe("autologin page", () => {
  it("shows the recap splash, then remembers 'do not show this splash again'", async () => {
    const owner = await createUser({ name: "Grace" });
    const project = await provisionedProject(owner);
    const cookie = await sessionCookie(owner.id);
    const token = tokenOf(locationOf(await launch(cookie, project.studioId))!);

    const splash = await autologin(project.studioId, token);
    expect(splash.status).toBe(200);
    expect(await splash.json()).toEqual({
      status: "splash",
      projectName: project.name,
      label: "Grace",
    });

    // 'Take me to Studio' without the box ticked: off to the studio, splash kept.
    const plain = await call(
      splashAction,
      makeRequest(`/studios/autologin/${project.studioId}`, { cookie, form: {} }),
      { studioId: project.studioId },
    );
    expect(plain).toHaveRedirect(project.studioUrl);
    expect((await autologin(project.studioId, token)).status).toBe(200);

    const hide = await call(
      splashAction,
      makeRequest(`/studios/autologin/${project.studioId}`, {
        cookie,
        form: { hideSplash: "on" },
      }),
      { studioId: project.studioId },
    );
    expect(hide.status).toBe(302);
    expect(hide).toHaveRedirect(project.studioUrl);
    const [row] = await db().select().from(users).where(eq(users.id, owner.id));
    expect(row.hideStudioSplash).toBe(true);

    // From now on, for every project of this user, the page goes straight to the studio.
    const next = await autologin(project.studioId, token);
    expect(next.status).toBe(302);
    expect(next).toHaveRedirect(project.studioUrl);
    const other = await provisionedProject(owner);
    const otherToken = tokenOf(locationOf(await launch(cookie, other.studioId))!);
    expect(await autologin(other.studioId, otherToken)).toHaveRedirect(other.studioUrl);
  });

  it("shows the error page for bad, expired or misused tokens, never a 500", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const member = await createUser();
    await addMember(project._id, member);
    const user = asUser(member);

    const bad = await autologin(project.studioId, "garbage");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ status: "error" });

    const expired = createLaunchToken(user, project, Date.now() - 121_000);
    expect((await autologin(project.studioId, expired)).status).toBe(400);

    // A token for one studio does not open another.
    const other = await provisionedProject(owner);
    expect((await autologin(other.studioId, createLaunchToken(user, project))).status).toBe(400);

    // Access removed after the token was made: the page says so rather than opening the studio.
    const token = createLaunchToken(user, project);
    await db().delete(members).where(eq(members.userId, member.id));
    const removed = await autologin(project.studioId, token);
    expect(removed.status).toBe(404);
    expect(await removed.json()).toEqual({ status: "error" });

    const noToken = await call(
      autologinLoader,
      makeRequest(`/studios/autologin/${project.studioId}?error=launch`),
      { studioId: project.studioId },
    );
    expect(noToken.status).toBe(400);

    const anonymous = await call(
      splashAction,
      makeRequest(`/studios/autologin/${project.studioId}`, { form: { hideSplash: "on" } }),
      { studioId: project.studioId },
    );
    expect(anonymous).toHaveRedirect(/^\/auth\/login/);
  });
});
