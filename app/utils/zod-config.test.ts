/**
 * zod-config.ts: schemas parse without generating code, so the page's Content-Security-Policy
 * (no eval) has nothing to refuse; and it runs before the modules that make schemas.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import "~/utils/zod-config";
import { z } from "zod";

const ROOT = path.resolve(__dirname, "../..");
const NativeFunction = Function;

afterEach(() => {
  globalThis.Function = NativeFunction;
});

describe("zod-config", () => {
  it("turns zod's jitless setting on", () => {
    expect(z.config().jitless).toBe(true);
  });

  it("leaves zod no Function to make when a schema is made and parses", () => {
    // Stands in for a Content-Security-Policy without 'unsafe-eval': every Function made counts.
    const made: string[] = [];
    globalThis.Function = new Proxy(NativeFunction, {
      construct(target, args: string[], newTarget) {
        made.push(args.join(", "));
        return Reflect.construct(target, args, newTarget);
      },
      apply(target, self, args: string[]) {
        made.push(args.join(", "));
        return Reflect.apply(target, self, args);
      },
    });
    const schema = z.object({
      name: z.string().min(1),
      members: z.array(z.object({ email: z.email(), role: z.enum(["owner", "editor"]) })),
    });
    const value = { name: "Acme", members: [{ email: "ada@example.com", role: "owner" }] };
    for (let i = 0; i < 3; i++) expect(schema.parse(value)).toEqual(value);
    expect(schema.safeParse({ name: "", members: [] }).success).toBe(false);
    expect(made).toEqual([]);
  });

  it("is the first import of the modules that run first, on the server and in the browser", () => {
    for (const file of ["app/entry.server.tsx", "app/entry.client.tsx", "app/root.tsx"]) {
      const source = fs.readFileSync(path.join(ROOT, file), "utf8");
      const firstImport = source.match(/^import\b[^;]*;/m)?.[0];
      expect(firstImport, file).toBe('import "~/utils/zod-config";');
    }
  });

  it("is kept by the build although nothing uses an export of it (package.json sideEffects)", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    expect(pkg.sideEffects).toContain("./app/utils/zod-config.ts");
  });
});
