/** The commands: each is the API operations it calls through the typed client, and its output. */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { createStackShiftClient, unwrap, type StackShiftClient } from "@stackshift/client";
import { Argument, Option, type Command } from "commander";
import { removeSaved, writeSaved } from "./config.js";
import { baseUrlOf, context, findProject, USER_AGENT, type Context } from "./context.js";
import { deploy } from "./deploy.js";
import { CliError, EXIT, fields, output, table } from "./output.js";

type Global = { json?: boolean; url?: string };

/** The context of the command being run, from the program's global options. */
function ctx(command: Command): Context {
  const { json, url } = command.optsWithGlobals<Global>();
  return context(url, output(Boolean(json)));
}

function examples(...lines: string[]) {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}`;
}

const ADDONS = {
  ecommerce: "/api/app/activate-cstudio",
  gpt: "/api/app/gpt3",
  newsletter: "/api/app/newsletter",
  "social-media": "/api/app/studios/social-media",
  "e2e-tests": "/api/app/e2e-tests",
  "visual-tests": "/api/app/chromatic",
} as const;
type Addon = keyof typeof ADDONS;

async function setAddon(
  api: StackShiftClient,
  studioId: string,
  addon: Addon,
  on: boolean,
  chromaticProjectToken?: string,
) {
  const action = on ? ("enable" as const) : ("disable" as const);
  const value = on ? ("true" as const) : ("false" as const);
  switch (addon) {
    case "ecommerce":
      return unwrap(await api.PUT("/api/app/activate-cstudio", { body: { studioId, value } }));
    case "gpt":
      return unwrap(await api.PUT("/api/app/gpt3", { body: { studioId, value } }));
    case "newsletter":
      return unwrap(await api.PUT("/api/app/newsletter", { body: { studioId, action } }));
    case "social-media":
      return unwrap(await api.PUT("/api/app/studios/social-media", { body: { studioId, action } }));
    case "e2e-tests":
      return unwrap(await api.PUT("/api/app/e2e-tests", { body: { studioId, action } }));
    case "visual-tests":
      return unwrap(
        await api.PUT("/api/app/chromatic", {
          body: { studioId, action, ...(chromaticProjectToken ? { chromaticProjectToken } : {}) },
        }),
      );
  }
}

/** The token typed at a hidden prompt on a terminal, or read whole from piped stdin. */
async function readToken(): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = "";
    for await (const chunk of process.stdin) text += String(chunk);
    return text.trim();
  }
  process.stderr.write("Token (input hidden): ");
  return new Promise((resolve) => {
    let text = "";
    process.stdin.setRawMode(true);
    process.stdin.resume();
    const onData = (data: Buffer) => {
      for (const char of data.toString("utf8")) {
        if (char === "\r" || char === "\n" || char === "\u0004") {
          process.stdin.setRawMode(false);
          process.stdin.pause();
          process.stdin.off("data", onData);
          process.stderr.write("\n");
          resolve(text.trim());
          return;
        }
        if (char === "\u0003") process.exit(130);
        text = char === "\u007f" ? text.slice(0, -1) : text + char;
      }
    };
    process.stdin.on("data", onData);
  });
}

export function run(program: Command) {
  program
    .command("login")
    .description("Save a personal access token (and the dashboard's address) for later commands")
    .addHelpText(
      "after",
      examples(
        "stackshift login --url https://dashboard.example",
        'echo "$TOKEN" | stackshift login --url https://dashboard.example',
      ) +
        "\n\nThe token is read from a hidden prompt, or from stdin when piped; it is checked with the\n" +
        "dashboard, saved in your config folder (mode 0600) and never printed.",
    )
    .action(async (_options, command: Command) => {
      const { json, url } = command.optsWithGlobals<Global>();
      const out = output(Boolean(json));
      const baseUrl = baseUrlOf(url);
      const token = await readToken();
      if (!token) throw new CliError("No token given", EXIT.usage);
      const api = createStackShiftClient({ baseUrl, token, userAgent: USER_AGENT });
      const me = unwrap(await api.GET("/api/user"));
      const file = writeSaved({ url: baseUrl, token });
      out.result(
        { url: baseUrl, email: me.email, config: file },
        () => `Signed in to ${baseUrl} as ${me.email} (saved in ${file})`,
      );
    });

  program
    .command("logout")
    .description("Forget the saved token")
    .action((_options, command: Command) => {
      const out = output(Boolean(command.optsWithGlobals<Global>().json));
      const removed = removeSaved();
      out.result({ removed }, () => (removed ? "Signed out" : "No saved token"));
    });

  program
    .command("whoami")
    .description("Who the token belongs to")
    .addHelpText("after", examples("stackshift whoami", "stackshift --json whoami | jq -r .email"))
    .action(async (_options, command: Command) => {
      const { api, out, baseUrl } = ctx(command);
      const me = unwrap(await api.GET("/api/user"));
      out.result(me, () =>
        fields([
          ["Name", me.name],
          ["E-mail", me.email],
          ["Dashboard", baseUrl],
        ]),
      );
    });

  const projects = program.command("projects").description("List, create and show projects");
  projects
    .command("list")
    .description("Your projects, newest first")
    .option("--limit <n>", "how many", "50")
    .addHelpText(
      "after",
      examples("stackshift projects list", "stackshift --json projects list --limit 5"),
    )
    .action(async (options: { limit: string }, command: Command) => {
      const { api, out } = ctx(command);
      const limit = Number(options.limit);
      const list = unwrap(await api.GET("/api/app", { params: { query: { limit } } }));
      out.result(list.data, () =>
        table(
          ["STUDIO ID", "NAME", "STATE", "SITE"],
          list.data.map((p) => [
            p.studioId,
            p.name,
            p.badge.label,
            p.siteCustomDomain ?? p.siteUrl,
          ]),
        ),
      );
    });
  projects
    .command("create")
    .description("Create a project (its content studio and site are made, then it deploys)")
    .argument("<name>", "the project's name")
    .addOption(
      new Option("--site-type <type>", "the site's plan").choices(["business", "enterprise"]),
    )
    .option(
      "--idempotency-key <key>",
      "the same key again returns the same project (safe to retry)",
    )
    .addHelpText(
      "after",
      examples(
        'stackshift projects create "Bakery"',
        'stackshift --json projects create "Bakery" --idempotency-key "ci-$GITHUB_RUN_ID" | jq -r .studioId',
      ),
    )
    .action(
      async (
        name: string,
        options: { siteType?: "business" | "enterprise"; idempotencyKey?: string },
        command: Command,
      ) => {
        const { api, out } = ctx(command);
        const idempotencyKey = options.idempotencyKey ?? `cli-${Date.now()}-${process.pid}`;
        const body = {
          name,
          idempotencyKey,
          ...(options.siteType ? { siteType: options.siteType } : {}),
        };
        const project = unwrap(await api.POST("/api/app/create", { body }));
        out.result(project, () =>
          fields([
            ["Created", project.name],
            ["Studio ID", project.studioId],
            ["Site", project.siteCreationStatus],
          ]),
        );
      },
    );
  projects
    .command("show")
    .description("One project: its state, addresses, add-ons and members")
    .argument("<project>", "a studioId, an _id or a project's name")
    .addHelpText("after", examples("stackshift projects show Bakery"))
    .action(async (ref: string, _options, command: Command) => {
      const { api, out } = ctx(command);
      const p = await findProject(api, ref);
      const addons = Object.entries({
        ecommerce: p.isCStudioEnabled,
        gpt: p.isGPT3Enabled,
        newsletter: p.isAINewsletterEnabled,
        "social-media": p.isSocialMediaEnabled,
        "e2e-tests": p.isEndToEndTestsEnabled,
        "visual-tests": p.isVisualTestsEnabled,
      })
        .filter(([, on]) => on)
        .map(([name]) => name);
      out.result(p, () =>
        fields([
          ["Name", p.name],
          ["Studio ID", p.studioId],
          ["Site", p.siteCreationStatus],
          ["Site address", p.siteUrl],
          ["Custom domain", p.siteCustomDomain],
          ["Studio address", p.studioUrl],
          ["Your role", p.role],
          ["Add-ons", addons.join(", ")],
          ["Members", p.members.length],
        ]),
      );
    });

  program
    .command("deploy")
    .description("Deploy a project now; with --wait, follow it until it is ready or has failed")
    .argument("<project>", "a studioId, an _id or a project's name")
    .option("--wait", "print the deployment's state as it changes; exit 10 if it fails")
    .option("--timeout <seconds>", "how long --wait waits (exit 8 after)", "900")
    .addHelpText(
      "after",
      examples(
        "stackshift deploy Bakery --wait",
        "stackshift deploy 4f1c2a9e --wait --timeout 300",
      ),
    )
    .action(async (ref: string, options: { wait?: boolean; timeout: string }, command: Command) => {
      const c = ctx(command);
      const result = await deploy(c, ref, {
        wait: Boolean(options.wait),
        timeoutSeconds: Number(options.timeout),
      });
      c.out.result(result, () =>
        result.deployment
          ? `${result.project.name}: ${result.state}${result.deployment.url ? ` at ${result.deployment.url}` : ""}`
          : `${result.project.name}: ${result.requested} queued`,
      );
    });

  const deployments = program.command("deployments").description("A project's deployments");
  deployments
    .command("list")
    .description("The site's deployments, newest first")
    .argument("<project>", "a studioId, an _id or a project's name")
    .addHelpText("after", examples("stackshift deployments list Bakery"))
    .action(async (ref: string, _options, command: Command) => {
      const { api, out } = ctx(command);
      const { studioId } = await findProject(api, ref);
      const list = unwrap(
        await api.GET("/api/deployments/{studioId}", { params: { path: { studioId } } }),
      );
      out.result(list, () =>
        table(
          ["ID", "STATE", "LABEL", "CREATED", "ADDRESS"],
          list.results.map((d) => [d.id, d.state, d.label, d.createdAt, d.deploy_ssl_url ?? d.url]),
        ),
      );
    });

  program
    .command("rollback")
    .description("Publish an earlier ready deployment again")
    .argument("<project>", "a studioId, an _id or a project's name")
    .argument("<deployment>", "the id of a ready deployment (see 'deployments list')")
    .addHelpText("after", examples("stackshift rollback Bakery 6650c0ffee"))
    .action(async (ref: string, deployId: string, _options, command: Command) => {
      const { api, out } = ctx(command);
      const { studioId } = await findProject(api, ref);
      const restored = unwrap(
        await api.POST("/api/app/rollback", { body: { studioId, deployId } }),
      );
      out.result(restored, () => `Published deployment ${restored.id} again (${restored.state})`);
    });

  const domains = program.command("domains").description("The site's custom domain");
  domains
    .command("set")
    .description("Set the site's custom domain")
    .argument("<project>", "a studioId, an _id or a project's name")
    .argument("<domain>", "e.g. www.bakery.example")
    .addHelpText("after", examples("stackshift domains set Bakery www.bakery.example"))
    .action(async (ref: string, domain: string, _options, command: Command) => {
      const { api, out } = ctx(command);
      const { studioId } = await findProject(api, ref);
      const body = { type: "site", action: "update" as const, studioId, domain };
      const changed = unwrap(await api.PUT("/api/app/domains", { body }));
      out.result(changed, () =>
        changed.changed ? `Custom domain set to ${changed.domain}` : `Already ${changed.domain}`,
      );
    });
  domains
    .command("revert")
    .description("Remove the custom domain: the site answers at its own address again")
    .argument("<project>", "a studioId, an _id or a project's name")
    .addHelpText("after", examples("stackshift domains revert Bakery"))
    .action(async (ref: string, _options, command: Command) => {
      const { api, out } = ctx(command);
      const { studioId } = await findProject(api, ref);
      const body = { type: "site", action: "revert" as const, studioId, domain: "" };
      const changed = unwrap(await api.PUT("/api/app/domains", { body }));
      out.result(changed, () => (changed.changed ? "Custom domain removed" : "No custom domain"));
    });

  const members = program.command("members").description("A project's members and invitations");
  members
    .command("list")
    .description("Members and pending invitations")
    .argument("<project>", "a studioId, an _id or a project's name")
    .addHelpText("after", examples("stackshift members list Bakery"))
    .action(async (ref: string, _options, command: Command) => {
      const { api, out } = ctx(command);
      const p = await findProject(api, ref);
      const rows = p.members.map((m) => ({
        email: m.user?.email ?? m.invitedEmail,
        name: m.user?.name ?? null,
        role: m.role,
        status: m.status,
      }));
      out.result(rows, () =>
        table(
          ["E-MAIL", "NAME", "ROLE", "STATUS"],
          rows.map((m) => [m.email, m.name, m.role, m.status]),
        ),
      );
    });
  members
    .command("invite")
    .description("Invite someone by e-mail (again: the invitation is sent again)")
    .argument("<project>", "a studioId, an _id or a project's name")
    .argument("<email>", "who to invite")
    .addOption(
      new Option("--role <role>", "their role")
        .choices(["editor", "developer", "admin"])
        .default("editor"),
    )
    .addHelpText(
      "after",
      examples("stackshift members invite Bakery ada@example.com --role developer"),
    )
    .action(
      async (
        ref: string,
        email: string,
        options: { role: "editor" | "developer" | "admin" },
        command: Command,
      ) => {
        const { api, out } = ctx(command);
        const { studioId } = await findProject(api, ref);
        const body = { studioId, email, role: options.role };
        const sent = unwrap(await api.POST("/api/app/members", { body }));
        out.result(sent, () =>
          sent.outcome === "sent"
            ? `Invited ${email} as ${options.role}`
            : `Invitation sent again to ${email}`,
        );
      },
    );
  members
    .command("remove")
    .description("Remove a member, or withdraw an invitation")
    .argument("<project>", "a studioId, an _id or a project's name")
    .argument("<email>", "the member's or invitee's e-mail")
    .addHelpText("after", examples("stackshift members remove Bakery ada@example.com"))
    .action(async (ref: string, email: string, _options, command: Command) => {
      const { api, out } = ctx(command);
      const { studioId } = await findProject(api, ref);
      const body = { studioId, memberEmail: email };
      const done = unwrap(await api.DELETE("/api/app/members", { body }));
      const revoked = "outcome" in done && done.outcome === "revoked";
      out.result(done, () => `${revoked ? "Invitation withdrawn" : "Removed"}: ${email}`);
    });

  const addons = program.command("addons").description("Switch a project's add-ons on or off");
  for (const [verb, on] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    const command = addons
      .command(verb)
      .description(`${on ? "Switch on" : "Switch off"} an add-on`)
      .argument("<project>", "a studioId, an _id or a project's name")
      .addArgument(new Argument("<addon>", "the add-on").choices(Object.keys(ADDONS)));
    if (on) {
      command.option(
        "--chromatic-token <token>",
        "visual-tests: the Chromatic project token (the first time)",
      );
    }
    command
      .addHelpText(
        "after",
        examples(
          `stackshift addons ${verb} Bakery newsletter`,
          ...(on
            ? ["stackshift addons enable Bakery visual-tests --chromatic-token chpt_..."]
            : []),
        ),
      )
      .action(
        async (ref: string, addon: Addon, options: { chromaticToken?: string }, cmd: Command) => {
          const { api, out } = ctx(cmd);
          const { studioId } = await findProject(api, ref);
          const change = await setAddon(api, studioId, addon, on, options.chromaticToken);
          out.result(
            change,
            () =>
              `${addon}: ${change.enabled ? "on" : "off"}${change.changed ? "" : " (unchanged)"}`,
          );
        },
      );
  }

  const forms = program.command("forms").description("A project's forms");
  forms
    .command("export")
    .description("A form's submissions as CSV on stdout (streamed: any size)")
    .argument(
      "<form>",
      "the form's id: the end of its endpoint, /forms/{id}, on the project's Forms page",
    )
    .addHelpText("after", examples("stackshift forms export 0b5e7c1d-... > submissions.csv"))
    .action(async (formId: string, _options, command: Command) => {
      const { api } = ctx(command);
      const result = await api.GET("/api/app/forms/export/{id}", {
        params: { path: { id: formId } },
        parseAs: "stream",
      });
      const body = unwrap(result);
      await pipeline(Readable.fromWeb(body as WebReadableStream), process.stdout);
    });
}
