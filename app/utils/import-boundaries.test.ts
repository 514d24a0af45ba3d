/**
 * The import rule of eslint.config.js: routes, components and the HTTP edge (app/web) reach the
 * database, the providers and the vendors' SDKs only through a service; app/utils imports none
 * of ours but itself. Linting a few lines under each file name shows
 * the rule still covers what docs/architecture.md says it does.
 */
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const eslint = new ESLint({ cwd: ROOT });

const IMPORTS: Record<string, string> = {
  database: 'import { db } from "~/db/client.server";',
  driver: 'import { eq } from "drizzle-orm";',
  provider: 'import { hostingProvider } from "~/providers/hosting/index.server";',
  vendor: 'import Stripe from "stripe";',
  mail: 'import nodemailer from "nodemailer";',
  service: 'import { listDomains } from "~/services/domain-list.server";',
};

/** Which of IMPORTS the rule refuses in a file of that name. */
async function refused(file: string): Promise<string[]> {
  const out: string[] = [];
  for (const [what, line] of Object.entries(IMPORTS)) {
    const name = line.match(/import \{?\s*(\w+)/)![1];
    const [result] = await eslint.lintText(`${line}\nexport const used = ${name};\n`, {
      filePath: path.join(ROOT, file),
    });
    if (result.messages.some((m) => m.ruleId === "no-restricted-imports")) out.push(what);
  }
  return out;
}

describe("the import rule", { timeout: 60_000 }, () => {
  it("keeps routes and components to services", async () => {
    for (const file of [
      "app/routes/_app.example.tsx",
      "app/components/example/view.tsx",
      "app/web/example.server.ts",
    ]) {
      expect(await refused(file), file).toEqual([
        "database",
        "driver",
        "provider",
        "vendor",
        "mail",
      ]);
    }
  });

  it("lets the /local/* stand-in pages use the providers, still not the database or vendors", async () => {
    expect(await refused("app/routes/local.example.tsx")).toEqual([
      "database",
      "driver",
      "vendor",
      "mail",
    ]);
  });

  it("keeps app/utils the bottom layer: no database, provider or service", async () => {
    expect(await refused("app/utils/example.server.ts")).toEqual([
      "database",
      "provider",
      "service",
    ]);
  });

  it("lets services use all of them", async () => {
    expect(await refused("app/services/example.server.ts")).toEqual([]);
  });
});
