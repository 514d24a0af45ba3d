import { Octokit } from "@octokit/rest";
import { ProviderError } from "../errors";
import { httpProviderError } from "../hosting/vendor-errors.server";
import type { TestRun, TestRunsProvider } from "./types";

/**
 * GitHub Actions through @octokit/rest: `GET /repos/{owner}/{repo}/actions/runs`. Octokit's own
 * retry and throttling plugins are not loaded: a failure reaches the card at once (it says so),
 * and the page's next refresh asks again.
 */
export function createGitHubTestRuns(options: {
  token?: string;
  baseUrl?: string;
}): TestRunsProvider {
  const octokit = new Octokit({
    auth: options.token,
    baseUrl: options.baseUrl?.replace(/\/+$/, ""),
    userAgent: "stackshift-dashboard",
    request: { timeout: 10_000 },
  });
  return {
    async latestRuns(repo, count) {
      const [owner, name] = repo.split("/");
      try {
        const { data } = await octokit.rest.actions.listWorkflowRunsForRepo({
          owner,
          repo: name,
          per_page: count,
          page: 1,
          headers: { "X-GitHub-Api-Version": "2022-11-28" },
        });
        return data.workflow_runs.slice(0, count).map((run): TestRun => ({
          id: String(run.id),
          title: run.display_title ?? run.name ?? `Run ${run.id}`,
          branch: run.head_branch ?? null,
          status: run.status ?? "completed",
          conclusion: run.conclusion ?? null,
          updatedAt: run.updated_at,
          url: run.html_url,
        }));
      } catch (error) {
        throw asProviderError(error);
      }
    },
  };
}

type OctokitFailure = {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined> };
};

function asProviderError(error: unknown): ProviderError {
  const failure = error as OctokitFailure;
  if (typeof failure?.status === "number" && failure.status >= 400) {
    const headers = failure.response?.headers ?? {};
    // GitHub answers a spent rate limit with 403 or 429 and x-ratelimit-remaining: 0.
    const spent = failure.status === 403 && headers["x-ratelimit-remaining"] === "0";
    return httpProviderError("github", spent ? 429 : failure.status, {
      message: failure.message,
      retryAfter: headers["retry-after"],
      rateLimitReset: headers["x-ratelimit-reset"],
    });
  }
  // No HTTP answer (network, timeout): retryable.
  return new ProviderError(`GitHub could not be reached: ${String(failure?.message ?? error)}`, {
    provider: "github",
    code: "unreachable",
  });
}
