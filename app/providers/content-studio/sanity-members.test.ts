import { describe, expect, it } from "vitest";
import { rejection } from "../../../tests/stand-ins/provider-error";
import { sanityAdapterUnderTest } from "../../../tests/stand-ins/sanity";

/** The Sanity adapter's members contract (list, remove, role, revoke) against the stand-in. */

const { setup, calls } = sanityAdapterUnderTest("M");

describe("Sanity adapter: studio members", () => {
  it("lists members with their roles and pending invitations, never the robot", async () => {
    const { s, studio, projectId } = await setup();
    await studio.inviteMember(projectId, { email: "Ann@Example.com", role: "administrator" });
    s.acceptInvite(projectId, "ann@example.com");
    await studio.inviteMember(projectId, { email: "bob@example.com", role: "editor" });
    s.seedMember(projectId, "Cy@Example.com", ["editor", "developer"]);

    const access = await studio.listAccess(projectId);
    expect(access.members).toEqual([
      { email: "ann@example.com", roles: ["administrator"] },
      { email: "cy@example.com", roles: ["editor", "developer"] },
    ]);
    expect(access.invitations).toEqual([{ email: "bob@example.com", role: "editor" }]);
    // The e-mails come from the users endpoint, every id in one request.
    const [users] = calls(s, "GET", /^\/v2021-06-07\/users\//);
    expect(users.path.split("/").at(-1)!.split(",")).toHaveLength(2);
  });

  it("lists a member without an address apart, by id, and removes it by id (idempotent)", async () => {
    const { s, studio, projectId } = await setup();
    s.seedMember(projectId, "ann@example.com", ["editor"]);
    s.seedMember(projectId, "", ["administrator"]);
    const nobodyId = s.projects
      .get(projectId)!
      .members.find((m) => m.email === "" && !m.isRobot)!.id;

    const access = await studio.listAccess(projectId);
    expect(access.members).toEqual([{ email: "ann@example.com", roles: ["editor"] }]);
    expect(access.unaddressed).toEqual([{ id: nobodyId, roles: ["administrator"] }]);
    // Address-based calls never reach them.
    await studio.removeMember(projectId, "");
    expect(calls(s, "DELETE", /\/members\//)).toEqual([]);

    await studio.removeMemberById(projectId, nobodyId);
    await studio.removeMemberById(projectId, nobodyId);
    expect(calls(s, "DELETE", /\/members\//).map((r) => r.path)).toEqual([
      `/v2021-06-07/projects/${projectId}/members/${nobodyId}`,
      `/v2021-06-07/projects/${projectId}/members/${nobodyId}`,
    ]);
    expect((await studio.listAccess(projectId)).unaddressed).toEqual([]);
    // The robot (the token's own user, also without an address) is never listed or removed.
    expect(s.projects.get(projectId)!.members.map((m) => m.email || m.id)).toEqual([
      "robot-1",
      "ann@example.com",
    ]);
  });

  it("removes a member by e-mail; removing again (or a stranger) does nothing", async () => {
    const { s, studio, projectId } = await setup();
    s.seedMember(projectId, "ann@example.com", ["administrator"]);
    const annId = s.projects.get(projectId)!.members.find((m) => m.email === "ann@example.com")!.id;

    await studio.removeMember(projectId, "ANN@example.com");
    expect(calls(s, "DELETE", /\/members\//).map((r) => r.path)).toEqual([
      `/v2021-06-07/projects/${projectId}/members/${annId}`,
    ]);
    expect((await studio.listAccess(projectId)).members).toEqual([]);

    await studio.removeMember(projectId, "ann@example.com");
    await studio.removeMember(projectId, "nobody@example.com");
    expect(calls(s, "DELETE", /\/members\//)).toHaveLength(1);
    // The robot (the token's own user) stays.
    expect(s.projects.get(projectId)!.members.map((m) => m.id)).toEqual(["robot-1"]);
  });

  it("treats a member already removed by a lost earlier attempt (404) as done", async () => {
    const { s, studio, projectId } = await setup();
    s.seedMember(projectId, "ann@example.com");
    s.failNext(/\/members\//, {
      status: 404,
      body: { statusCode: 404, error: "Not Found", message: "User is not a member of the project" },
    });
    await studio.removeMember(projectId, "ann@example.com");
  });

  it("changes a role: grants the new one first, then takes the others back", async () => {
    const { s, studio, projectId } = await setup();
    s.seedMember(projectId, "ann@example.com", ["administrator", "developer"]);
    const annId = s.projects.get(projectId)!.members.find((m) => m.email === "ann@example.com")!.id;

    await studio.setMemberRole(projectId, "ann@example.com", "editor");
    const roleCalls = s.requests
      .filter((r) => /\/roles\//.test(r.path))
      .map((r) => `${r.method} ${r.path}`);
    const base = `/v2021-06-07/projects/${projectId}/members/${annId}/roles`;
    expect(roleCalls).toEqual([
      `PUT ${base}/editor`,
      `DELETE ${base}/administrator`,
      `DELETE ${base}/developer`,
    ]);
    expect((await studio.listAccess(projectId)).members).toEqual([
      { email: "ann@example.com", roles: ["editor"] },
    ]);

    // Already so: no call at all.
    const before = s.requests.length;
    await studio.setMemberRole(projectId, "ann@example.com", "editor");
    expect(s.requests.slice(before).filter((r) => /\/roles\//.test(r.path))).toEqual([]);

    // Raising a role goes the same way.
    await studio.setMemberRole(projectId, "ann@example.com", "administrator");
    expect((await studio.listAccess(projectId)).members[0].roles).toEqual(["administrator"]);
  });

  it("refuses a role change for someone who is not a member (404, not retryable)", async () => {
    const { studio, projectId } = await setup();
    const refused = await rejection(studio.setMemberRole(projectId, "x@example.com", "editor"));
    expect(refused.details.status).toBe(404);
    expect(refused.retryable).toBe(false);
  });

  it("revokes a pending invitation by e-mail, idempotently", async () => {
    const { s, studio, projectId } = await setup();
    await studio.inviteMember(projectId, { email: "bob@example.com", role: "editor" });
    await studio.revokeInvite(projectId, "Bob@Example.com");
    await studio.revokeInvite(projectId, "bob@example.com");
    expect(calls(s, "DELETE", /\/invites\//)).toHaveLength(1);
    expect((await studio.listAccess(projectId)).invitations).toEqual([]);
  });

  it("turns vendor failures into provider errors (retryable for 429 and 5xx)", async () => {
    const { s, studio, projectId } = await setup();
    s.seedMember(projectId, "ann@example.com");
    s.failNext(
      /\/members\//,
      {
        status: 429,
        body: { statusCode: 429, error: "Too Many Requests", message: "slow down" },
        headers: { "Retry-After": "7" },
      },
      "DELETE",
    );
    const limited = await rejection(studio.removeMember(projectId, "ann@example.com"));
    expect(limited.retryable).toBe(true);
    expect(limited.details.retryAfterSeconds).toBe(7);

    s.failNext(/\/roles\//, {
      status: 500,
      body: { statusCode: 500, error: "Internal Server Error", message: "boom" },
    });
    const down = await rejection(studio.setMemberRole(projectId, "ann@example.com", "viewer"));
    expect(down.retryable).toBe(true);
    // Nothing half done: still an editor.
    expect((await studio.listAccess(projectId)).members[0].roles).toEqual(["editor"]);
  });
});
