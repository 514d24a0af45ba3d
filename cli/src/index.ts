#!/usr/bin/env node
/**
 * `stackshift`: the dashboard's JSON API from a terminal or CI, on @stackshift/client. Commander
 * parses the arguments (docs/decisions/050-client-package-and-cli.md says why). Every command
 * prints a table or fields for people and JSON with --json, and exits with a code of EXIT.
 */
import { Command, CommanderError, Option } from "commander";
import { createRequire } from "node:module";
import { run } from "./commands.js";
import { EXIT, EXIT_CODES_HELP, report } from "./output.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

const program = new Command("stackshift");
program
  .description("Deploy and manage StackShift projects from a terminal or CI")
  .version(version)
  .addOption(new Option("--json", "print JSON (for scripts) instead of tables"))
  .addOption(
    new Option(
      "--url <address>",
      "the dashboard's address (default: STACKSHIFT_URL, then the one saved by login)",
    ),
  )
  .showHelpAfterError("(add --help for usage)")
  .addHelpText(
    "after",
    `
Sign in with STACKSHIFT_TOKEN (a personal access token from User Settings > API tokens) or
'stackshift login', which saves it in your config folder readable by you only.

Examples:
  $ export STACKSHIFT_URL=https://dashboard.example STACKSHIFT_TOKEN=stackshift_pat_...
  $ stackshift projects create "Bakery"
  $ stackshift deploy Bakery --wait
  $ stackshift --json deployments list Bakery
${EXIT_CODES_HELP}`,
  )
  .exitOverride();

run(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end with exitCode 0; a usage mistake is 2 (commander printed it).
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    process.exitCode = report(error, Boolean(program.opts().json));
  }
}
