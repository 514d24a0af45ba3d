/**
 * The End To End Tests card's latest runs and `GET /api/app/e2e-test-runs?repo=`: the GitHub
 * Actions runs of a project's site repository (app/providers/test-runs). Reads go through the
 * provider cache, so the dashboard's refresh and many viewers of one project share one call.
 */
import { inArray } from "drizzle-orm";
import { db } from "~/db/client.server";
import { projects, siteRepoUrl } from "~/db/schema";
import { testRunsProvider, type TestRun } from "~/providers/test-runs/index.server";
import { ProviderError } from "~/providers/errors";
import { repoPath } from "~/providers/test-runs/types";
import type { User } from "~/services/accounts/index.server";
import { NotFoundError } from "~/services/core";
import { asUpstream } from "~/services/core/index.server";
import { firstPermitted } from "~/services/permissions/index.server";
import { recordSupportAccess } from "~/services/activity/index.server";
import { cachedProviderRead } from "~/services/core/index.server";
import { log } from "~/utils/logger.server";

/** How many runs the card lists. */
export const LATEST_RUNS = 4;

export const RUNS_NOT_FOUND = "End To End Tests not found";

/**
 * A run as the JSON API answers it: the fields of GitHub's own `workflow_runs[]` that the API
 * carries, under GitHub's names, so a client written against GitHub reads it unchanged.
 */
export type WorkflowRun = {
  id: number;
  html_url: string;
  display_title: string;
  head_branch: string | null;
  status: string;
  conclusion: string | null;
  updated_at: string;
};

export function toWorkflowRun(run: TestRun): WorkflowRun {
  return {
    id: Number(run.id),
    html_url: run.url,
    display_title: run.title,
    head_branch: run.branch,
    status: run.status,
    conclusion: run.conclusion,
    updated_at: run.updatedAt,
  };
}

/** The card's view: the repository and its runs, or why there are none. */
export type TestRunsView =
  { repo: string; runs: TestRun[]; error: null } | { repo: string | null; runs: []; error: string };

/** The latest runs of `repo`, cached (any provider error is thrown, never cached). */
function latestRuns(repo: string): Promise<TestRun[]> {
  return cachedProviderRead("github", repo, "runs", async () => ({
    value: await testRunsProvider().latestRuns(repo, LATEST_RUNS),
    calls: 1,
    settled: true,
  }));
}

/** The repository a project's site builds from (`owner/name`), or null before it has one. */
export function siteRepo(project: {
  siteDetails: { build_settings?: { repo_url?: string } } | null;
}) {
  return repoPath(project.siteDetails?.build_settings?.repo_url);
}

/** The card's runs. Any failure reads 'End To End Tests not found' (the card adds the advice). */
export async function testRunsFor(repo: string | null): Promise<TestRunsView> {
  if (!repo) return { repo: null, runs: [], error: RUNS_NOT_FOUND };
  try {
    return { repo, runs: await latestRuns(repo), error: null };
  } catch (error) {
    log().warn(
      { area: "test-runs", repo, reason: error instanceof Error ? error.message : String(error) },
      "reading test runs failed",
    );
    return { repo, runs: [], error: RUNS_NOT_FOUND };
  }
}

/**
 * GET /api/app/e2e-test-runs?repo=: the runs of a repository that is the site repository of a
 * project the caller may view (a platform admin as support, which that project's Activity Log
 * records). Any other repository is 404, so the route is no open proxy to GitHub.
 */
export async function testRunsForRepo(user: User, repo: string): Promise<TestRun[]> {
  const urls = [`https://github.com/${repo}`, `https://github.com/${repo}.git`];
  // projects_site_repo_idx: the same expression.
  const candidates = await db()
    .select({ id: projects.id, studioId: projects.studioId, ownerId: projects.ownerId })
    .from(projects)
    .where(
      inArray(
        siteRepoUrl(projects.siteDetails),
        urls.map((u) => u.toLowerCase()),
      ),
    )
    .limit(50);
  const permitted = await firstPermitted(user, candidates, "project.view");
  if (!permitted) throw new NotFoundError(RUNS_NOT_FOUND);
  // A platform admin reading a customer's runs is a support visit of that project.
  if (permitted.support) await recordSupportAccess(db(), user, permitted.actor, "project.view");
  try {
    return await latestRuns(repo);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    log().warn({ area: "test-runs", repo, reason: error.message }, "reading test runs failed");
    // GitHub's refusal (no such repository, no access, no runs): what the card says too.
    if (!error.retryable) throw new NotFoundError(RUNS_NOT_FOUND);
    throw asUpstream(error, "GitHub is not answering right now. Please try again shortly.");
  }
}
