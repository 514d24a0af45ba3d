/**
 * The newsletter's saved templates (savedTemplates, decision 045) on PostgreSQL: the service
 * (list by name, names unique per project whatever their case, the limits, the cap of 50 under
 * concurrent saves, rename, delete, the Activity Log, who may), the page's three forms, and the
 * JSON API (GET /api/app/newsletter by the specification's names, POST / PATCH / DELETE of a
 * template), each answer checked against the OpenAPI document.
 */
import Ajv2020 from "ajv/dist/2020";
import { and, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs, newsletterSavedTemplates, projects } from "~/db/schema";
import {
  action as pageAction,
  loader as pageLoader,
} from "~/routes/_app._project.sites.newsletter.$studioId";
import {
  action as newsletterAction,
  loader as newsletterLoader,
} from "~/routes/api.app.newsletter";
import { action as templatesAction } from "~/routes/api.app.newsletter.templates";
import { action as templateAction } from "~/routes/api.app.newsletter.templates.$templateId";
import { loader as documentLoader } from "~/routes/api.openapi[.]json";
import { ForbiddenError } from "~/services/core/errors";
import {
  MAX_SAVED_TEMPLATES,
  TEMPLATE_BODY_MAX_BYTES,
} from "~/services/newsletter/newsletter-templates.schema";
import {
  deleteTemplate,
  listSavedTemplates,
  renameTemplate,
  saveTemplate,
  TemplateLimitError,
  TemplateNameTakenError,
  type SavedTemplate,
} from "~/services/newsletter/newsletter-templates.server";
import { ProjectNotFoundError } from "~/services/permissions/permissions.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { locationOf, toastOf } from "../setup/matchers";
import { addMember, asUser, type TestUser } from "./studio-fixtures";

let owner: TestUser;
let ownerCookie: string;
let editor: TestUser;
let editorCookie: string;
let stranger: TestUser;
let strangerCookie: string;

beforeAll(async () => {
  owner = await createUser({ name: "Tess Templates" });
  ownerCookie = await sessionCookie(owner.id);
  editor = await createUser({ name: "Eddie Editor" });
  editorCookie = await sessionCookie(editor.id);
  stranger = await createUser({ name: "Stan Stranger" });
  strangerCookie = await sessionCookie(stranger.id);
});

async function project() {
  const p = await insertProject(owner.id);
  await addMember(p.id, editor, "editor");
  return p;
}

const WEEKLY = { name: "Weekly issue", subject: "This week at the bakery", body: "<p>Hello</p>" };

function templateEvents(projectId: string) {
  return db()
    .select({ type: eventLogs.type, content: eventLogs.content })
    .from(eventLogs)
    .where(and(eq(eventLogs.projectId, projectId), like(eventLogs.type, "newsletter.template.%")));
}

describe("saved templates: the service", () => {
  it("saves templates and lists them by name, whatever their case", async () => {
    const p = await project();
    await saveTemplate(asUser(owner), p.studioId, { ...WEEKLY, name: "weekly issue" });
    await saveTemplate(asUser(owner), p.studioId, { ...WEEKLY, name: "Autumn offer" });
    await saveTemplate(asUser(owner), p.studioId, { ...WEEKLY, name: "Monthly digest" });
    const listed = await listSavedTemplates(p.id);
    expect(listed.map((t) => t.name)).toEqual(["Autumn offer", "Monthly digest", "weekly issue"]);
    expect(listed[0]).toMatchObject({ subject: WEEKLY.subject, body: WEEKLY.body });
    expect(Date.parse(listed[0].createdAt)).not.toBeNaN();
  });

  it("refuses a second template of the same name in any case, but allows it in another project", async () => {
    const p = await project();
    const other = await project();
    await saveTemplate(asUser(owner), p.studioId, WEEKLY);
    await expect(
      saveTemplate(asUser(owner), p.studioId, { ...WEEKLY, name: "WEEKLY ISSUE" }),
    ).rejects.toBeInstanceOf(TemplateNameTakenError);
    await expect(saveTemplate(asUser(owner), other.studioId, WEEKLY)).resolves.toMatchObject({
      name: WEEKLY.name,
    });
    expect(await listSavedTemplates(p.id)).toHaveLength(1);
  });

  it(`keeps at most ${MAX_SAVED_TEMPLATES} per project, also when saves race for the last place`, async () => {
    const p = await project();
    await db()
      .insert(newsletterSavedTemplates)
      .values(
        Array.from({ length: MAX_SAVED_TEMPLATES - 1 }, (_, i) => ({
          projectId: p.id,
          name: `Template ${i}`,
          body: "x",
        })),
      );
    const results = await Promise.allSettled(
      ["Last A", "Last B", "Last C"].map((name) =>
        saveTemplate(asUser(owner), p.studioId, { ...WEEKLY, name }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(TemplateLimitError);
    }
    expect(await listSavedTemplates(p.id)).toHaveLength(MAX_SAVED_TEMPLATES);
  });

  it("renames (a taken name refused, the same name no change) and deletes, each in the Activity Log", async () => {
    const p = await project();
    const weekly = await saveTemplate(asUser(owner), p.studioId, WEEKLY);
    await saveTemplate(asUser(owner), p.studioId, { ...WEEKLY, name: "Monthly digest" });
    await expect(
      renameTemplate(asUser(owner), weekly.id, "monthly DIGEST", p.studioId),
    ).rejects.toBeInstanceOf(TemplateNameTakenError);
    const same = await renameTemplate(asUser(owner), weekly.id, WEEKLY.name, p.studioId);
    expect(same.updatedAt).toBe(weekly.updatedAt);
    const renamed = await renameTemplate(asUser(owner), weekly.id, "Friday letter", p.studioId);
    expect(renamed).toMatchObject({ id: weekly.id, name: "Friday letter", body: WEEKLY.body });
    expect(await deleteTemplate(asUser(owner), weekly.id, p.studioId)).toEqual({
      name: "Friday letter",
    });
    expect((await listSavedTemplates(p.id)).map((t) => t.name)).toEqual(["Monthly digest"]);
    expect((await templateEvents(p.id)).map((e) => e.content).sort()).toEqual(
      [
        "Tess Templates deleted the newsletter template Friday letter",
        "Tess Templates renamed the newsletter template Weekly issue to Friday letter",
        "Tess Templates saved the newsletter template Monthly digest",
        "Tess Templates saved the newsletter template Weekly issue",
      ].sort(),
    );
  });

  it("lets editors read but not change; hides another project's template; goes with its project", async () => {
    const p = await project();
    const other = await project();
    const weekly = await saveTemplate(asUser(owner), p.studioId, WEEKLY);
    await expect(
      saveTemplate(asUser(editor), p.studioId, { ...WEEKLY, name: "Mine" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deleteTemplate(asUser(editor), weekly.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deleteTemplate(asUser(stranger), weekly.id)).rejects.toBeInstanceOf(
      ProjectNotFoundError,
    );
    // Through another project's page: not found there, and still there.
    await expect(renameTemplate(asUser(owner), weekly.id, "Moved", other.studioId)).rejects.toThrow(
      "Template not found",
    );
    await expect(deleteTemplate(asUser(owner), "not-a-uuid")).rejects.toThrow("Template not found");
    await db().delete(projects).where(eq(projects.id, p.id));
    expect(await listSavedTemplates(p.id)).toEqual([]);
  });
});

const page = (studioId: string) => `/sites/newsletter/${studioId}`;
const post = (studioId: string, form: Record<string, string>, cookie = ownerCookie) =>
  call(pageAction, makeRequest(page(studioId), { cookie, form }), { studioId });

describe("saved templates: the newsletter page", () => {
  it("shows the templates and saves, renames and deletes through its forms", async () => {
    const p = await project();
    const saved = await post(p.studioId, { intent: "template-save", ...WEEKLY });
    expect(saved.status).toBe(302);
    expect(locationOf(saved)).toBe(page(p.studioId));
    expect(await toastOf(saved)).toMatchObject({ type: "success", title: "Template saved" });

    const loaded = await call(pageLoader, makeRequest(page(p.studioId), { cookie: ownerCookie }), {
      studioId: p.studioId,
    });
    const { templates } = (await loaded.json()) as {
      templates: { templates: SavedTemplate[]; canEdit: boolean };
    };
    expect(templates.canEdit).toBe(true);
    expect(templates.templates.map((t) => t.name)).toEqual([WEEKLY.name]);
    const id = templates.templates[0].id;

    const renamed = await post(p.studioId, {
      intent: "template-rename",
      templateId: id,
      name: "Friday letter",
    });
    expect(await toastOf(renamed)).toMatchObject({ title: "Template renamed" });
    const deleted = await post(p.studioId, { intent: "template-delete", templateId: id });
    expect(await toastOf(deleted)).toMatchObject({ title: "Template deleted" });
    expect(await listSavedTemplates(p.id)).toEqual([]);
  });

  it("answers bad input and a taken name beside the field, the limit as the form's error", async () => {
    const p = await project();
    const empty = await post(p.studioId, { intent: "template-save", name: "", body: "" });
    expect(empty.status).toBe(400);
    const emptyReply = (await empty.json()) as { result: { error: Record<string, string[]> } };
    expect(emptyReply.result.error.name).toEqual(["Name is required"]);
    expect(emptyReply.result.error.body).toEqual(["Body is required"]);

    const long = await post(p.studioId, {
      intent: "template-save",
      name: "n".repeat(81),
      subject: "s".repeat(201),
      body: "é".repeat(TEMPLATE_BODY_MAX_BYTES / 2 + 1),
    });
    const longReply = (await long.json()) as { result: { error: Record<string, string[]> } };
    expect(longReply.result.error).toMatchObject({
      name: ["Name must be at most 80 characters"],
      subject: ["Subject must be at most 200 characters"],
      body: ["Body must be at most 100 KB"],
    });

    await post(p.studioId, { intent: "template-save", ...WEEKLY });
    const taken = await post(p.studioId, {
      intent: "template-save",
      ...WEEKLY,
      name: "weekly issue",
    });
    expect(taken.status).toBe(409);
    const takenReply = (await taken.json()) as {
      form: string;
      result: { error: Record<string, string[]> };
    };
    expect(takenReply.form).toBe("template-save");
    expect(takenReply.result.error.name).toEqual(["A template with this name already exists"]);

    await db()
      .insert(newsletterSavedTemplates)
      .values(
        Array.from({ length: MAX_SAVED_TEMPLATES - 1 }, (_, i) => ({
          projectId: p.id,
          name: `Filler ${i}`,
          body: "x",
        })),
      );
    const full = await post(p.studioId, { intent: "template-save", ...WEEKLY, name: "One more" });
    expect(full.status).toBe(409);
    const fullReply = (await full.json()) as { result: { error: Record<string, string[]> } };
    expect(fullReply.result.error[""]).toEqual([
      "A project can keep at most 50 templates. Delete one to save another.",
    ]);
    expect(await listSavedTemplates(p.id)).toHaveLength(MAX_SAVED_TEMPLATES);
  });

  it("refuses an editor's change, and a stale delete says so in a toast", async () => {
    const p = await project();
    const refused = await post(p.studioId, { intent: "template-save", ...WEEKLY }, editorCookie);
    expect(refused.status).toBe(403);
    const stale = await post(p.studioId, {
      intent: "template-delete",
      templateId: "00000000-0000-4000-8000-000000000000",
    });
    expect(await toastOf(stale)).toMatchObject({
      type: "error",
      title: "Error deleting template",
      description: "Template not found",
    });
  });
});

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content: Record<string, { schema: object }> }> }>
  >;
};
let doc: Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });

/** Checks the answer against the OpenAPI document's schema for its path, method and status. */
async function documented(docPath: string, method: string, res: Response, status: number) {
  expect(res.status, `${method} ${docPath}`).toBe(status);
  doc ??= (await (await call(documentLoader, makeRequest("/api/openapi.json"))).json()) as Doc;
  const response = doc.paths[docPath]?.[method]?.responses[String(status)];
  expect(response, `${method} ${docPath} documents ${status}`).toBeDefined();
  const body: unknown = await res.json();
  const validate = ajv.compile(response.content["application/json"].schema);
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  return body;
}

const TEMPLATES = "/api/app/newsletter/templates";
const ONE = "/api/app/newsletter/templates/{templateId}";

const getSettings = (studioId: string | null, cookie: string | undefined) =>
  call(
    newsletterLoader,
    makeRequest(`/api/app/newsletter${studioId === null ? "" : `?studioId=${studioId}`}`, {
      cookie,
    }),
  );
const create = (body: unknown, cookie: string | null = ownerCookie) =>
  call(
    templatesAction,
    makeRequest(TEMPLATES, { method: "POST", cookie: cookie ?? undefined, json: body }),
  );
const onTemplate = (
  templateId: string,
  method: "PATCH" | "DELETE",
  body?: unknown,
  cookie = ownerCookie,
) =>
  call(
    templateAction,
    makeRequest(`${TEMPLATES}/${templateId}`, {
      method,
      cookie,
      ...(body === undefined ? {} : { json: body }),
    }),
    { templateId },
  );

describe("saved templates: the JSON API", () => {
  it("answers the Newsletter settings by the specification's names, with savedTemplates", async () => {
    const p = await project();
    await saveTemplate(asUser(owner), p.studioId, WEEKLY);
    const settings = (await documented(
      "/api/app/newsletter",
      "get",
      await getSettings(p.studioId, editorCookie),
      200,
    )) as Record<string, unknown>;
    expect(Object.keys(settings).sort()).toEqual(
      [
        "fromName",
        "fromEmail",
        "replyToEmail",
        "companyName",
        "companyAddress",
        "companyWebsite",
        "footerText",
        "enableUnsubscribeLink",
        "brandColor",
        "logo",
        "socialLinks",
        "savedTemplates",
      ].sort(),
    );
    expect(settings).toMatchObject({
      fromName: "Newsletter",
      enableUnsubscribeLink: true,
      brandColor: "#296EFF",
      logo: null,
      socialLinks: { facebook: "", twitter: "", instagram: "", linkedin: "" },
      savedTemplates: [{ name: WEEKLY.name, subject: WEEKLY.subject, body: WEEKLY.body }],
    });
    await documented("/api/app/newsletter", "get", await getSettings(null, ownerCookie), 400);
    await documented("/api/app/newsletter", "get", await getSettings(p.studioId, undefined), 401);
    await documented(
      "/api/app/newsletter",
      "get",
      await getSettings(p.studioId, strangerCookie),
      404,
    );
  });

  it("saves, renames and deletes a template, with 4xx answers for bad input", async () => {
    const p = await project();
    const made = (await documented(
      TEMPLATES,
      "post",
      await create({ studioId: p.studioId, ...WEEKLY }),
      201,
    )) as SavedTemplate;
    expect(made).toMatchObject(WEEKLY);

    const bad = (await documented(
      TEMPLATES,
      "post",
      await create({ studioId: p.studioId, name: "", body: "x".repeat(10) }),
      400,
    )) as { fieldErrors: Record<string, string[]> };
    expect(bad.fieldErrors.name).toEqual(["Name is required"]);
    await documented(TEMPLATES, "post", await create({ name: "No project", body: "x" }), 400);
    const taken = (await documented(
      TEMPLATES,
      "post",
      await create({ studioId: p.studioId, ...WEEKLY, name: "WEEKLY issue" }),
      409,
    )) as { error: string };
    expect(taken.error).toBe("A template with this name already exists");
    await documented(
      TEMPLATES,
      "post",
      await create({ studioId: p.studioId, ...WEEKLY, name: "Editor's" }, editorCookie),
      403,
    );
    await documented(
      TEMPLATES,
      "post",
      await create({ studioId: p.studioId, ...WEEKLY }, null),
      401,
    );
    await documented(
      TEMPLATES,
      "post",
      await create({ studioId: p.studioId, ...WEEKLY }, strangerCookie),
      404,
    );

    const renamed = (await documented(
      ONE,
      "patch",
      await onTemplate(made.id, "PATCH", { name: "Friday letter" }),
      200,
    )) as SavedTemplate;
    expect(renamed).toMatchObject({ id: made.id, name: "Friday letter" });
    await documented(ONE, "patch", await onTemplate(made.id, "PATCH", { name: "" }), 400);
    await documented(ONE, "patch", await onTemplate("nope", "PATCH", { name: "x" }), 404);
    await documented(
      ONE,
      "patch",
      await onTemplate(made.id, "PATCH", { name: "x" }, strangerCookie),
      404,
    );
    await documented(
      ONE,
      "delete",
      await onTemplate(made.id, "DELETE", undefined, editorCookie),
      403,
    );
    expect(await documented(ONE, "delete", await onTemplate(made.id, "DELETE"), 200)).toEqual({
      ok: true,
    });
    await documented(ONE, "delete", await onTemplate(made.id, "DELETE"), 404);
    expect(await listSavedTemplates(p.id)).toEqual([]);
  });

  it("keeps the AI Newsletter switch on PUT", async () => {
    // AI Newsletter needs StackShift version 3 or higher.
    const p = await insertProject(owner.id, { schemaVersion: 3 });
    const res = await call(
      newsletterAction,
      makeRequest("/api/app/newsletter", {
        method: "PUT",
        cookie: ownerCookie,
        json: { studioId: p.studioId, action: "enable" },
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, enabled: true });
  });
});
