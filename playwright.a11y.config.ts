import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * `npm run a11y`: axe-core on every page and dialog (tests/a11y), against the browser suite's
 * servers, with JavaScript (axe runs inside the page).
 */
export default defineConfig({
  ...base,
  testDir: "tests/a11y",
  projects: [{ name: "js", use: { javaScriptEnabled: true } }],
});
