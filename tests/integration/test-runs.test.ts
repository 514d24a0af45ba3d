/**
 * End To End Tests runs: the End To End Tests card on the dashboard (the latest 4 runs of the
 * site repository, or 'End To End Tests not found'), GET /api/app/e2e-test-runs?repo=, the local
 * provider's generated runs and its failure triggers, and the GitHub adapter's contract against a
 * stand-in (its 4xx and rate-limit answers).
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs } from "~/db/schema";
import { createGitHubTestRuns } from "~/providers/test-runs/github.server";
import { createLocalTestRuns } from "~/providers/test-runs/local.server";
import { repoPath } from "~/providers/test-runs/types";
import { loader as dashboardLoader } from "~/routes/_app._project.sites.$studioId/route";
import { loader as runsApi } from "~/routes/api.app.e2e-test-runs";
import type { AddonsView } from "~/services/addons/addons.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { rejection } from "../stand-ins/provider-error";
import { startGitHubStandIn, type GitHubStandIn } from "../stand-ins/github";

type TestUser = Awaited<ReturnType<typeof createUser>>;
let owner: TestUser;
let ownerCookie: string;

beforeAll(async () => {
  owner = await createUser({ name: "Rita Runner" });
  ownerCookie = await sessionCookie(owner.id);
});

/** A project whose site builds from `repo`, with End To End Tests on or off. */
function projectWithRepo(repo: string, enabled = true) {
  return insertProject(owner.id, {
    schemaVersion: 6,
    isEndToEndTestsEnabled: enabled,
    siteDetails: { build_settings: { repo_url: `https://github.com/${repo}` } },
  });
}

async function card(studioId: string, cookie = ownerCookie) {
  const res = await call(dashboardLoader, makeRequest(`/sites/${studioId}`, { cookie }), {
    studioId,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { addons: AddonsView }).addons;
}

const runsOf = (repo: string, cookie: string | undefined) =>
  call(runsApi, makeRequest(`/api/app/e2e-test-runs?repo=${encodeURIComponent(repo)}`, { cookie }));

let seq = 0;
const uniqueRepo = (prefix = "site") => `stackshift-sites/${prefix}-${Date.now()}-${++seq}`;

describe("the End To End Tests card", () => {
  it("lists the latest 4 runs of the site repository while the add-on is on", async () => {
    const repo = uniqueRepo();
    const project = await projectWithRepo(repo);
    const { testRuns } = await card(project.studioId);
    expect(testRuns).toMatchObject({ repo, error: null });
    expect(testRuns!.runs).toHaveLength(4);
    for (const run of testRuns!.runs) {
      expect(run.url).toMatch(new RegExp(`^https://github.com/${repo}/actions/runs/\\d+$`));
      expect(run.title).toMatch(/^Playwright: /);
      expect(["main", "develop"]).toContain(run.branch);
    }
    const times = testRuns!.runs.map((r) => Date.parse(r.updatedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const off = await projectWithRepo(uniqueRepo(), false);
    expect((await card(off.studioId)).testRuns).toBeNull();
  });

  it("says 'End To End Tests not found' when the repository has no runs, or the site none", async () => {
    const missing = await projectWithRepo(uniqueRepo("missing"));
    expect((await card(missing.studioId)).testRuns).toEqual({
      repo: expect.stringContaining("/missing-"),
      runs: [],
      error: "End To End Tests not found",
    });
    const noSite = await insertProject(owner.id, {
      schemaVersion: 6,
      isEndToEndTestsEnabled: true,
    });
    expect((await card(noSite.studioId)).testRuns).toEqual({
      repo: null,
      runs: [],
      error: "End To End Tests not found",
    });
  });

  it("shows no runs below the add-on's schema version", async () => {
    const project = await insertProject(owner.id, {
      schemaVersion: 3,
      isEndToEndTestsEnabled: true,
      siteDetails: { build_settings: { repo_url: `https://github.com/${uniqueRepo()}` } },
    });
    expect((await card(project.studioId)).testRuns).toBeNull();
  });
});

describe("GET /api/app/e2e-test-runs?repo=", () => {
  it("answers the runs of a repository of the caller's project as workflow_runs[]; 400, 401 and 404 otherwise", async () => {
    const repo = uniqueRepo();
    await projectWithRepo(repo);
    const res = await runsOf(repo, ownerCookie);
    expect(res.status).toBe(200);
    // GitHub's own names (`workflow_runs[]`), as the specification's consumers read them.
    const body = (await res.json()) as { workflow_runs: Record<string, unknown>[] };
    expect(body.workflow_runs).toHaveLength(4);
    for (const run of body.workflow_runs) {
      expect(Object.keys(run).sort()).toEqual([
        "conclusion",
        "display_title",
        "head_branch",
        "html_url",
        "id",
        "status",
        "updated_at",
      ]);
      expect(run).toMatchObject({
        id: expect.any(Number),
        html_url: expect.stringMatching(
          new RegExp(`^https://github.com/${repo}/actions/runs/\\d+$`),
        ),
        display_title: expect.stringMatching(/^Playwright: /),
        head_branch: expect.stringMatching(/^(main|develop)$/),
        updated_at: expect.any(String),
      });
    }
    // The repository's URL names it as well.
    expect((await runsOf(`https://github.com/${repo}.git`, ownerCookie)).status).toBe(200);

    expect((await runsOf(repo, undefined)).status).toBe(401);
    expect((await runsOf("not a repo", ownerCookie)).status).toBe(400);
    expect(
      (await call(runsApi, makeRequest("/api/app/e2e-test-runs", { cookie: ownerCookie }))).status,
    ).toBe(400);
    // Someone else's repository, and one no project builds from: no open proxy to GitHub.
    const stranger = await createUser();
    const strangerCookie = await sessionCookie(stranger.id);
    const notFound = await runsOf(repo, strangerCookie);
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ error: "End To End Tests not found" });
    expect((await runsOf("someone/else", ownerCookie)).status).toBe(404);
  });

  it("answers 404 'End To End Tests not found' when GitHub has none, 503 while it is rate limited", async () => {
    const missing = uniqueRepo("missing");
    await projectWithRepo(missing);
    const res = await runsOf(missing, ownerCookie);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "End To End Tests not found" });

    const limited = uniqueRepo("limited");
    await projectWithRepo(limited);
    const busy = await runsOf(limited, ownerCookie);
    expect(busy.status).toBe(503);
    expect(busy.headers.get("Retry-After")).toBe("60");
  });

  it("lets a platform admin read them as support, which the project's Activity Log records", async () => {
    const repo = uniqueRepo();
    const project = await projectWithRepo(repo);
    const pa = await createUser({ name: "Sam Support", email: "admin@example.com" });
    const res = await runsOf(repo, await sessionCookie(pa.id));
    expect(res.status).toBe(200);
    const logged = await db()
      .select({ type: eventLogs.type })
      .from(eventLogs)
      .where(and(eq(eventLogs.projectId, project.id), eq(eventLogs.type, "support.viewed")));
    expect(logged).toHaveLength(1);
  });
});

describe("the local provider", () => {
  it("answers the same runs for the same repository within the hour", async () => {
    const at = Date.parse("2026-11-24T10:20:00Z");
    const runs = createLocalTestRuns(() => at);
    const first = await runs.latestRuns("acme/shop", 4);
    expect(await createLocalTestRuns(() => at + 30 * 60_000).latestRuns("acme/shop", 4)).toEqual(
      first,
    );
    expect(first[0].updatedAt).toBe("2026-11-24T10:00:00.000Z");
    expect(await runs.latestRuns("acme/other", 4)).not.toEqual(first);
    expect((await rejection(runs.latestRuns("acme/missing-workflow", 4))).details.status).toBe(404);
    expect(await rejection(runs.latestRuns("acme/limited-x", 4))).toMatchObject({
      retryable: true,
      details: { status: 429, retryAfterSeconds: 60 },
    });
  });

  it("reads repository paths from URLs and refuses anything else", () => {
    expect(repoPath("https://github.com/acme/shop.git")).toBe("acme/shop");
    expect(repoPath("acme/shop")).toBe("acme/shop");
    expect(repoPath("https://gitlab.com/acme/shop")).toBeNull();
    expect(repoPath("../../etc/passwd")).toBeNull();
    expect(repoPath("acme/shop/actions")).toBeNull();
    expect(repoPath("")).toBeNull();
  });
});

describe("the GitHub adapter against a stand-in", () => {
  let github: GitHubStandIn;
  beforeAll(async () => {
    github = await startGitHubStandIn();
  });
  afterAll(async () => {
    await github.close();
  });

  it("lists the latest runs with the API version header and maps their fields", async () => {
    github.addRepo("acme/shop", 6);
    const adapter = createGitHubTestRuns({ token: github.token, baseUrl: github.url });
    const runs = await adapter.latestRuns("acme/shop", 4);
    expect(runs.map((r) => r.title)).toEqual(["Run 0", "Run 1", "Run 2", "Run 3"]);
    expect(runs[0]).toEqual({
      id: "9000",
      title: "Run 0",
      branch: "main",
      status: "in_progress",
      conclusion: null,
      updatedAt: "2026-11-20T12:00:00Z",
      url: "https://github.com/acme/shop/actions/runs/9000",
    });
    expect(runs[1].branch).toBeNull();
    const request = github.requests.at(-1)!;
    expect(request.path).toBe("/repos/acme/shop/actions/runs");
    expect(request.query.get("per_page")).toBe("4");
    expect(request.headers["x-github-api-version"]).toBe("2022-11-28");
  });

  it("turns 404, 401, a spent rate limit (403 and 429) and 5xx into provider errors", async () => {
    github.addRepo("acme/limits", 2);
    const adapter = createGitHubTestRuns({ token: github.token, baseUrl: github.url });
    expect(await rejection(adapter.latestRuns("acme/nothing", 4))).toMatchObject({
      retryable: false,
      details: { provider: "github", status: 404, code: "not_found" },
    });
    const wrongToken = createGitHubTestRuns({ token: "ghp_wrong", baseUrl: github.url });
    expect(await rejection(wrongToken.latestRuns("acme/limits", 4))).toMatchObject({
      retryable: false,
      details: { status: 401 },
    });
    const reset = String(Math.floor(Date.now() / 1000) + 120);
    github.fail({
      status: 403,
      body: { message: "API rate limit exceeded" },
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset },
    });
    const spent = await rejection(adapter.latestRuns("acme/limits", 4));
    expect(spent).toMatchObject({ retryable: true, details: { status: 429 } });
    expect(spent.details.retryAfterSeconds).toBeGreaterThan(100);
    github.fail({ status: 429, headers: { "retry-after": "30" } });
    expect(await rejection(adapter.latestRuns("acme/limits", 4))).toMatchObject({
      details: { status: 429, retryAfterSeconds: 30 },
    });
    github.fail({ status: 502 });
    expect(await rejection(adapter.latestRuns("acme/limits", 4))).toMatchObject({
      retryable: true,
      details: { status: 502, code: "vendor_unavailable" },
    });
  });
});
