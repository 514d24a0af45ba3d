/**
 * Test runs: the latest GitHub Actions runs of a site's repository, shown on the End To End Tests
 * card. GitHub (`@octokit/rest`) when PROVIDERS=live, generated runs with the local providers.
 */

/** One workflow run, vendor-neutral. */
export type TestRun = {
  id: string;
  title: string;
  /** Null when the run was not started from a branch (a tag or a manual run without one). */
  branch: string | null;
  /** queued | in_progress | completed (GitHub's `status`). */
  status: string;
  /** success | failure | cancelled | ... once completed; null while running. */
  conclusion: string | null;
  updatedAt: string;
  url: string;
};

export type TestRunsProvider = {
  /** The repository's latest runs, newest first; ProviderError on the vendor's refusal. */
  latestRuns(repo: string, count: number): Promise<TestRun[]>;
};

/** `owner/name` from a repository URL (https://github.com/owner/name(.git)) or an `owner/name`. */
export function repoPath(urlOrPath: string | null | undefined): string | null {
  if (!urlOrPath) return null;
  const path = urlOrPath
    .trim()
    .replace(/^https?:\/\/(www\.)?github\.com\//i, "")
    .replace(/\.git$/i, "")
    .replace(/\/+$/, "");
  return REPO_PATH.test(path) ? path : null;
}

/** GitHub's owner and repository name characters. */
export const REPO_PATH = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;
