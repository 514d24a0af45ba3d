import { describe, expect, it } from "vitest";
import { rejection } from "../../../tests/stand-ins/provider-error";
import { sanityAdapterUnderTest } from "../../../tests/stand-ins/sanity";

/**
 * The Sanity adapter's API token calls against the stand-in: the paths it uses, that the token
 * it calls with is never listed (so never revoked), the 404 of a revoked token as done, and the
 * vendor's failures as ProviderErrors.
 */

const { setup, calls } = sanityAdapterUnderTest("T");

describe("Sanity adapter: API tokens", () => {
  it("lists the project's tokens from GET /projects/{id}/tokens, without its own", async () => {
    const { s, studio, projectId } = await setup();
    // The project lists the adapter's own token (robot-1, the caller) from the start.
    expect(s.projects.get(projectId)!.tokens).toHaveLength(1);
    const made = s.createToken(projectId, "Deploy hook", "administrator");

    const tokens = await studio.listTokens(projectId);
    expect(tokens).toEqual([
      {
        id: made.id,
        label: "Deploy hook",
        roles: ["administrator"],
        createdAt: expect.any(String),
      },
    ]);
    expect(calls(s, "GET", /\/tokens$/).map((r) => r.path)).toEqual([
      `/v2021-06-07/projects/${projectId}/tokens`,
    ]);
    // Token robots are not people: the members list never shows them.
    expect((await studio.listAccess(projectId)).unaddressed).toEqual([]);
  });

  it("revokes with DELETE /projects/{id}/tokens/{tokenId}; a token already gone is done", async () => {
    const { s, studio, projectId } = await setup();
    const made = s.createToken(projectId, "Old script");
    await studio.revokeToken(projectId, made.id);
    await studio.revokeToken(projectId, made.id);
    expect(calls(s, "DELETE", /\/tokens\//).map((r) => r.path)).toEqual([
      `/v2021-06-07/projects/${projectId}/tokens/${made.id}`,
      `/v2021-06-07/projects/${projectId}/tokens/${made.id}`,
    ]);
    expect(s.tokenWorks(made.key)).toBe(false);
    expect(await studio.listTokens(projectId)).toEqual([]);
    // Its robot left the project with it.
    expect(s.projects.get(projectId)!.members.map((m) => m.id)).toEqual(["robot-1"]);
  });

  it("a 5xx is retryable, a 403 permanent, and the token stays", async () => {
    const { s, studio, projectId } = await setup();
    const made = s.createToken(projectId, "Sturdy");
    s.failNext(
      /\/tokens\//,
      { status: 503, body: { statusCode: 503, error: "Service Unavailable", message: "down" } },
      "DELETE",
    );
    const down = await rejection(studio.revokeToken(projectId, made.id));
    expect(down.details).toMatchObject({ provider: "sanity", status: 503 });
    expect(down.retryable).toBe(true);
    s.failNext(/\/tokens$/, {
      status: 403,
      body: { statusCode: 403, error: "Forbidden", message: "Insufficient permissions" },
    });
    const refused = await rejection(studio.listTokens(projectId));
    expect(refused.details.status).toBe(403);
    expect(refused.retryable).toBe(false);
    expect(s.tokenWorks(made.key)).toBe(true);
  });
});
