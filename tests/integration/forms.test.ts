/**
 * Forms: the public endpoint a hosted site posts to (plain HTML posts and fetch, CORS only from
 * the project's own sites, 64 KB, the honeypot, 30 a minute per form and address while another
 * address is unaffected, notification mails), the local site's Contact form, and the Forms page
 * (counts, newest first, keyset pages, search, one submission, delete one and all, settings, CSV
 * export streamed); a form's 100 field names and the other field, its export in batches; who may;
 * the JSON API.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import {
  formMailDays,
  formNotificationAddresses,
  formSubmissions,
  forms,
  localDeploys,
  localSites,
  outbox,
  projectSites,
} from "~/db/schema";
import {
  action as pageAction,
  loader as pageLoader,
} from "~/routes/_app._project.sites.forms.$studioId";
import { loader as formApi } from "~/routes/api.app.forms.$id";
import { action as settingsApi } from "~/routes/api.app.forms.settings";
import { action as deleteAllApi } from "~/routes/api.app.forms.submissions.deleteAll.$id";
import { action as deleteApi } from "~/routes/api.app.forms.submissions.delete.$id";
import { action as submitAction } from "~/routes/forms.$formId";
import {
  action as confirmAction,
  loader as confirmLoader,
} from "~/routes/form-notifications.$token";
import { FORM_MAIL_DAILY_CAP } from "~/services/forms/form-notifications.server";
import { POLICIES } from "~/services/core/rate-limit.server";
import { loader as localSiteLoader } from "~/routes/local.sites.$siteId";
import { loader as exportLoader } from "~/routes/resources.forms-export.$formId";
import {
  EXPORT_BATCH,
  ensureDefaultForm,
  type SubmissionsView,
} from "~/services/forms/forms.server";
import { MAX_FIELD_NAMES, OTHER_FIELD } from "~/services/forms/forms.schema";
import type { FormsView } from "~/services/forms/forms.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { locationOf, toastOf } from "../setup/matchers";
import { addMember } from "./studio-fixtures";

type TestUser = Awaited<ReturnType<typeof createUser>>;
let owner: TestUser;
let ownerCookie: string;

beforeAll(async () => {
  owner = await createUser({ name: "Fiona Forms" });
  ownerCookie = await sessionCookie(owner.id);
});

const SITE = "https://corner-bakery.netlify.app";

async function projectWithForm() {
  const project = await insertProject(owner.id, {
    siteUrl: SITE,
    siteCustomDomain: "corner-bakery.example",
  });
  const formId = await ensureDefaultForm(project.id);
  return { project, formId };
}

let ip = 0;
/** A post from the site: a plain HTML form unless `json`. */
function submit(
  formId: string,
  fields: Record<string, string>,
  options: { origin?: string | null; json?: boolean; clientIp?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.origin !== null) headers.Origin = options.origin ?? SITE;
  if (options.json) headers.Accept = "application/json";
  const request = options.json
    ? makeRequest(`/forms/${formId}`, { json: fields, headers })
    : makeRequest(`/forms/${formId}`, { form: fields, headers });
  ip += 1;
  return call(
    submitAction,
    request,
    { formId },
    { clientIp: options.clientIp ?? `203.0.113.${ip % 250}` },
  );
}

const page = (studioId: string, query = "") => `/sites/forms/${studioId}${query}`;
async function load(studioId: string, query = "", cookie = ownerCookie) {
  const res = await call(pageLoader, makeRequest(page(studioId, query), { cookie }), { studioId });
  expect(res.status).toBe(200);
  return (await res.json()) as { forms: FormsView; submissions: SubmissionsView; opened: unknown };
}

const CONTACT = { name: "Ada", email: "ada@example.com", message: "Do you bake rye?" };

describe("the public form endpoint", () => {
  it("stores a plain HTML post and sends the visitor on with a 303", async () => {
    const { project, formId } = await projectWithForm();
    const res = await submit(formId, { ...CONTACT, _next: `${SITE}/contact?sent=1` });
    expect(res.status).toBe(303);
    expect(locationOf(res)).toBe(`${SITE}/contact?sent=1`);
    expect(res.headers.get("access-control-allow-origin")).toBe(SITE);
    const { submissions, forms } = await load(project.studioId);
    expect(forms.forms[0]).toMatchObject({ name: "Contact", submissions: 1 });
    expect(submissions.rows[0].data).toEqual(CONTACT);
    // A `_next` on another site is ignored: no open redirect.
    const elsewhere = await submit(formId, { ...CONTACT, _next: "https://evil.example/" });
    expect(locationOf(elsewhere)).toBe(`/forms/${formId}/thanks`);
  });

  it("a `_next` holding CR and LF redirects to the parsed address, not a 500 after storing", async () => {
    const { project, formId } = await projectWithForm();
    const res = await submit(formId, { ...CONTACT, _next: `${SITE}/\r\nx` });
    expect(res.status).toBe(303);
    expect(locationOf(res)).toBe(`${SITE}/x`);
    expect((await load(project.studioId)).forms.forms[0].submissions).toBe(1);
  });

  it("a JSON body that is not an object is a 400 and stores nothing", async () => {
    const { project, formId } = await projectWithForm();
    for (const body of ["null", "[]", "5", '"text"']) {
      const request = new Request(`http://localhost:3000/forms/${formId}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: SITE },
        body,
      });
      const res = await call(submitAction, request, { formId }, { clientIp: "203.0.113.251" });
      expect(res.status, body).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Request body must be a JSON object" });
    }
    expect((await load(project.studioId)).forms.forms[0].submissions).toBe(0);
  });

  it("answers fetch with JSON, and the custom domain may post too", async () => {
    const { formId } = await projectWithForm();
    const res = await submit(formId, CONTACT, {
      json: true,
      origin: "https://corner-bakery.example",
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ ok: true, id: expect.any(String) });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://corner-bakery.example");
  });

  it("refuses other origins (and their preflight), without storing anything", async () => {
    const { formId } = await projectWithForm();
    const res = await submit(formId, CONTACT, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await call(
      submitAction,
      makeRequest(`/forms/${formId}`, {
        method: "OPTIONS",
        headers: { Origin: "https://evil.example" },
      }),
      { formId },
    );
    expect(preflight.status).toBe(403);
    const ok = await call(
      submitAction,
      makeRequest(`/forms/${formId}`, { method: "OPTIONS", headers: { Origin: SITE } }),
      { formId },
    );
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-methods")).toContain("POST");
    const rows = await db()
      .select()
      .from(formSubmissions)
      .where(eq(formSubmissions.formId, formId));
    expect(rows).toHaveLength(0);
  });

  it("refuses bodies over 64 KB with 413", async () => {
    const { formId } = await projectWithForm();
    const res = await submit(formId, { ...CONTACT, message: "x".repeat(70 * 1024) });
    expect(res.status).toBe(413);
    expect(
      await db().select().from(formSubmissions).where(eq(formSubmissions.formId, formId)),
    ).toHaveLength(0);
  });

  it("thanks a robot that fills the honeypot and stores nothing", async () => {
    const { formId } = await projectWithForm();
    const res = await submit(
      formId,
      { ...CONTACT, _gotcha: "http://spam.example" },
      { json: true },
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ok: true, id: null });
    expect(
      await db().select().from(formSubmissions).where(eq(formSubmissions.formId, formId)),
    ).toHaveLength(0);
  });

  it("limits one address to 30 a minute per form; an office's other address is unaffected", async () => {
    const { formId } = await projectWithForm();
    for (let i = 0; i < 30; i += 1) {
      const res = await submit(
        formId,
        { ...CONTACT, message: `n${i}` },
        { json: true, clientIp: "198.51.100.7" },
      );
      expect(res.status).toBe(201);
    }
    const refused = await submit(formId, CONTACT, { json: true, clientIp: "198.51.100.7" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const neighbour = await submit(formId, CONTACT, { json: true, clientIp: "198.51.100.8" });
    expect(neighbour.status).toBe(201);
  });

  it("refuses a switched-off form, an empty one, and unknown forms", async () => {
    const { project, formId } = await projectWithForm();
    expect((await submit(formId, { name: "", message: " " }, { json: true })).status).toBe(400);
    await call(
      pageAction,
      makeRequest(page(project.studioId), {
        cookie: ownerCookie,
        form: { intent: "form-settings", formId, notificationEmails: "" },
      }),
      { studioId: project.studioId },
    );
    const off = await submit(formId, CONTACT, { json: true });
    expect(off.status).toBe(403);
    expect(await off.json()).toMatchObject({ error: "This form is not accepting submissions." });
    expect((await submit("00000000-0000-4000-8000-000000000000", CONTACT)).status).toBe(404);
  });

  it("mails members' notification addresses about a new submission at once", async () => {
    const { project, formId } = await projectWithForm();
    const colleague = await createUser();
    await addMember(project.id, colleague, "editor");
    const saved = await saveAddresses(
      project.studioId,
      formId,
      `${colleague.email}, ${owner.email}`,
    );
    expect(await toastOf(saved)).toMatchObject({ title: "Form settings saved" });
    // Members prove their address by their account: no confirmation mail.
    expect(await mailsTo(colleague.email)).toHaveLength(0);
    await submit(formId, CONTACT, { json: true });
    const [mail] = await mailsTo(colleague.email);
    expect(mail.subject).toBe(`New Contact form submission on ${project.name}`);
    expect(mail.text).toContain("message: Do you bake rye?");
    const ownersMails = await mailsTo(owner.email);
    expect(ownersMails.filter((m) => m.subject.endsWith(` on ${project.name}`))).toHaveLength(1);
    const { forms } = await load(project.studioId);
    expect(forms.forms[0].recipients).toEqual([
      { email: colleague.email, state: "member", mailedAt: null },
      { email: owner.email, state: "member", mailedAt: null },
    ]);
  });
});

/** Saves the Contact form's notification addresses through the page's action. */
function saveAddresses(studioId: string, formId: string, addresses: string, cookie = ownerCookie) {
  return call(
    pageAction,
    makeRequest(page(studioId), {
      cookie,
      form: { intent: "form-settings", formId, enabled: "on", notificationEmails: addresses },
    }),
    { studioId },
  );
}

const mailsTo = (to: string) =>
  db().select().from(outbox).where(eq(outbox.to, to)).orderBy(outbox.createdAt);

const submissionMailsTo = async (to: string) =>
  (await mailsTo(to)).filter((m) => m.subject.startsWith("New Contact form submission"));

/** The token of the newest confirmation link mailed to `to`. */
async function confirmationToken(to: string) {
  const mail = (await mailsTo(to)).filter((m) => m.text.includes("/form-notifications/")).at(-1);
  expect(mail, `a confirmation link mailed to ${to}`).toBeTruthy();
  return /\/form-notifications\/([\w-]+)/.exec(mail!.text)![1];
}

const openLink = (token: string, method: "GET" | "HEAD" = "GET", cookie?: string) =>
  call(confirmLoader, makeRequest(`/form-notifications/${token}`, { method, cookie }), { token });
const confirmLink = (token: string) =>
  call(confirmAction, makeRequest(`/form-notifications/${token}`, { form: {} }), { token });

describe("notification addresses that are not members", () => {
  it("get nothing until they confirm the mailed link; then the next submission is mailed", async () => {
    const { project, formId } = await projectWithForm();
    const to = `alerts-${Date.now()}@example.com`;
    await saveAddresses(project.studioId, formId, to);
    // A fixed text: nothing the project's admin typed is mailed to the unproved address.
    const [ask] = await mailsTo(to);
    expect(ask.subject).toBe("Confirm that you want StackShift form notifications");
    expect(ask.text).not.toContain(project.name);
    expect(ask.text).not.toContain("Contact");
    expect((await load(project.studioId)).forms.forms[0].recipients).toEqual([
      { email: to, state: "waiting", mailedAt: expect.any(String) },
    ]);

    expect((await submit(formId, CONTACT, { json: true })).status).toBe(201);
    expect(await submissionMailsTo(to)).toHaveLength(0);

    const token = await confirmationToken(to);
    const shown = await openLink(token);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({
      pending: { email: to, formName: "Contact", projectName: project.name },
    });
    expect((await confirmLink(token)).status).toBe(200);
    expect((await load(project.studioId)).forms.forms[0].recipients[0].state).toBe("confirmed");
    // The submission that came while it waited is not mailed afterwards; the next one is.
    expect(await submissionMailsTo(to)).toHaveLength(0);
    await submit(formId, { ...CONTACT, message: "After confirming" }, { json: true });
    const mails = await submissionMailsTo(to);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain("message: After confirming");
    // The link works once.
    expect((await confirmLink(token)).status).toBe(400);
    expect((await openLink(token)).status).toBe(400);
  });

  it("opening the link with GET or HEAD confirms nothing", async () => {
    const { project, formId } = await projectWithForm();
    const to = `scanned-${Date.now()}@example.com`;
    await saveAddresses(project.studioId, formId, to);
    const token = await confirmationToken(to);
    const stranger = await sessionCookie((await createUser()).id);
    for (const cookie of [undefined, ownerCookie, stranger]) {
      for (const method of ["GET", "HEAD"] as const) {
        expect((await openLink(token, method, cookie)).status).toBe(200);
      }
    }
    const [row] = await db()
      .select()
      .from(formNotificationAddresses)
      .where(eq(formNotificationAddresses.email, to));
    expect(row.confirmedAt).toBeNull();
    await submit(formId, CONTACT, { json: true });
    expect(await submissionMailsTo(to)).toHaveLength(0);
  });

  it("removed and added again must confirm again; the old link stops working", async () => {
    const { project, formId } = await projectWithForm();
    const to = `readded-${Date.now()}@example.com`;
    await saveAddresses(project.studioId, formId, to);
    const first = await confirmationToken(to);
    await saveAddresses(project.studioId, formId, "");
    expect((await openLink(first)).status).toBe(400);
    expect((await confirmLink(first)).status).toBe(400);
    await saveAddresses(project.studioId, formId, to);
    const second = await confirmationToken(to);
    expect(second).not.toBe(first);
    await submit(formId, CONTACT, { json: true });
    expect(await submissionMailsTo(to)).toHaveLength(0);
    // Confirmed, removed, added again: waiting again.
    await confirmLink(second);
    await saveAddresses(project.studioId, formId, "");
    await saveAddresses(project.studioId, formId, to);
    expect((await load(project.studioId)).forms.forms[0].recipients[0].state).toBe("waiting");
    await submit(formId, CONTACT, { json: true });
    expect(await submissionMailsTo(to)).toHaveLength(0);
  });

  it("Resend mails a new link (the old one stops working), limited per address beside it", async () => {
    const { project, formId } = await projectWithForm();
    const to = `resend-${Date.now()}@example.com`;
    await saveAddresses(project.studioId, formId, to);
    const first = await confirmationToken(to);
    const resend = () =>
      call(
        pageAction,
        makeRequest(page(project.studioId), {
          cookie: ownerCookie,
          form: { intent: "notification-resend", formId, email: to },
        }),
        { studioId: project.studioId },
      );
    expect(await toastOf(await resend())).toMatchObject({ title: "Confirmation link sent" });
    expect((await openLink(first)).status).toBe(400);
    const second = await confirmationToken(to);
    expect((await openLink(second)).status).toBe(200);
    // The save's mail and this one counted; the rest of the day's allowance, then a refusal.
    const allowance = POLICIES.formNotificationConfirmMails.points;
    for (let i = 2; i < allowance; i += 1) expect((await resend()).status).toBe(302);
    const refused = await resend();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await refused.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error[`resend:${to}`]?.[0]).toMatch(
      /^Too many confirmation mails to .+ Please wait \d+ hours and try again\.$/,
    );
    expect((await mailsTo(to)).length).toBe(allowance);
    // An editor may not resend.
    const editor = await createUser();
    await addMember(project.id, editor, "editor");
    const byEditor = await call(
      pageAction,
      makeRequest(page(project.studioId), {
        cookie: await sessionCookie(editor.id),
        form: { intent: "notification-resend", formId, email: to },
      }),
      { studioId: project.studioId },
    );
    expect(await toastOf(byEditor)).toMatchObject({ type: "error" });
  });

  it("an address past its limit of confirmation mails is saved and waits, not mailed", async () => {
    const { project, formId } = await projectWithForm();
    const to = `limited-${Date.now()}@example.com`;
    // Other projects asked this address to confirm all day.
    for (let i = 0; i < POLICIES.formNotificationConfirmMails.points; i += 1) {
      const other = await projectWithForm();
      await saveAddresses(other.project.studioId, other.formId, to);
    }
    const before = (await mailsTo(to)).length;
    const saved = await saveAddresses(project.studioId, formId, to);
    expect(await toastOf(saved)).toMatchObject({ title: "Form settings saved" });
    expect((await mailsTo(to)).length).toBe(before);
    expect((await load(project.studioId)).forms.forms[0].recipients).toEqual([
      { email: to, state: "waiting", mailedAt: null },
    ]);
  });
});

describe("the daily cap of notification mails", () => {
  const today = () => new Date().toISOString().slice(0, 10);

  it("holds the mails past the cap, keeps the submissions, and the Forms page says so", async () => {
    const { project, formId } = await projectWithForm();
    await saveAddresses(project.studioId, formId, owner.email);
    // The day's mails so far: one short of the cap.
    await db()
      .insert(formMailDays)
      .values({ projectId: project.id, day: today(), sent: FORM_MAIL_DAILY_CAP - 1 });
    expect((await load(project.studioId)).forms.heldMails).toBeNull();
    await submit(formId, { ...CONTACT, message: "the last one mailed" }, { json: true });
    for (let i = 0; i < 3; i += 1) {
      const res = await submit(formId, { ...CONTACT, message: `held ${i}` }, { json: true });
      expect(res.status).toBe(201);
    }
    const mails = (await mailsTo(owner.email)).filter((m) =>
      m.text.includes(`/sites/forms/${project.studioId}`),
    );
    expect(mails.map((m) => /message: (.*)/.exec(m.text)?.[1])).toEqual(["the last one mailed"]);
    const view = await load(project.studioId);
    expect(view.forms.forms[0].submissions).toBe(4);
    expect(view.forms.heldMails).toEqual({
      count: 3,
      since: expect.any(String),
      cap: FORM_MAIL_DAILY_CAP,
    });
    expect(Date.now() - Date.parse(view.forms.heldMails!.since)).toBeLessThan(60_000);
  });

  it("never sends past the cap when submissions arrive at once", async () => {
    const { project, formId } = await projectWithForm();
    await saveAddresses(project.studioId, formId, owner.email);
    await db()
      .insert(formMailDays)
      .values({ projectId: project.id, day: today(), sent: FORM_MAIL_DAILY_CAP - 5 });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        submit(formId, { ...CONTACT, message: `burst ${i}` }, { json: true }),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const [day] = await db()
      .select()
      .from(formMailDays)
      .where(and(eq(formMailDays.projectId, project.id), eq(formMailDays.day, today())));
    expect(day).toMatchObject({ sent: FORM_MAIL_DAILY_CAP, held: 7 });
    const mailed = (await mailsTo(owner.email)).filter((m) => m.text.includes("burst"));
    expect(mailed).toHaveLength(5);
    expect((await load(project.studioId)).forms.forms[0].submissions).toBe(12);
  });
});

describe("the local published site's Contact form", () => {
  it("renders a form posting to the project's Contact form, with the honeypot and the way back", async () => {
    const { project, formId } = await projectWithForm();
    const siteId = `site-${Date.now().toString(36)}`;
    const deployId = `dep-${Date.now().toString(36)}`;
    await db()
      .insert(localSites)
      .values({
        id: siteId,
        provider: "netlify",
        name: project.name,
        idempotencyKey: `idem-${siteId}`,
      });
    await db().insert(localDeploys).values({ id: deployId, siteId, state: "ready" });
    await db()
      .update(localSites)
      .set({ publishedDeployId: deployId })
      .where(eq(localSites.id, siteId));
    await db().insert(projectSites).values({ projectId: project.id, provider: "netlify", siteId });
    const res = await call(localSiteLoader, makeRequest(`/local/sites/${siteId}`), { siteId });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<form method="post" action="/forms/${formId}">`);
    expect(html).toContain('name="_gotcha"');
    expect(html).toContain(
      `value="http://localhost:3000/local/sites/${siteId}?submitted=1#contact"`,
    );
    const sent = await call(localSiteLoader, makeRequest(`/local/sites/${siteId}?submitted=1`), {
      siteId,
    });
    expect(await sent.text()).toContain("Thank you! Your message has been sent.");
  });
});

describe("the Forms page", () => {
  async function seed(formId: string, n: number) {
    for (let i = 0; i < n; i += 1) {
      await submit(
        formId,
        { name: `Visitor ${i}`, email: `v${i}@example.com`, message: i % 2 ? "rye" : "sourdough" },
        { json: true },
      );
    }
  }

  it("lists submissions newest first in pages of 25, searches, and opens one", async () => {
    const { project, formId } = await projectWithForm();
    await seed(formId, 30);
    const first = await load(project.studioId);
    expect(first.submissions.rows).toHaveLength(25);
    expect(first.submissions.rows[0].data.name).toBe("Visitor 29");
    expect(first.submissions.fields).toEqual(["name", "email", "message"]);
    const second = await load(
      project.studioId,
      `?form=${formId}&after=${first.submissions.nextCursor}`,
    );
    expect(second.submissions.rows.map((r) => r.data.name)).toEqual([
      "Visitor 4",
      "Visitor 3",
      "Visitor 2",
      "Visitor 1",
      "Visitor 0",
    ]);
    expect(second.submissions.nextCursor).toBeNull();
    const rye = await load(project.studioId, `?form=${formId}&q=RYE`);
    expect(rye.submissions.rows).toHaveLength(15);
    expect(rye.submissions.rows.every((r) => r.data.message === "rye")).toBe(true);
    // A search for the wildcard character matches it literally.
    expect((await load(project.studioId, `?form=${formId}&q=%25`)).submissions.rows).toHaveLength(
      0,
    );
    const opened = await load(
      project.studioId,
      `?form=${formId}&submission=${first.submissions.rows[3].id}`,
    );
    expect(opened.opened).toMatchObject({ data: { name: "Visitor 26" } });
  });

  it("deletes one submission and then all of them, naming the count", async () => {
    const { project, formId } = await projectWithForm();
    await seed(formId, 4);
    const { submissions } = await load(project.studioId);
    const one = await call(
      pageAction,
      makeRequest(page(project.studioId), {
        cookie: ownerCookie,
        form: { intent: "submission-delete", formId, submissionId: submissions.rows[0].id },
      }),
      { studioId: project.studioId },
    );
    expect(await toastOf(one)).toMatchObject({ title: "Submission deleted" });
    const all = await call(
      pageAction,
      makeRequest(page(project.studioId), {
        cookie: ownerCookie,
        form: { intent: "submissions-delete-all", formId },
      }),
      { studioId: project.studioId },
    );
    expect(await toastOf(all)).toMatchObject({
      title: "All submissions deleted",
      description: "3 submissions deleted.",
    });
    expect((await load(project.studioId)).forms.forms[0].submissions).toBe(0);
  });

  it("exports every submission as CSV, fields as columns, spreadsheet formulas defused", async () => {
    const { project, formId } = await projectWithForm();
    await submit(formId, { name: 'Quote, "Q"', email: "q@example.com" }, { json: true });
    await submit(formId, { name: "=HYPERLINK(1)", phone: "123" }, { json: true });
    await submit(formId, { name: "x;=1+1", phone: " \t-2", email: "  @SUM(1)" }, { json: true });
    const res = await call(
      exportLoader,
      makeRequest(`/resources/forms-export/${formId}`, { cookie: ownerCookie }),
      {
        formId,
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toContain(
      `${project.studioId}-contact-submissions.csv`,
    );
    const lines = (await res.text()).trim().split("\r\n");
    // Every cell quoted: a spreadsheet splitting on `;` keeps `x;=1+1` in one text cell.
    expect(lines[0]).toBe('"submitted_at","id","email","name","phone"');
    expect(lines[1]).toMatch(/,"q@example\.com","Quote, ""Q""",""$/);
    expect(lines[2]).toMatch(/,"","'=HYPERLINK\(1\)","123"$/);
    // A formula opener after spaces or a tab is defused too.
    expect(lines[3]).toMatch(/,"' {2}@SUM\(1\)","x;=1\+1","' \t-2"$/);
    const stranger = await createUser();
    const hidden = await call(
      exportLoader,
      makeRequest(`/resources/forms-export/${formId}`, {
        cookie: await sessionCookie(stranger.id),
      }),
      { formId },
    );
    expect(hidden.status).toBe(404);
  });

  it("lets members read but not delete or change settings", async () => {
    const { project, formId } = await projectWithForm();
    await seed(formId, 1);
    const editor = await createUser();
    await addMember(project.id, editor, "editor");
    const editorCookie = await sessionCookie(editor.id);
    const view = await load(project.studioId, "", editorCookie);
    expect(view.forms.canManage).toBe(false);
    expect(view.submissions.rows).toHaveLength(1);
    const res = await call(
      pageAction,
      makeRequest(page(project.studioId), {
        cookie: editorCookie,
        form: { intent: "submissions-delete-all", formId },
      }),
      { studioId: project.studioId },
    );
    expect(await toastOf(res)).toMatchObject({
      type: "error",
      description: "Only admins can change forms or delete submissions",
    });
    expect((await load(project.studioId)).forms.forms[0].submissions).toBe(1);
  });

  it("answers bad settings beside the fields", async () => {
    const { project, formId } = await projectWithForm();
    const res = await call(
      pageAction,
      makeRequest(page(project.studioId), {
        cookie: ownerCookie,
        form: {
          intent: "form-settings",
          formId,
          notificationEmails: "ok@example.com, nope",
          redirectUrl: "ftp://x",
        },
      }),
      { studioId: project.studioId },
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.notificationEmails?.[0]).toMatch(/valid e-mail/);
    expect(body.result.error.redirectUrl?.[0]).toMatch(/http/);
  });
});

describe("the forms JSON API", () => {
  const post = (
    fn: typeof settingsApi,
    path: string,
    json: unknown,
    params: Record<string, string> = {},
  ) => call(fn, makeRequest(path, { cookie: ownerCookie, json }), params);

  it("reads a form, changes its settings, deletes one submission and all", async () => {
    const { formId } = await projectWithForm();
    await submit(formId, CONTACT, { json: true });
    await submit(formId, CONTACT, { json: true });
    const read = await call(
      formApi,
      makeRequest(`/api/app/forms/${formId}`, { cookie: ownerCookie }),
      { id: formId },
    );
    const body = (await read.json()) as {
      form: { submissions: number };
      submissions: { id: string }[];
    };
    expect(body.form.submissions).toBe(2);
    const settings = await post(settingsApi, "/api/app/forms/settings", {
      formId,
      redirectUrl: `${SITE}/thanks`,
    });
    expect(await settings.json()).toMatchObject({
      ok: true,
      form: { redirectUrl: `${SITE}/thanks`, enabled: true },
    });
    const one = await post(
      deleteApi,
      `/api/app/forms/submissions/delete/${body.submissions[0].id}`,
      { formId },
      {
        id: body.submissions[0].id,
      },
    );
    expect(one.status).toBe(200);
    const all = await post(
      deleteAllApi,
      `/api/app/forms/submissions/deleteAll/${formId}`,
      { formId, data: {} },
      { id: formId },
    );
    expect(await all.json()).toEqual({ ok: true, deleted: 1 });
  });

  it("hides forms of other projects", async () => {
    const { formId } = await projectWithForm();
    const stranger = await createUser();
    const cookie = await sessionCookie(stranger.id);
    expect(
      (await call(formApi, makeRequest(`/api/app/forms/${formId}`, { cookie }), { id: formId }))
        .status,
    ).toBe(404);
    const res = await call(
      deleteAllApi,
      makeRequest(`/api/app/forms/submissions/deleteAll/${formId}`, { cookie, json: { formId } }),
      { id: formId },
    );
    expect(res.status).toBe(404);
  });
});

describe("a form's field names and its export", () => {
  const fieldNamesOf = async (formId: string) =>
    (await db().select({ names: forms.fieldNames }).from(forms).where(eq(forms.id, formId)))[0]
      .names;
  const dataOf = async (formId: string) =>
    new Map(
      (
        await db()
          .select({ id: formSubmissions.id, data: formSubmissions.data })
          .from(formSubmissions)
          .where(eq(formSubmissions.formId, formId))
      ).map((r) => [r.id, r.data]),
    );
  const exportOf = (formId: string) =>
    call(exportLoader, makeRequest(`/resources/forms-export/${formId}`, { cookie: ownerCookie }), {
      formId,
    });

  it("keeps 100 of 2,000 posted field names; the other field holds the rest, a line each", async () => {
    const { project, formId } = await projectWithForm();
    const name = (n: number) => `field ${String(n).padStart(4, "0")}`;
    const ids: string[] = [];
    for (let batch = 0; batch < 20; batch += 1) {
      const numbers = Array.from({ length: 100 }, (_, i) => batch * 100 + i + 1);
      const res = await submit(
        formId,
        Object.fromEntries(numbers.map((n) => [name(n), `value ${n}`])),
        { json: true },
      );
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    const first100 = Array.from({ length: MAX_FIELD_NAMES }, (_, i) => name(i + 1));
    expect(await fieldNamesOf(formId)).toEqual(first100);
    const stored = await dataOf(formId);
    expect(stored.get(ids[0])).toEqual(
      Object.fromEntries(first100.map((f, i) => [f, `value ${i + 1}`])),
    );
    // Every later name is a `name: value` line of its submission's other field, in posted order.
    for (let batch = 1; batch < 20; batch += 1) {
      const numbers = Array.from({ length: 100 }, (_, i) => batch * 100 + i + 1);
      expect(stored.get(ids[batch])).toEqual({
        [OTHER_FIELD]: numbers.map((n) => `${name(n)}: value ${n}`).join("\n"),
      });
    }
    // A known name keeps its column after the cap; a value's line breaks are indented.
    const mixed = await submit(
      formId,
      { [name(1)]: "Ada", "Favourite bread": "Rye\r\nand spelt" },
      { json: true },
    );
    const { id } = (await mixed.json()) as { id: string };
    expect((await dataOf(formId)).get(id)).toEqual({
      [name(1)]: "Ada",
      [OTHER_FIELD]: "Favourite bread: Rye\n  and spelt",
    });
    // The Forms page and the export show the 100 names and the other field, no more.
    const { submissions } = await load(project.studioId, `?form=${formId}`);
    expect(submissions.fields).toEqual([...first100, OTHER_FIELD]);
    const header = (await (await exportOf(formId)).text()).split("\r\n")[0];
    expect(header).toBe(
      ["submitted_at", "id", ...first100, OTHER_FIELD].map((c) => `"${c}"`).join(","),
    );
    // Delete all starts the list afresh: a stranger's names do not outlive their submissions.
    await call(
      pageAction,
      makeRequest(page(project.studioId), {
        cookie: ownerCookie,
        form: { intent: "submissions-delete-all", formId },
      }),
      { studioId: project.studioId },
    );
    expect(await fieldNamesOf(formId)).toEqual([]);
  });

  it("submissions arriving together never take a form past 100 names, and lose no field", async () => {
    const { formId } = await projectWithForm();
    const posts = Array.from({ length: 30 }, (_, s) =>
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`s${s} f${i}`, `v${s}.${i}`])),
    );
    const answers = await Promise.all(
      posts.map((fields) => submit(formId, fields, { json: true })),
    );
    expect(answers.map((r) => r.status)).toEqual(posts.map(() => 201));
    const names = await fieldNamesOf(formId);
    expect(names).toHaveLength(MAX_FIELD_NAMES);
    expect(new Set(names).size).toBe(MAX_FIELD_NAMES);
    // Every posted field is stored once: as a column when its name is on the list, else as a line
    // of the other field.
    const columns: string[] = [];
    const lines: string[] = [];
    for (const data of (await dataOf(formId)).values()) {
      for (const [key, value] of Object.entries(data)) {
        if (key === OTHER_FIELD) lines.push(...value.split("\n"));
        else columns.push(`${key}: ${value}`);
      }
    }
    expect(columns.map((c) => c.split(": ")[0]).sort()).toEqual([...names].sort());
    expect([...columns, ...lines].sort()).toEqual(
      posts.flatMap((fields) => Object.entries(fields).map(([k, v]) => `${k}: ${v}`)).sort(),
    );
  });

  it("exports a form of many rows in batches, oldest first, with quoting and the other column", async () => {
    const { formId } = await projectWithForm();
    const rows = 1234;
    await db()
      .update(forms)
      .set({ fieldNames: ["name", "note"] })
      .where(eq(forms.id, formId));
    // Seven rows a second, so rows of one time straddle the batch boundaries; every 100th row
    // has an other field and a name outside the list (stored before the cap existed).
    await db().execute(sql`
      insert into form_submissions (form_id, data, search_text, created_at)
      select ${formId}::uuid,
        case when i % 100 = 0
          then jsonb_build_object('name', 'Visitor ' || i, '_other', 'extra: ' || i, 'legacy', 'old ' || i)
          else jsonb_build_object('name', 'Visitor ' || i, 'note', '=SUM(' || i || '), "q"') end,
        '', timestamptz '2026-01-01T00:00:00Z' + make_interval(secs => i / 7)
      from generate_series(1, ${rows}) i`);
    const res = await exportOf(formId);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const chunks: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(decoder.decode(value, { stream: true }));
    }
    // Streamed: the header alone, then the rows in pieces of at most one database batch, each
    // piece whole lines.
    expect(chunks[0]).toBe('"submitted_at","id","name","note","_other"\r\n');
    expect(chunks.length).toBeGreaterThanOrEqual(1 + Math.ceil(rows / EXPORT_BATCH));
    for (const chunk of chunks) {
      expect(chunk.endsWith("\r\n")).toBe(true);
      expect(chunk.split("\r\n").length - 1).toBeLessThanOrEqual(EXPORT_BATCH);
    }
    const lines = chunks.join("").split("\r\n").slice(1, -1);
    expect(lines).toHaveLength(rows);
    const order = await db()
      .select({ id: formSubmissions.id })
      .from(formSubmissions)
      .where(eq(formSubmissions.formId, formId))
      .orderBy(asc(formSubmissions.createdAt), asc(formSubmissions.id));
    expect(lines.map((l) => l.split('","')[1])).toEqual(order.map((r) => r.id));
    const line = (visitor: number) => lines.find((l) => l.includes(`,"Visitor ${visitor}",`));
    expect(line(1)).toMatch(
      /^"2026-01-01T00:00:00\.000Z","[0-9a-f-]{36}","Visitor 1","'=SUM\(1\), ""q""",""$/,
    );
    // The other column: the row's own other field, then the name outside the list as a line.
    expect(line(100)).toMatch(
      /^"2026-01-01T00:00:14\.000Z",.*,"Visitor 100","","extra: 100\nlegacy: old 100"$/,
    );
  });
});
