/**
 * The forms rules of eslint.config.js (`no-restricted-syntax`): each fires on a bad snippet and
 * stays quiet on the good one, linted under a route's or a component's file name, so the rules
 * still say what docs/architecture.md says of forms.
 */
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const eslint = new ESLint({ cwd: ROOT });

/** The messages of the forms rules for `code` in a file of that name. */
async function refusals(code: string, file = "app/components/example/form.tsx") {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);
}

const GOOD_FORM = `
export function F() {
  const [form] = useForm({
    id: INTENT,
    lastResult: useFormReply(INTENT),
    constraint: getZodConstraint(schema),
    defaultNoValidate: false,
  });
  return form;
}`;

describe("the forms rules", { timeout: 60_000 }, () => {
  it("refuse reading any reply as the form's own (useActionData<FormReply>)", async () => {
    const bad = "export const F = () => useActionData<FormReply>()?.result;";
    expect(await refusals(bad)).toEqual([expect.stringMatching(/useFormReply/)]);
    expect(await refusals(bad, "app/routes/_app.example.tsx")).toHaveLength(1);
    expect(await refusals("export const F = () => useFormReply(INTENT);")).toEqual([]);
    // A route's own typed action data is checked by the compiler, not cast.
    expect(await refusals("export const F = () => useActionData<typeof action>();")).toEqual([]);
  });

  it("refuse a useForm without constraint, defaultNoValidate: false or id", async () => {
    expect(await refusals(GOOD_FORM)).toEqual([]);
    const without = (key: string) => GOOD_FORM.replace(new RegExp(`\\n\\s*${key}:[^\\n]*`), "");
    expect(await refusals(without("constraint"))).toEqual([expect.stringMatching(/constraint/)]);
    expect(await refusals(without("defaultNoValidate"))).toEqual([
      expect.stringMatching(/defaultNoValidate/),
    ]);
    expect(await refusals(without("id"))).toEqual([expect.stringMatching(/an `id`/)]);
    expect(
      await refusals(GOOD_FORM.replace("defaultNoValidate: false", "defaultNoValidate: true")),
    ).toHaveLength(1);
  });

  it("refuse an 'Unknown form' reply outside the dispatcher", async () => {
    const bad = `export const reply = () =>
      formReply({ result: { status: "error", error: { "": ["Unknown form"] } } }, 400);`;
    expect(await refusals(bad, "app/routes/_app.example.tsx")).toEqual([
      expect.stringMatching(/dispatchIntent/),
    ]);
    expect(await refusals(bad, "app/web/intents.server.ts")).toEqual([]);
    expect(
      await refusals("export const reply = () => unknownForm(intent);", "app/routes/_app.x.tsx"),
    ).toEqual([]);
  });

  it("refuse error answers built by hand in a form module, not in the JSON API", async () => {
    const route = "app/routes/_app.example.tsx";
    for (const bad of [
      'export const a = () => data({ status: "error", message: "Choose one." }, { status: 400 });',
      "export const a = () => data({ error: e.message }, { status: 400 });",
      'export const a = () => { throw Response.json({ error: "Unknown action" }, { status: 400 }); };',
      'export const a = () => data({ result: r }, { headers: { "Retry-After": "3" } });',
    ]) {
      expect(await refusals(bad, route), bad).not.toEqual([]);
    }
    expect(
      await refusals("export const a = () => data({ error: e.message });", "app/routes/api.x.ts"),
    ).toEqual([]);
    expect(
      await refusals(
        `export const a = () => formReply({ result: submission.reply({ formErrors: [m] }) }, e);
        export const b = () => data({ theme }, { headers });
        export const c = () => { throw new Response("Not Found", { status: 404 }); };`,
        route,
      ),
    ).toEqual([]);
  });

  it("refuse a posting form with fields a person fills in unless it is a conform form", async () => {
    const file = "app/components/example/form.tsx";
    const form = (open: string, body: string, close = "Form") =>
      `export const F = () => (<${open}>${body}</${close}>);`;
    const typed = '<Field label="Name" name="name" />';
    for (const bad of [
      form('Form method="post"', typed),
      form('fetcher.Form method="post"', '<select name="role"></select>', "fetcher.Form"),
      form('form method="post"', '<input type="checkbox" name="ok" />', "form"),
      form('Form method="post"', '<div><textarea name="body" /></div>'),
    ]) {
      expect(await refusals(bad, file), bad).toEqual([expect.stringMatching(/getFormProps/)]);
    }
    const dialog = (props: string, body: string) =>
      `export const D = () => (<ConfirmDialog intent="x" ${props}>${body}</ConfirmDialog>);`;
    expect(await refusals(dialog("", typed), file)).toEqual([expect.stringMatching(/formProps/)]);
    for (const good of [
      form('Form method="post" {...getFormProps(form)}', typed),
      dialog("formProps={getFormProps(form)}", typed),
      dialog("", ""),
      // A command: hidden fields and a button post no one's input.
      form(
        'Form method="post"',
        '<input type="hidden" name="intent" value="x" /><Button>Go</Button>',
      ),
      // A search is a GET and changes nothing.
      form('Form method="get"', '<input type="search" name="q" />'),
    ]) {
      expect(await refusals(good, file), good).toEqual([]);
    }
  });
});
