/** The command line's exit codes, tables and saved token file. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { StackShiftApiError } from "@stackshift/client";
import { configFile, readSaved, removeSaved, writeSaved } from "./config";
import { CliError, EXIT, exitCodeOf, fields, output, report, table } from "./output";

describe("exit codes", () => {
  it("maps each refusal to the code a script branches on", () => {
    expect(
      [401, 403, 404, 400, 409, 413, 415, 429, 500, 502, 503].map((s) => [s, exitCodeOf(s)]),
    ).toEqual([
      [401, EXIT.auth],
      [403, EXIT.forbidden],
      [404, EXIT.notFound],
      [400, EXIT.refused],
      [409, EXIT.refused],
      [413, EXIT.refused],
      [415, EXIT.refused],
      [429, EXIT.unavailable],
      [500, EXIT.unavailable],
      [502, EXIT.unavailable],
      [503, EXIT.unavailable],
    ]);
  });

  it("reports an API error's message and field errors on stderr and returns its code", () => {
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      written.push(chunk);
      return true;
    }) as typeof process.stderr.write;
    try {
      const error = new StackShiftApiError(
        400,
        { error: "Invalid input", fieldErrors: { domain: ["Enter a domain"] } },
        "req-9",
      );
      expect(report(error, true)).toBe(EXIT.refused);
      expect(JSON.parse(written[0])).toEqual({
        error: "Invalid input",
        exitCode: EXIT.refused,
        status: 400,
        fieldErrors: { domain: ["Enter a domain"] },
        requestId: "req-9",
      });
      written.length = 0;
      expect(report(new CliError("The deployment failed", EXIT.deployFailed), false)).toBe(10);
      expect(written.join("")).toBe("Error: The deployment failed\n");
    } finally {
      process.stderr.write = write;
    }
  });
});

describe("tables", () => {
  it("pads columns to their widest cell and shows a dash for an empty one", () => {
    expect(
      table(
        ["ID", "NAME", "SITE"],
        [
          ["a1", "Bakery", null],
          ["b22", "Shop", "https://shop.example"],
        ],
      ),
    ).toBe(["ID   NAME    SITE", "a1   Bakery  -", "b22  Shop    https://shop.example"].join("\n"));
    expect(table(["ID"], [])).toBe("(none)");
    expect(
      fields([
        ["Name", "Bakery"],
        ["Custom domain", null],
      ]),
    ).toBe("Name:          Bakery\nCustom domain: -");
  });
});

describe("the saved token", () => {
  it("is written to the config folder readable by its owner only, and removed on logout", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-config-"));
    const env = { ...process.env, XDG_CONFIG_HOME: home };
    try {
      const file = writeSaved({ url: "https://dashboard.example", token: "stackshift_pat_x" }, env);
      expect(file).toBe(configFile(env));
      if (process.platform !== "win32") {
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
        expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      }
      expect(readSaved(env)).toEqual({
        url: "https://dashboard.example",
        token: "stackshift_pat_x",
      });
      expect(removeSaved(env)).toBe(true);
      expect(readSaved(env)).toEqual({});
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("the spinner", () => {
  /** What `run` writes to stderr while stderr claims to be a terminal (or not). */
  function stderrOf(tty: boolean, run: () => void) {
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const wasTty = process.stderr.isTTY;
    process.stderr.isTTY = tty;
    process.stderr.write = ((chunk: string) => {
      written.push(chunk);
      return true;
    }) as typeof process.stderr.write;
    try {
      run();
    } finally {
      process.stderr.write = write;
      process.stderr.isTTY = wasTty;
    }
    return written.join("");
  }

  it("turns on a terminal and clears its line when it stops", () => {
    const drawn = stderrOf(true, () => {
      const spin = output(false).spinner("Deploying Bakery");
      spin.update("Deploying Bakery: building");
      spin.stop();
    });
    expect(drawn).toContain("Deploying Bakery");
    expect(drawn.endsWith("\r\x1b[2K")).toBe(true);
  });

  it("draws nothing when stderr is not a terminal, or with --json", () => {
    for (const [tty, json] of [
      [false, false],
      [true, true],
    ]) {
      const drawn = stderrOf(tty, () => {
        const spin = output(json).spinner("Deploying Bakery");
        spin.update("Deploying Bakery: building");
        spin.stop();
      });
      expect(drawn).toBe("");
    }
  });
});
