import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const DATABASE = {
  group: ["~/db/*", "**/db/*"],
  message: "Routes and components reach the database through a service (app/services).",
};
/** The database drivers and query builder, which scripts may use but routes and components not. */
const DRIVERS = {
  group: ["drizzle-orm", "drizzle-orm/*", "pg", "pg-boss", "@electric-sql/*"],
  message: "Routes and components reach the database through a service (app/services).",
};
const PROVIDERS = {
  group: ["~/providers/*", "~/providers/**", "**/providers/*", "**/providers/**"],
  message: "Routes and components reach outside services through a service (app/services).",
};
/** The SDKs of the vendors behind app/providers, and the mail transport. */
const VENDORS = {
  group: ["@netlify/*", "@vercel/*", "@sanity/*", "@octokit/*", "stripe", "resend", "nodemailer"],
  message: "Only app/providers (and the mail service) talk to vendors.",
};

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "data/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      "drizzle/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-restricted-imports": ["error", { patterns: [DATABASE] }],
    },
  },
  {
    // Routes and components see the outside world only through services: no providers, no
    // vendor SDKs, no database driver.
    files: ["app/routes/**", "app/components/**", "app/root.tsx"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [DATABASE, DRIVERS, PROVIDERS, VENDORS] }],
    },
  },
  {
    // The /local/* pages are the local providers' own stand-in sites, studios and sign-in pages.
    files: ["app/routes/local.*"],
    rules: { "no-restricted-imports": ["error", { patterns: [DATABASE, DRIVERS, VENDORS] }] },
  },
  {
    // Only services, jobs, the db layer, local providers, boot and tests may import the database.
    files: [
      "app/services/**",
      "app/jobs/**",
      "app/db/**",
      "app/utils/**",
      "app/providers/**/local.server.ts",
      "app/entry.server.tsx",
      "tests/**",
      "**/*.test.ts",
    ],
    rules: { "no-restricted-imports": "off" },
  },
);
