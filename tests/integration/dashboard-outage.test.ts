import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { action, loader } from "~/routes/_app._project.sites.$studioId/route";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";

/**
 * The dashboard answers 404 only for a project hidden from the viewer (or missing). When the
 * database fails to read the project, that is an error for the error boundary, never a 404 that
 * tells a member their project is gone. The failure is real: the worker's own PostgreSQL database
 * loses the projects table for the test (renamed, then put back), while sessions and accounts
 * still read.
 */
let renamed = false;

async function takeProjectsOffline() {
  await db().execute(sql`alter table projects rename to projects_offline`);
  renamed = true;
}

afterEach(async () => {
  if (!renamed) return;
  renamed = false;
  await db().execute(sql`alter table projects_offline rename to projects`);
});

describe("the project dashboard while the database fails", () => {
  it("the loader answers a failed project read as an error, not a 404", async () => {
    const owner = await createUser();
    const project = await insertProject(owner.id);
    const cookie = await sessionCookie(owner.id);
    const request = () => makeRequest(`/sites/${project.studioId}`, { cookie });
    // The same request reads the dashboard while the database works.
    const ok = await call(loader, request(), { studioId: project.studioId });
    expect(ok.status).toBe(200);

    await takeProjectsOffline();
    await expect(call(loader, request(), { studioId: project.studioId })).rejects.toThrow(
      /projects/,
    );
  });

  it("an add-on switch answers a failed project read as an error, not a 404", async () => {
    const owner = await createUser();
    const project = await insertProject(owner.id);
    const cookie = await sessionCookie(owner.id);
    const request = () =>
      makeRequest(`/sites/${project.studioId}`, {
        method: "POST",
        cookie,
        form: { intent: "addon-toggle", addon: "visualTests", enabled: "false" },
      });

    await takeProjectsOffline();
    await expect(call(action, request(), { studioId: project.studioId })).rejects.toThrow(
      /projects/,
    );
  });

  it("a project that does not exist is still a 404", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const response = await call(loader, makeRequest("/sites/nosuchproject", { cookie }), {
      studioId: "nosuchproject",
    });
    expect(response.status).toBe(404);
  });
});
