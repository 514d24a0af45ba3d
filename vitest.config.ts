import os from "node:os";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    // Most integration time is spent waiting (job queues, deployments stepping, child servers),
    // not computing: three workers on two cores took the run from 485 s to 248 s, all passing.
    // Vitest's own default would be one worker here (cores - 1).
    maxWorkers: Math.max(3, os.availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // The app's, and the workspace packages' (client/, cli/).
          include: ["app/**/*.test.{ts,tsx}", "client/**/*.test.ts", "cli/src/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/setup/global-setup.ts"],
          // matchers.ts: toHaveRedirect and toSendToast for responses.
          setupFiles: ["tests/setup/worker-db.ts", "tests/setup/matchers.ts"],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "pglite-smoke",
          include: ["tests/smoke/**/*.test.ts"],
          globalSetup: ["tests/setup/global-setup.ts"],
          setupFiles: ["tests/setup/worker-db.ts"],
          env: { TEST_DB_KIND: "pglite" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
