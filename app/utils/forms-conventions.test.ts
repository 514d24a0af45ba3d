/**
 * Conventions of the app's forms, checked on the source files (they run with the unit tests):
 *
 * 1. Every `useForm(...)` passes `constraint:` (getZodConstraint of its schema) and
 *    `defaultNoValidate: false`, so the browser checks the same rules as the server before
 *    JavaScript loads (conform renders `novalidate` otherwise, and the attributes would do
 *    nothing; once hydrated, conform validates and sets `novalidate` itself).
 * 2. Every form action answers in one shape, conform's `submission.reply()` through `formReply`
 *    (app/web/http.server.ts), which also sets the status and Retry-After. The rule, kept
 *    simple so it can be trusted: in a form module (a route module in app/routes that is not
 *    `api.*`, or an action helper `app/components/**\/*action.server.ts`)
 *      - `actionError(` does not appear (the old shape, removed);
 *      - no `data(...)`, `json(...)` or `Response.json(...)` is handed an object literal with an
 *        `error`, `message`, `fieldErrors` or `result` key: an error answer built by hand, or a
 *        reply sent without formReply (its status and headers). Loaders in the same files may
 *        return other data; thrown plain-text Responses (404s) are not answers of a form;
 *      - no `Retry-After` header is written by hand: formReply, or apiError for the JSON API,
 *        sets it from the error.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const APP = fileURLToPath(new URL("..", import.meta.url));

function sourceFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join(dir, file));
}

const relative = (file: string) => path.relative(APP, file).split(path.sep).join("/");

/** The text from `open` (an opening bracket) to its match, strings and comments skipped. */
function balanced(source: string, open: number): string {
  const pairs: Record<string, string> = { "(": ")", "{": "}", "[": "]" };
  const stack: string[] = [];
  for (let i = open; i < source.length; i += 1) {
    const c = source[i];
    if (c === '"' || c === "'" || c === "`") {
      for (i += 1; i < source.length && source[i] !== c; i += 1) if (source[i] === "\\") i += 1;
    } else if (c === "/" && source[i + 1] === "/") {
      i = source.indexOf("\n", i);
      if (i < 0) break;
    } else if (c === "/" && source[i + 1] === "*") {
      i = source.indexOf("*/", i) + 1;
    } else if (pairs[c]) {
      stack.push(pairs[c]);
    } else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return source.slice(open, i + 1);
    }
  }
  return source.slice(open);
}

/** The keys an object literal (`{...}`) names at its top level, shorthand ones included. */
export function topLevelKeys(literal: string): string[] {
  let flat = "";
  let depth = 0;
  for (let i = 0; i < literal.length; i += 1) {
    const c = literal[i];
    if (c === '"' || c === "'" || c === "`") {
      const end = balancedString(literal, i);
      if (depth === 1) flat += '""';
      i = end;
    } else if ("({[".includes(c)) {
      depth += 1;
      if (depth === 2) flat += "_";
    } else if (")}]".includes(c)) {
      depth -= 1;
    } else if (depth === 1) {
      flat += c;
    }
  }
  return [...flat.matchAll(/(?:^|,)\s*([A-Za-z_$][\w$]*)\s*(?=[:,]|$)/g)].map((m) => m[1]);
}

function balancedString(source: string, start: number) {
  const quote = source[start];
  let i = start + 1;
  for (; i < source.length && source[i] !== quote; i += 1) if (source[i] === "\\") i += 1;
  return i;
}

/** `useForm(...)` calls whose options lack `constraint` or `defaultNoValidate: false`. */
export function formsWithoutConstraint(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\buseForm\s*(?:<[^()]*?>)?\(/g)) {
    const call = balanced(source, match.index + match[0].length - 1);
    const ok = /\bconstraint\s*[:,}]/.test(call) && /\bdefaultNoValidate\s*:\s*false\b/.test(call);
    if (!ok) found.push(`useForm${call.slice(0, 60)}...`);
  }
  return found;
}

const FORBIDDEN_KEYS = new Set(["error", "message", "fieldErrors", "result"]);

/** Error answers built by hand in a form module (see rule 2 above). */
export function handMadeReplies(source: string): string[] {
  const found: string[] = [];
  if (source.includes("actionError(")) found.push("actionError(");
  if (/["']Retry-After["']/.test(source)) found.push("a Retry-After header built by hand");
  for (const match of source.matchAll(/(?<![\w$])(?:data|json)\s*(?:<[^()]*?>)?\(\s*\{/g)) {
    const literal = balanced(source, match.index + match[0].length - 1);
    const keys = topLevelKeys(literal).filter((key) => FORBIDDEN_KEYS.has(key));
    if (keys.length) found.push(`${match[0]}... with ${keys.join(", ")}`);
  }
  return found;
}

const isFormModule = (file: string) => {
  const name = relative(file);
  if (/^components\/.+action\.server\.ts$/.test(name)) return true;
  if (!name.startsWith("routes/") || path.basename(name).startsWith("api.")) return false;
  return /export (?:async )?function action\b|export const action\b/.test(
    readFileSync(file, "utf8"),
  );
};

describe("the checks themselves", () => {
  it("find a useForm without constraint", () => {
    expect(formsWithoutConstraint("useForm({ lastResult, onValidate() {} })")).toHaveLength(1);
    // The constraint alone does nothing before hydration: conform renders `novalidate`.
    expect(formsWithoutConstraint("useForm({ constraint: getZodConstraint(s) })")).toHaveLength(1);
    expect(
      formsWithoutConstraint(
        "useForm({ constraint: getZodConstraint(s), defaultNoValidate: false, onValidate() {} })",
      ),
    ).toEqual([]);
  });

  it("find the error shapes the actions used to build by hand", () => {
    // The old actionError and the old hand-made answers of the admin, oidc and retry pages.
    expect(handMadeReplies("return actionError(error);")).toHaveLength(1);
    expect(
      handMadeReplies(`return data(
      { status: "error" as const, message: "Choose a request to approve or reject." },
      { status: 400 },
    );`),
    ).toHaveLength(1);
    expect(handMadeReplies("return data({ error: error.message }, { status: 400 });")).toHaveLength(
      1,
    );
    expect(
      handMadeReplies('throw Response.json({ error: "Unknown action" }, { status: 400 });'),
    ).toHaveLength(1);
    expect(
      handMadeReplies(
        `return data({ result: submission.reply() }, { headers: { "Retry-After": "3" } });`,
      ),
    ).toHaveLength(2);
    // What is allowed: formReply, loader data without those keys, a plain-text 404.
    expect(
      handMadeReplies(`return formReply({ result: submission.reply({ formErrors: [m] }) }, error);
      return data({ theme }, { headers });
      return data({ invitation, viewerEmail: f(\`{ error: x }\`) }, { status });
      throw new Response("Not Found", { status: 404 });`),
    ).toEqual([]);
  });
});

describe("form conventions", () => {
  const files = sourceFiles(APP);

  it("every useForm passes a constraint (getZodConstraint) the browser applies before hydration", () => {
    const offenders: Record<string, string[]> = {};
    let calls = 0;
    for (const file of files.filter((f) => f.endsWith(".tsx"))) {
      const source = readFileSync(file, "utf8");
      calls += source.match(/\buseForm\s*\(/g)?.length ?? 0;
      const missing = formsWithoutConstraint(source);
      if (missing.length) offenders[relative(file)] = missing;
    }
    expect(calls).toBeGreaterThan(0);
    expect(offenders).toEqual({});
  });

  it("every form action answers with formReply (conform's reply), never a hand-made error", () => {
    const modules = files.filter(isFormModule);
    expect(modules.length).toBeGreaterThan(5);
    const offenders: Record<string, string[]> = {};
    for (const file of modules) {
      const found = handMadeReplies(readFileSync(file, "utf8"));
      if (found.length) offenders[relative(file)] = found;
    }
    expect(offenders).toEqual({});
  });
});
