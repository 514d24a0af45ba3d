import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

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
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/db/*", "**/db/*"],
              message: "Routes and components reach the database through a service (app/services).",
            },
          ],
        },
      ],
    },
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
