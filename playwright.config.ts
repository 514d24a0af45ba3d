import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * Browser tests run the product exactly as `npm start` does (embedded PGlite in a fresh DATA_DIR),
 * with mail delivered to a real SMTP test server (tests/e2e/support/smtp.ts).
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2526);
/** A second server whose projects deploy automatically after seconds, not 15 minutes. */
export const AUTO_DEPLOY_PORT = E2E_PORT + 1;
/**
 * A third server for the picker's 120 projects: their provisioning and deployment jobs keep its
 * queue busy for minutes, which must not delay the other tests' projects on the first two. Its
 * projects start at StackShift version 3.
 */
export const PICKER_PORT = E2E_PORT + 2;
/**
 * A fourth server, for tests/e2e/second-factor.spec.ts: platform admins need a second factor
 * (REQUIRE_ADMIN_SECOND_FACTOR=on, as on a public address) and a proof counts 10 seconds instead
 * of 10 minutes (PROOF_MAX_AGE_SECONDS), so a test meets a stale proof without waiting.
 */
export const FACTOR_PORT = E2E_PORT + 3;
export const MAIL_DIR = path.join(os.tmpdir(), `stackshift-e2e-mail-${E2E_PORT}`);
const DATA_DIR = path.join(os.tmpdir(), `stackshift-e2e-data-${E2E_PORT}`);
const AUTO_DATA_DIR = path.join(os.tmpdir(), `stackshift-e2e-data-${AUTO_DEPLOY_PORT}`);
const PICKER_DATA_DIR = path.join(os.tmpdir(), `stackshift-e2e-data-${PICKER_PORT}`);
const FACTOR_DATA_DIR = path.join(os.tmpdir(), `stackshift-e2e-data-${FACTOR_PORT}`);
/** One platform admin per Playwright project, as both run against the same server at once. */
export const ADMIN_EMAILS = [
  "admin-js@example.com",
  "admin-no-js@example.com",
  "admin-a11y@example.com",
  "founder-js@example.com",
  "founder-no-js@example.com",
  "verify-js@example.com",
  "verify-no-js@example.com",
  "inviter-js@example.com",
  "inviter-no-js@example.com",
  "picker-js@example.com",
  "picker-no-js@example.com",
  "support-js@example.com",
  "support-no-js@example.com",
  "settings-js@example.com",
  "settings-no-js@example.com",
  "email-old-js@example.com",
  "email-old-no-js@example.com",
  "email-limit-js@example.com",
  "email-limit-no-js@example.com",
  "onboarder-js@example.com",
  "onboarder-no-js@example.com",
  "tokens-js@example.com",
  "tokens-no-js@example.com",
  "delete-js@example.com",
  "delete-no-js@example.com",
  "twofactor-js@example.com",
  "twofactor-no-js@example.com",
  "passkeys-js@example.com",
  "passkeys-no-js@example.com",
  "factor-admin-js@example.com",
  "factor-admin-no-js@example.com",
  "factor-owner-js@example.com",
  "factor-owner-no-js@example.com",
  "ceiling-js@example.com",
  "ceiling-no-js@example.com",
];

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  // Without the background-networking flags chromium's calls home fail noisily on this network.
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

const serverOptions = {
  timeout: 180_000,
  reuseExistingServer: false,
  stdout: "pipe" as const,
  stderr: "pipe" as const,
};
const serverEnv = {
  DATABASE_URL: "",
  SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
  PLATFORM_ADMIN_EMAILS: ADMIN_EMAILS.join(","),
  // The servers' warnings and errors reach the test output; their one line per request (the
  // production default, tested in request-logs.test.ts) would bury them.
  LOG_LEVEL: "warn",
  // Rate limits stay on, as in production: the flows must pass with them.
};

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  globalSetup: "./tests/e2e/support/global-setup.ts",
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    launchOptions: chromium,
    trace: "retain-on-failure",
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
    // axe-core on every page once (the short plan; `npm run a11y` runs the full one).
    { name: "a11y", testDir: "tests/a11y", use: { javaScriptEnabled: true } },
  ],
  // Started in order: the first builds the app, the others reuse that build.
  webServer: [
    {
      command: `rm -rf ${DATA_DIR} && node scripts/start.mjs`,
      url: `http://localhost:${E2E_PORT}/healthz`,
      ...serverOptions,
      env: {
        ...serverEnv,
        PORT: String(E2E_PORT),
        DATA_DIR,
        AUTO_DEPLOY_AFTER_MINUTES: "15",
        // Local deployments step queued -> building -> ready/error every 2 seconds (default 3):
        // quick, yet slow enough that a dashboard loaded after creation still sees the build
        // in progress on a busy 2-core machine (at 1 s it was sometimes Ready already).
        LOCAL_DEPLOY_STEP_SECONDS: "2",
        // The webhooks spec's receiver listens on 127.0.0.1 (development setting, decision 047).
        WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: "1",
      },
    },
    {
      command: `rm -rf ${AUTO_DATA_DIR} && node scripts/start.mjs`,
      url: `http://localhost:${AUTO_DEPLOY_PORT}/healthz`,
      ...serverOptions,
      env: {
        ...serverEnv,
        PORT: String(AUTO_DEPLOY_PORT),
        DATA_DIR: AUTO_DATA_DIR,
        // 3 seconds, while slow deployments keep new projects in progress: the sweep must fire.
        AUTO_DEPLOY_AFTER_MINUTES: "0.05",
        LOCAL_DEPLOY_STEP_SECONDS: "20",
      },
    },
    {
      command: `rm -rf ${PICKER_DATA_DIR} && node scripts/start.mjs`,
      url: `http://localhost:${PICKER_PORT}/healthz`,
      ...serverOptions,
      env: {
        ...serverEnv,
        PORT: String(PICKER_PORT),
        DATA_DIR: PICKER_DATA_DIR,
        AUTO_DEPLOY_AFTER_MINUTES: "15",
        LOCAL_DEPLOY_STEP_SECONDS: "1",
        // New projects here start at StackShift version 3, below the gated cards (4 and 6), so
        // a platform admin can raise one from its Settings page (project-tools.spec.ts).
        SITE_SCHEMA_VERSION: "3",
      },
    },
    {
      command: `rm -rf ${FACTOR_DATA_DIR} && node scripts/start.mjs`,
      url: `http://localhost:${FACTOR_PORT}/healthz`,
      ...serverOptions,
      env: {
        ...serverEnv,
        PORT: String(FACTOR_PORT),
        DATA_DIR: FACTOR_DATA_DIR,
        REQUIRE_ADMIN_SECOND_FACTOR: "on",
        PROOF_MAX_AGE_SECONDS: "10",
      },
    },
  ],
});
