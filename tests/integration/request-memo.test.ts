import { describe, expect, it } from "vitest";
import { queriesRun } from "~/db/client.server";
import { getProject } from "~/services/projects/projects.server";
import { inRequestScope, memo } from "~/utils/request-memo.server";
import { getOptionalUser } from "~/web/session.server";
import { createUser, makeRequest, sessionCookie } from "../helpers";
import { addMember, provisionedProject } from "./studio-fixtures";

/** What the root, layout and page loaders of a project page ask, each with its own Request. */
async function threeLoaders(cookie: string, studioId: string, method = "GET") {
  const results = [];
  for (let i = 0; i < 3; i += 1) {
    const request = makeRequest(`/sites/${studioId}`, { cookie, method });
    const user = await getOptionalUser(request);
    results.push({ user, project: user ? await getProject(user, studioId) : null });
  }
  return results;
}

async function queriesOf<T>(work: () => Promise<T>) {
  const before = queriesRun();
  const value = await work();
  return { value, queries: queriesRun() - before };
}

describe("reads shared by the loaders of one page view", () => {
  it("reads the session, user, project and role once per GET view, for a member too", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const member = await createUser();
    await addMember(project._id, member);
    const cookie = await sessionCookie(member.id);

    const unscoped = await queriesOf(() => threeLoaders(cookie, project.studioId));
    const scoped = await queriesOf(() =>
      inRequestScope("GET", () => threeLoaders(cookie, project.studioId)),
    );
    expect(scoped.value.map((r) => r.project?.role)).toEqual(["editor", "editor", "editor"]);
    expect(scoped.value.map((r) => r.user?.id)).toEqual([member.id, member.id, member.id]);
    // Once each in the view, and the account with the session: one statement fewer than a
    // lone loader outside a view, which reads the account by itself.
    expect(scoped.queries).toBe(unscoped.queries / 3 - 1);
  });

  it("never shares between views, nor within a request that changes something", async () => {
    const owner = await createUser();
    const project = await provisionedProject(owner);
    const cookie = await sessionCookie(owner.id);
    const one = await queriesOf(() =>
      inRequestScope("GET", () => threeLoaders(cookie, project.studioId)),
    );
    const again = await queriesOf(() =>
      inRequestScope("GET", () => threeLoaders(cookie, project.studioId)),
    );
    expect(again.queries).toBe(one.queries);
    const post = await queriesOf(() =>
      inRequestScope("POST", () => threeLoaders(cookie, project.studioId, "POST")),
    );
    // As many as with no view at all.
    const unscoped = await queriesOf(() => threeLoaders(cookie, project.studioId, "POST"));
    expect(post.queries).toBe(unscoped.queries);
    expect(post.queries).toBeGreaterThan(one.queries * 3);
  });

  it("does not remember a failed read: the next loader gets its own answer", async () => {
    await inRequestScope("GET", async () => {
      await expect(
        memo("flaky", () => Promise.reject(new Error("connection reset"))),
      ).rejects.toThrow("connection reset");
      expect(await memo("flaky", async () => "answer")).toBe("answer");
      expect(await memo("flaky", async () => "not asked again")).toBe("answer");
    });
  });
});
