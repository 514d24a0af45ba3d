import { createHash } from "node:crypto";
import { ProviderError } from "../errors";
import type { TestRun, TestRunsProvider } from "./types";

const TITLES = [
  "Playwright: home, navigation and contact form",
  "Playwright: product pages and checkout",
  "Playwright: blog index and article pages",
  "Playwright: forms and newsletter sign-up",
];
const CONCLUSIONS = ["success", "success", "failure", "success", "cancelled"] as const;

/**
 * Runs generated from the repository's name: the same repository shows the same runs, one every
 * six hours back from the last whole hour, so pages and their caches agree. A repository whose
 * name starts with `missing-` answers 404 and one starting with `limited-` answers 429, as GitHub
 * does for a repository without the workflow (or access) and for a spent rate limit.
 */
export function createLocalTestRuns(now: () => number = Date.now): TestRunsProvider {
  return {
    async latestRuns(repo, count) {
      const name = repo.split("/")[1] ?? "";
      if (name.startsWith("missing-")) {
        throw new ProviderError("Not Found", {
          provider: "github",
          status: 404,
          code: "not_found",
        });
      }
      if (name.startsWith("limited-")) {
        throw new ProviderError("API rate limit exceeded", {
          provider: "github",
          status: 429,
          code: "rate_limited",
          retryAfterSeconds: 60,
        });
      }
      const seed = createHash("sha256").update(repo).digest();
      const hour = Math.floor(now() / 3_600_000) * 3_600_000;
      return Array.from({ length: count }, (_, i): TestRun => {
        const id = String(seed.readUInt32BE(0) + 1000 - i);
        return {
          id,
          title: TITLES[(seed[4] + i) % TITLES.length],
          branch: i % 3 === 2 ? "develop" : "main",
          status: "completed",
          conclusion: CONCLUSIONS[(seed[5] + i) % CONCLUSIONS.length],
          updatedAt: new Date(hour - i * 6 * 3_600_000).toISOString(),
          url: `https://github.com/${repo}/actions/runs/${id}`,
        };
      });
    },
  };
}
