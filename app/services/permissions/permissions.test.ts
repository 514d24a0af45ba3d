import { describe, expect, it } from "vitest";
import {
  ACTIONS,
  assertCan,
  can,
  canChooseSiteType,
  globalActor,
  isSupport,
  type Action,
  type Actor,
  type ActorKind,
} from "./permissions.server";
import { ForbiddenError, NotFoundError } from "~/services/core/errors";

const PROJECT = { id: "p1", studioId: "s1", ownerId: "owner" };

function actor(kind: ActorKind, platformAdmin = false): Actor {
  const membership =
    kind === "editor" || kind === "developer" || kind === "admin"
      ? { id: "m1", role: kind, status: "accepted" as const }
      : kind === "invited"
        ? { id: "m1", role: "editor" as const, status: "invited" as const }
        : null;
  return {
    kind,
    platformAdmin,
    userId: kind === "anonymous" ? null : "u1",
    project: PROJECT,
    membership,
  };
}

// The eight actors of the permission table (the platform admin outside the project: support
// access), plus a platform admin who is an editor member (both columns' rights).
const ACTORS = {
  anonymous: actor("anonymous"),
  outsider: actor("outsider"),
  invited: actor("invited"),
  editor: actor("editor"),
  developer: actor("developer"),
  admin: actor("admin"),
  owner: actor("owner"),
  platformAdmin: actor("outsider", true),
  platformAdminEditor: actor("editor", true),
} as const;
type Who = keyof typeof ACTORS;

/** The rules table of permissions.server.ts, written out again: x allowed, - denied. */
const EXPECTED: Record<Action, string> = {
  //                     anon outs inv  edit dev  adm  own  PA   PA+editor
  "project.view": "      -    -    -    x    x    x    x    x    x",
  "activity.view": "     -    -    -    x    x    x    x    x    x",
  "project.deploy": "    -    -    -    x    x    x    x    -    x",
  "studio.launch": "     -    -    -    x    x    x    x    -    x",
  "members.view-all": "  -    -    -    -    -    x    x    x    x",
  "members.add": "       -    -    -    -    -    x    x    x    x",
  "members.remove": "    -    -    -    -    -    x    x    x    x",
  "members.change-role": "-   -    -    -    -    x    x    x    x",
  "members.leave": "     -    -    -    x    x    x    -    -    x",
  "invitation.respond": "-    -    x    -    -    -    -    -    -",
  "domain.edit": "       -    -    -    -    -    x    x    x    x",
  "theme.preview": "     -    -    -    -    x    x    x    x    x",
  "devconsole.launch": " -    -    -    -    x    x    x    x    x",
  "addons.toggle": "     -    -    -    -    -    x    x    x    x",
  "payments.add": "      -    -    -    -    -    x    x    x    x",
  "payments.remove": "   -    -    -    -    -    x    x    x    x",
  "social.link": "       -    -    -    -    -    x    x    x    x",
  "social.unlink": "     -    -    -    -    -    x    x    x    x",
  "newsletter.edit": "   -    -    -    -    -    x    x    x    x",
  "forms.manage": "      -    -    -    -    -    x    x    x    x",
  "project.rename": "    -    -    -    -    -    x    x    x    x",
  "project.transfer": "  -    -    -    -    -    -    x    -    -",
  "project.require-2fa": "-  -    -    -    -    -    x    -    -",
  "project.delete": "    -    -    -    -    -    -    x    x    x",
  "site.redeploy": "     -    -    -    -    x    x    x    -    -",
  "site.rollback": "     -    -    -    -    x    x    x    -    -",
  "webhooks.manage": "   -    -    -    -    -    x    x    -    -",
  "schema.raise": "      -    -    -    -    -    -    -    x    x",
  "sitetype.choose": "   -    -    -    -    -    -    -    x    x",
  "requests.manage": "   -    -    -    -    -    -    -    x    x",
};
const COLUMNS = Object.keys(ACTORS) as Who[];

describe("can", () => {
  it("has a row for every action", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...ACTIONS].sort());
  });

  for (const action of ACTIONS) {
    const marks = EXPECTED[action].trim().split(/\s+/);
    it(`${action}: ${marks.join(" ")}`, () => {
      expect(marks).toHaveLength(COLUMNS.length);
      const actual = COLUMNS.map((who) => (can(ACTORS[who], action) ? "x" : "-"));
      expect(Object.fromEntries(COLUMNS.map((w, i) => [w, actual[i]]))).toEqual(
        Object.fromEntries(COLUMNS.map((w, i) => [w, marks[i]])),
      );
    });
  }

  it("a platform admin who is invited (not accepted) has support access and may still respond", () => {
    const invitedAdmin = actor("invited", true);
    expect(can(invitedAdmin, "project.view")).toBe(true);
    expect(isSupport(invitedAdmin)).toBe(true);
    expect(can(invitedAdmin, "project.deploy")).toBe(false);
    expect(can(invitedAdmin, "invitation.respond")).toBe(true);
  });

  it("support access is a platform admin outside the project, not a member or owner", () => {
    expect(isSupport(ACTORS.platformAdmin)).toBe(true);
    expect(isSupport(ACTORS.platformAdminEditor)).toBe(false);
    expect(isSupport(actor("owner", true))).toBe(false);
    expect(isSupport(ACTORS.outsider)).toBe(false);
    // No project (it does not exist): nothing to support, nothing allowed on it.
    const nowhere = { ...ACTORS.platformAdmin, project: null };
    expect(isSupport(nowhere)).toBe(false);
    expect(can(nowhere, "project.view")).toBe(false);
  });

  it("a platform admin owner keeps every owner right", () => {
    const adminOwner = actor("owner", true);
    for (const action of ACTIONS) {
      if (action === "members.leave" || action === "invitation.respond") continue;
      expect(can(adminOwner, action), action).toBe(true);
    }
  });
});

describe("assertCan", () => {
  it("hides the project (NotFound) from those who cannot view it", () => {
    for (const who of ["anonymous", "outsider", "invited"] as const) {
      expect(() => assertCan(ACTORS[who], "members.add"), who).toThrow(NotFoundError);
    }
  });

  it("forbids (Forbidden) viewers who may not act", () => {
    expect(() => assertCan(ACTORS.editor, "members.add")).toThrow(ForbiddenError);
    expect(() => assertCan(ACTORS.developer, "domain.edit")).toThrow(ForbiddenError);
    expect(() => assertCan(ACTORS.owner, "members.leave")).toThrow(
      "The owner cannot leave the project",
    );
    expect(() => assertCan(ACTORS.admin, "requests.manage")).toThrow(ForbiddenError);
    // Support sees the project but does not build or edit the customer's content.
    expect(() => assertCan(ACTORS.platformAdmin, "project.deploy")).toThrow(ForbiddenError);
    expect(() => assertCan(ACTORS.platformAdmin, "studio.launch")).toThrow(ForbiddenError);
    // The schema version is the platform's to raise, not the owner's.
    expect(() => assertCan(ACTORS.owner, "schema.raise")).toThrow(
      "Only platform admins can raise the StackShift version",
    );
  });

  it("lets invited members respond to their invitation although they cannot view", () => {
    expect(() => assertCan(ACTORS.invited, "invitation.respond")).not.toThrow();
  });

  it("answers NotFound for a project that does not exist", () => {
    expect(() =>
      assertCan({ ...ACTORS.owner, project: null, kind: "outsider" }, "project.view"),
    ).toThrow(NotFoundError);
  });

  it("passes allowed actions", () => {
    expect(() => assertCan(ACTORS.admin, "addons.toggle")).not.toThrow();
    expect(() => assertCan(ACTORS.platformAdminEditor, "domain.edit")).not.toThrow();
  });
});

describe("project-independent rules", () => {
  it("site type: platform admins only", () => {
    const user = { id: "u", name: "U", email: "u@example.com", isAdmin: false };
    expect(canChooseSiteType(user)).toBe(false);
    expect(canChooseSiteType({ ...user, isAdmin: true })).toBe(true);
    expect(can(globalActor(null), "sitetype.choose")).toBe(false);
    expect(can(globalActor({ ...user, isAdmin: true }), "requests.manage")).toBe(true);
    expect(can(globalActor({ ...user, isAdmin: true }), "project.view")).toBe(false);
  });
});
