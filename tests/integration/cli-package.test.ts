/**
 * The client package and the command line as a user gets them: `npm pack` of both workspace
 * packages (their prepack builds them), `npm install ./stackshift-*.tgz` into an empty folder,
 * then the installed `stackshift` and `@stackshift/client` against a real server process
 * (scripts/start.mjs) on the test's PostgreSQL database, signed in with a real personal access
 * token. PostgreSQL only: the embedded PGlite database belongs to one process.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/services/accounts/api-tokens.server";
import { ensureDefaultForm } from "~/services/forms/forms.server";
import { childEnv } from "../../scripts/child-env.mjs";
import { insertProject } from "../helpers";
import { startApiServer, stopServer, type Server } from "./lifecycle-support";
import { actor, type Actor } from "./members-support";

const postgres = Boolean(process.env.DATABASE_URL);
const root = process.cwd();
const SITE = "https://cli-bakery.netlify.app";

let server: Server;
let owner: Actor;
let token: string;
/** The empty folder the packages are installed into, and the user's config folder. */
let folder: string;
let configHome: string;

type Run = { code: number | null; stdout: string; stderr: string };

/** A script's environment: the server's address and the token; the config folder a scratch one. */
function cliEnv(extra: Record<string, string> = {}) {
  return childEnv({
    HOME: configHome,
    XDG_CONFIG_HOME: configHome,
    STACKSHIFT_URL: server.base,
    STACKSHIFT_TOKEN: token,
    ...extra,
  });
}

/** The installed `stackshift`, as a script runs it: no terminal, the token in the environment. */
function stackshift(
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
) {
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(path.join(folder, "node_modules/.bin/stackshift"), args, {
      cwd: folder,
      env: cliEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

/** `npm ...` in `cwd` (through a shell, which expands `./stackshift-*.tgz`). */
function npm(args: string[], cwd: string) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn("npm", args, { cwd, shell: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += String(d)));
    child.stderr.on("data", (d) => (output += String(d)));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`npm ${args.join(" ")}:\n${output}`)),
    );
  });
}

/** Both packages packed (their prepack builds them) and installed into the empty folder. */
async function packAndInstall() {
  // The client first: the command line's build reads its declarations.
  await npm(["pack", "--pack-destination", folder, "-w", "@stackshift/client"], root);
  await npm(["pack", "--pack-destination", folder, "-w", "stackshift"], root);
  await npm(
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "./stackshift-*.tgz"],
    folder,
  );
}

beforeAll(async () => {
  if (!postgres) return;
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-cli-install-"));
  configHome = fs.mkdtempSync(path.join(os.tmpdir(), "stackshift-cli-home-"));
  // Packing and the server's start overlap: each mostly waits on its own child process. The
  // server is kept (and stopped in afterAll) even when packing fails.
  const started = startApiServer("cli-data");
  // Its failure is reported by the await below, not as an unhandled rejection meanwhile.
  started.catch(() => undefined);
  try {
    await packAndInstall();
  } finally {
    server = await started;
  }
  owner = await actor({ name: "Casey Cli" });
  ({ token } = await createApiToken(owner.user, {
    name: "CLI test",
    scope: "read-write",
    lifetimeDays: 7,
    projectIds: [],
  }));
}, 240_000);

afterAll(async () => {
  if (server) await stopServer(server);
  for (const dir of [folder, configHome]) {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Each step spawns a process (tsc, node, the command line): generous on a loaded machine.
describe.runIf(postgres)(
  "the packed client, installed into an empty folder",
  { timeout: 90_000 },
  () => {
    it("ships ESM, its declarations and the generated API types, with openapi-fetch its only dependency", () => {
      const installed = path.join(folder, "node_modules/@stackshift/client");
      const pkg = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8"));
      expect(Object.keys(pkg.dependencies)).toEqual(["openapi-fetch"]);
      expect(pkg.exports["."]).toEqual({ types: "./dist/index.d.ts", import: "./dist/index.js" });
      expect(fs.readFileSync(path.join(installed, "dist/schema.d.ts"), "utf8")).toBe(
        fs.readFileSync(path.join(root, "client/schema.d.ts"), "utf8"),
      );
    });

    it("is usable from plain Node: a script calls the running server", () => {
      const script = path.join(folder, "whoami.mjs");
      fs.writeFileSync(
        script,
        `import { createStackShiftClient, unwrap } from "@stackshift/client";
const api = createStackShiftClient({ baseUrl: process.env.URL, token: process.env.TOKEN });
const me = unwrap(await api.GET("/api/user"));
const refused = await createStackShiftClient({ baseUrl: process.env.URL, token: "stackshift_pat_nope" }).GET("/api/user");
console.log(JSON.stringify({ email: me.email, status: refused.response.status, error: refused.error.error }));
`,
      );
      const run = spawnSync(process.execPath, [script], {
        cwd: folder,
        encoding: "utf8",
        env: childEnv({ URL: server.base, TOKEN: token }),
      });
      expect(run.status, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout);
      expect(out.email).toBe(owner.email);
      expect(out.status).toBe(401);
      expect(typeof out.error).toBe("string");
    });

    it("is usable from TypeScript: paths, bodies and answers are checked against its types", () => {
      fs.writeFileSync(
        path.join(folder, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            module: "NodeNext",
            moduleResolution: "NodeNext",
            target: "ES2022",
            lib: ["ES2022", "DOM"],
            strict: true,
            noEmit: true,
            types: [],
          },
          files: ["good.mts", "bad.mts"],
        }),
      );
      fs.writeFileSync(
        path.join(folder, "good.mts"),
        `import { createStackShiftClient, unwrap, type ApiErrorBody } from "@stackshift/client";
const api = createStackShiftClient({ baseUrl: "http://x", token: "t" });
const me = unwrap(await api.GET("/api/user"));
const email: string = me.email;
const { error } = await api.POST("/api/app/create", { body: { name: "n", idempotencyKey: "k" } });
const body: ApiErrorBody | undefined = error;
export { email, body };
`,
      );
      fs.writeFileSync(
        path.join(folder, "bad.mts"),
        `import { createStackShiftClient } from "@stackshift/client";
const api = createStackShiftClient({ baseUrl: "http://x", token: "t" });
await api.GET("/api/not-an-operation");
await api.POST("/api/app/create", { body: { nom: "n" } });
export {};
`,
      );
      const tsc = spawnSync(
        process.execPath,
        [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"],
        { cwd: folder, encoding: "utf8" },
      );
      const errors = tsc.stdout.split("\n").filter((l) => /error TS/.test(l));
      // good.mts compiles; each of bad.mts's two mistakes is an error.
      expect(
        errors.filter((l) => l.startsWith("good.mts")),
        tsc.stdout,
      ).toEqual([]);
      expect(errors.filter((l) => l.startsWith("bad.mts(3,")).length, tsc.stdout).toBe(1);
      expect(errors.filter((l) => l.startsWith("bad.mts(4,")).length, tsc.stdout).toBe(1);
    });
  },
);

describe.runIf(postgres)(
  "the installed stackshift command line against the server",
  { timeout: 90_000 },
  () => {
    let studioId = "";

    it("says who the token belongs to, as JSON and as text", async () => {
      const json = await stackshift(["--json", "whoami"]);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout).email).toBe(owner.email);
      const text = await stackshift(["whoami"]);
      expect(text.stdout).toMatch(new RegExp(`E-mail:\\s+${owner.email.replace(/\./g, "\\.")}`));
    });

    it("creates a project, and deploys it with --wait to ready, printing each state", async () => {
      const created = await stackshift(["--json", "projects", "create", "CLI bakery"]);
      expect(created.code, created.stderr).toBe(0);
      studioId = JSON.parse(created.stdout).studioId;
      expect(studioId).toBeTruthy();

      const deployed = await stackshift(["deploy", studioId, "--wait", "--timeout", "90"]);
      expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
      const states = deployed.stdout
        .split("\n")
        .map((l) => /^\d\d:\d\d:\d\d {2}(.+)$/.exec(l)?.[1])
        .filter(Boolean);
      // Just created: its site may still be on its way, whose first deployment is then followed.
      expect(["queued", "creating the site"]).toContain(states[0]);
      expect(states.length).toBeGreaterThanOrEqual(2);
      expect(states.at(-1)).toBe("ready");
      expect(new Set(states).size).toBe(states.length);
      expect(deployed.stdout).toMatch(/CLI bakery: ready/);
      // No terminal: no spinner, nothing on stderr.
      expect(deployed.stderr).toBe("");

      const list = await stackshift(["--json", "deployments", "list", "CLI bakery"]);
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout).results.length).toBeGreaterThanOrEqual(1);
    }, 150_000);

    it("deploys a ready project again: --json prints the result on stdout and the states on stderr", async () => {
      const again = await stackshift([
        "--json",
        "deploy",
        "CLI bakery",
        "--wait",
        "--timeout",
        "90",
      ]);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ requested: "deployment", state: "ready" });
      expect(again.stderr).toMatch(/^\d\d:\d\d:\d\d {2}queued$/m);
      expect(again.stderr).toMatch(/^\d\d:\d\d:\d\d {2}ready$/m);
    }, 150_000);

    it("rolls back to the earlier deployment, sets and reverts a domain, and switches an add-on", async () => {
      const list = JSON.parse(
        (await stackshift(["--json", "deployments", "list", studioId])).stdout,
      );
      const earlier = (list.results as { id: string; state: string }[]).filter(
        (d) => d.state.toLowerCase() === "ready",
      )[1];
      expect(earlier).toBeDefined();
      const rolled = await stackshift(["--json", "rollback", studioId, earlier.id]);
      expect(rolled.code, rolled.stderr).toBe(0);
      expect(JSON.parse(rolled.stdout)).toMatchObject({ id: earlier.id, label: "Published" });

      const domain = `cli-${Date.now()}.example`;
      const set = await stackshift(["domains", "set", studioId, domain]);
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toContain(`Custom domain set to ${domain}`);
      const reverted = await stackshift(["--json", "domains", "revert", studioId]);
      expect(reverted.code, reverted.stderr).toBe(0);
      expect(JSON.parse(reverted.stdout)).toMatchObject({ action: "revert", changed: true });

      const on = await stackshift(["addons", "enable", studioId, "newsletter"]);
      expect(on.code, on.stderr).toBe(0);
      expect(on.stdout).toContain("newsletter: on");
      const shown = JSON.parse((await stackshift(["--json", "projects", "show", studioId])).stdout);
      expect(shown.isAINewsletterEnabled).toBe(true);
      const off = await stackshift(["--json", "addons", "disable", studioId, "newsletter"]);
      expect(JSON.parse(off.stdout)).toMatchObject({ enabled: false, changed: true });
    }, 150_000);

    it("invites a member by the project's name and lists the invitation", async () => {
      const invited = await stackshift([
        "--json",
        "members",
        "invite",
        "CLI bakery",
        "guest-cli@example.com",
        "--role",
        "developer",
      ]);
      expect(invited.code, invited.stderr).toBe(0);
      expect(JSON.parse(invited.stdout)).toMatchObject({ outcome: "sent" });
      const listed = await stackshift(["members", "list", studioId]);
      expect(listed.stdout).toMatch(/guest-cli@example\.com\s+-\s+developer\s+invited/);
    });

    it("streams a form's submissions as CSV to a file", async () => {
      const project = await insertProject(owner.id, { siteUrl: SITE });
      const formId = await ensureDefaultForm(project.id);
      for (const name of ["Ada", "Grace"]) {
        const posted = await fetch(`${server.base}/forms/${formId}`, {
          method: "POST",
          headers: { Origin: SITE, Accept: "application/json", "Content-Type": "application/json" },
          body: JSON.stringify({ name, email: `${name.toLowerCase()}@example.com`, message: "Hi" }),
        });
        expect(posted.ok, await posted.text()).toBe(true);
      }
      const file = path.join(folder, "submissions.csv");
      const run = spawnSync(
        `"${path.join(folder, "node_modules/.bin/stackshift")}" forms export ${formId} > submissions.csv`,
        {
          cwd: folder,
          shell: true,
          encoding: "utf8",
          env: cliEnv(),
        },
      );
      expect(run.status, run.stderr).toBe(0);
      const [header, ...rows] = fs.readFileSync(file, "utf8").trim().split(/\r?\n/);
      expect(header).toContain("email");
      expect(rows).toHaveLength(2);
      expect(rows.join("\n")).toContain("ada@example.com");
      expect(rows.join("\n")).toContain("grace@example.com");
    });

    it("exits 10 with the error page's address when the deployment fails", async () => {
      const created = await stackshift(["--json", "projects", "create", "Shop fail-deploy"]);
      expect(created.code, created.stderr).toBe(0);
      const failing = JSON.parse(created.stdout).studioId as string;
      const deployed = await stackshift(["deploy", failing, "--wait", "--timeout", "90"]);
      expect(deployed.code, deployed.stdout + deployed.stderr).toBe(10);
      expect(deployed.stderr).toContain(`${server.base}/sites/${failing}/failed-deployment`);
      expect(deployed.stdout).not.toMatch(/ {2}ready$/m);
    }, 150_000);

    it("exits with the code a script branches on: 3 for a refused token, 5 for an unknown project, 2 for a wrong command", async () => {
      const refused = await stackshift(["whoami"], {
        env: { STACKSHIFT_TOKEN: "stackshift_pat_nope" },
      });
      expect(refused.code).toBe(3);
      const missing = await stackshift(["--json", "projects", "show", "No such project"]);
      expect(missing.code).toBe(5);
      expect(JSON.parse(missing.stderr)).toMatchObject({ exitCode: 5 });
      const wrong = await stackshift(["projects", "explode"]);
      expect(wrong.code).toBe(2);
    });

    it("logs in from stdin into a 0600 file in the config folder, never printing the token", async () => {
      const login = await stackshift(["login", "--url", server.base], {
        env: { STACKSHIFT_TOKEN: "", STACKSHIFT_URL: "" },
        input: `${token}\n`,
      });
      expect(login.code, login.stderr).toBe(0);
      expect(login.stdout + login.stderr).not.toContain(token);
      const file = path.join(configHome, "stackshift/config.json");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      // The saved token and address serve the next command.
      const me = await stackshift(["--json", "whoami"], {
        env: { STACKSHIFT_TOKEN: "", STACKSHIFT_URL: "" },
      });
      expect(me.code, me.stderr).toBe(0);
      expect(JSON.parse(me.stdout).email).toBe(owner.email);
      expect(me.stdout).not.toContain(token);
    });

    it("has --help with examples for each command", async () => {
      for (const command of [
        ["whoami"],
        ["projects", "create"],
        ["deploy"],
        ["deployments", "list"],
        ["rollback"],
        ["domains", "set"],
        ["members", "invite"],
        ["addons", "enable"],
        ["forms", "export"],
      ]) {
        const help = await stackshift([...command, "--help"]);
        expect(help.code, command.join(" ")).toBe(0);
        expect(help.stdout, command.join(" ")).toMatch(/Examples:\n {2}\$ stackshift /);
      }
    });
  },
);
