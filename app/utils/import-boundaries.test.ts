/**
 * The import rule of eslint.config.js: routes, components and the HTTP edge (app/web) reach the
 * database, the providers and the vendors' SDKs only through a service; app/utils imports none
 * of ours but itself; an area of app/services is used through its index only. Linting a few
 * lines under each file name shows the rule still covers what docs/architecture.md says it does.
 */
import fs from "node:fs";
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
  service: 'import { listDomains } from "~/services/domains/index.server";',
  "another area's module": 'import { listDomains } from "~/services/domains/domain-list.server";',
  "another area by a relative path": 'import { listDomains } from "../domains/domain-list.server";',
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
        "another area's module",
      ]);
    }
  });

  it("lets the /local/* stand-in pages use the providers, still not the database or vendors", async () => {
    expect(await refused("app/routes/local.example.tsx")).toEqual([
      "database",
      "driver",
      "vendor",
      "mail",
      "another area's module",
    ]);
  });

  it("keeps app/utils the bottom layer: no database, provider or service", async () => {
    expect(await refused("app/utils/example.server.ts")).toEqual([
      "database",
      "provider",
      "service",
      "another area's module",
    ]);
  });

  it("lets services use all of them, another area only through its index", async () => {
    expect(await refused("app/services/projects/example.server.ts")).toEqual([
      "another area's module",
      "another area by a relative path",
    ]);
    expect(await refused("app/jobs/example.server.ts")).toEqual(["another area's module"]);
  });

  it("lets an area's own modules use each other directly", async () => {
    const [result] = await eslint.lintText(
      'import { listDomains } from "./domain-list.server";\nexport const used = listDomains;\n',
      { filePath: path.join(ROOT, "app/services/domains/example.server.ts") },
    );
    expect(result.messages).toEqual([]);
  });

  it("leaves app/services no loose module: every module is in an area with its index", () => {
    const services = path.join(ROOT, "app/services");
    const loose = fs
      .readdirSync(services)
      .filter((name) => !fs.statSync(path.join(services, name)).isDirectory());
    expect(loose).toEqual([]);
    const withoutIndex = fs
      .readdirSync(services)
      .filter(
        (area) =>
          !["index.ts", "index.server.ts"].some((i) => fs.existsSync(path.join(services, area, i))),
      );
    expect(withoutIndex).toEqual([]);
  });
});
