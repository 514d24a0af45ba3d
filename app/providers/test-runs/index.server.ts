import { env, type Env } from "~/utils/env.server";
import { instrumentProvider } from "~/utils/metrics.server";
import { createGitHubTestRuns } from "./github.server";
import { createLocalTestRuns } from "./local.server";
import type { TestRunsProvider } from "./types";

export type { TestRun, TestRunsProvider } from "./types";

const cache = new WeakMap<Env, TestRunsProvider>();

/** GitHub Actions when PROVIDERS=live (GITHUB_TOKEN, GITHUB_API_URL), else the generated runs. */
export function testRunsProvider(): TestRunsProvider {
  const current = env();
  let provider = cache.get(current);
  if (!provider) {
    // Measured per method (metrics.server.ts); the stand-in is labelled mode="local".
    provider = instrumentProvider(
      current.PROVIDERS === "live"
        ? createGitHubTestRuns({ token: current.GITHUB_TOKEN, baseUrl: current.GITHUB_API_URL })
        : createLocalTestRuns(),
      { provider: "github", mode: current.PROVIDERS },
    );
    cache.set(current, provider);
  }
  return provider;
}
