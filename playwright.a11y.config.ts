import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * `npm run a11y`: axe-core on every page and dialog (tests/a11y), against the browser suite's
 * servers, with JavaScript (axe runs inside the page).
 */
// The full plan (tests/a11y/accessibility.spec.ts): every page at both widths, in both modes.
process.env.A11Y_FULL = "1";

export default defineConfig({
  ...base,
  testDir: "tests/a11y",
  projects: [{ name: "js", use: { javaScriptEnabled: true } }],
});
