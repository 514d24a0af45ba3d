/**
 * The forms of a project's hosted site and their submissions, for the dashboard: every project
 * has a 'Contact' form (the local published site renders it); members read the submissions
 * (newest first, keyset pages, search, CSV export streamed in batches); the owner, admins and
 * platform admins change a form's settings and delete submissions.
 */
import { and, count, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { formSubmissions, forms, projects, projectSites } from "~/db/schema";
import type { User } from "./accounts.server";
import { logEvent } from "./activity.server";
import { NotFoundError } from "./errors";
import { SUBMISSIONS_PAGE, type FormSettingsInput } from "./forms.schema";
import {
  confirmationsToMail,
  heldFormMails,
  recipientStates,
  syncNotificationAddresses,
  type HeldMails,
  type NotificationRecipient,
} from "./form-notifications.server";
import { absoluteUrl, dispatchMail } from "./mail.server";
import {
  actorOn,
  assertCan,
  authorizeOn,
  can,
  projectRowFor,
  requireProjectAction,
} from "./permissions.server";

export const DEFAULT_FORM_NAME = "Contact";

/** The project's 'Contact' form, made the first time it is needed. */
export async function ensureDefaultForm(projectId: string): Promise<string> {
  await db()
    .insert(forms)
    .values({ projectId, name: DEFAULT_FORM_NAME })
    .onConflictDoNothing({ target: [forms.projectId, forms.name] });
  const [row] = await db()
    .select({ id: forms.id })
    .from(forms)
    .where(and(eq(forms.projectId, projectId), eq(forms.name, DEFAULT_FORM_NAME)));
  return row.id;
}

export type FormSummary = {
  id: string;
  name: string;
  enabled: boolean;
  notificationEmails: string[];
  /** Each notification address and whether it is mailed (members and confirmed addresses). */
  recipients: NotificationRecipient[];
  redirectUrl: string | null;
  submissions: number;
  /** Where the site's form posts. */
  endpoint: string;
};

export type FormsView = {
  projectId: string;
  studioId: string;
  forms: FormSummary[];
  canManage: boolean;
  /** Notification mails the project's daily cap held lately (null: none). */
  heldMails: HeldMails;
};

export async function listForms(user: User, studioId: string): Promise<FormsView> {
  const actor = await requireProjectAction(user, studioId, "project.view");
  const project = (await projectRowFor(user, studioId))!;
  await ensureDefaultForm(project.id);
  const rows = await db()
    .select()
    .from(forms)
    .where(eq(forms.projectId, project.id))
    .orderBy(forms.createdAt);
  const counts = rows.length
    ? await db()
        .select({ formId: formSubmissions.formId, n: count() })
        .from(formSubmissions)
        .where(
          inArray(
            formSubmissions.formId,
            rows.map((r) => r.id),
          ),
        )
        .groupBy(formSubmissions.formId)
    : [];
  const byForm = new Map(counts.map((c) => [c.formId, Number(c.n)]));
  const recipients = await recipientStates(project.id, rows);
  return {
    projectId: project.id,
    studioId: project.studioId,
    canManage: can(actor, "forms.manage"),
    heldMails: await heldFormMails(project.id),
    forms: rows.map((r) => ({
      id: r.id,
      name: r.name,
      enabled: r.enabled,
      notificationEmails: r.notificationEmails,
      recipients: recipients.get(r.id) ?? [],
      redirectUrl: r.redirectUrl,
      submissions: byForm.get(r.id) ?? 0,
      endpoint: absoluteUrl(`/forms/${r.id}`),
    })),
  };
}

async function formOf(projectId: string, formId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(formId)) throw new NotFoundError("Form not found");
  const [row] = await db()
    .select()
    .from(forms)
    .where(and(eq(forms.id, formId), eq(forms.projectId, projectId)));
  if (!row) throw new NotFoundError("Form not found");
  return row;
}

export type SubmissionRow = { id: string; createdAt: string; data: Record<string, string> };

/** Cursor of a row: its time and id, so rows of the same millisecond keep their order. */
const cursorOf = (row: { createdAt: Date; id: string }) =>
  Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");

function parseCursor(cursor: string | undefined) {
  if (!cursor) return null;
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const time = Date.parse(at ?? "");
  if (Number.isNaN(time) || !/^[0-9a-f-]{36}$/i.test(id ?? "")) return null;
  return { at: new Date(time), id };
}

/** `%`, `_` and `\` match themselves in a search. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type SubmissionsView = {
  form: FormSummary;
  rows: SubmissionRow[];
  /** The fields of this page's submissions, in first-seen order: the table's columns. */
  fields: string[];
  nextCursor: string | null;
  q: string;
};

/**
 * The project's forms, and one page of the chosen form's submissions (the first form when none
 * or an unknown one is named), newest first, matching `q` in any field when given.
 */
export async function listSubmissions(
  user: User,
  studioId: string,
  options: { formId?: string; q?: string; after?: string } = {},
): Promise<SubmissionsView & { forms: FormsView }> {
  const view = await listForms(user, studioId);
  const form = view.forms.find((f) => f.id === options.formId) ?? view.forms[0];
  const q = (options.q ?? "").trim().slice(0, 200);
  const cursor = parseCursor(options.after);
  const rows = await db()
    .select()
    .from(formSubmissions)
    .where(
      and(
        eq(formSubmissions.formId, form.id),
        q ? sql`${formSubmissions.searchText} like ${likePattern(q)}` : undefined,
        cursor
          ? or(
              lt(formSubmissions.createdAt, cursor.at),
              and(eq(formSubmissions.createdAt, cursor.at), lt(formSubmissions.id, cursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(formSubmissions.createdAt), desc(formSubmissions.id))
    .limit(SUBMISSIONS_PAGE + 1);
  const page = rows.slice(0, SUBMISSIONS_PAGE);
  const fields: string[] = [];
  for (const row of page) {
    for (const key of Object.keys(row.data)) if (!fields.includes(key)) fields.push(key);
  }
  return {
    forms: view,
    form,
    rows: page.map((r) => ({ id: r.id, createdAt: r.createdAt.toISOString(), data: r.data })),
    fields,
    nextCursor: rows.length > SUBMISSIONS_PAGE ? cursorOf(page.at(-1)!) : null,
    q,
  };
}

export async function getSubmission(
  user: User,
  studioId: string,
  formId: string,
  submissionId: string,
) {
  await requireProjectAction(user, studioId, "project.view");
  const project = (await projectRowFor(user, studioId))!;
  await formOf(project.id, formId);
  if (!/^[0-9a-f-]{36}$/i.test(submissionId)) throw new NotFoundError("Submission not found");
  const [row] = await db()
    .select()
    .from(formSubmissions)
    .where(and(eq(formSubmissions.id, submissionId), eq(formSubmissions.formId, formId)));
  if (!row) throw new NotFoundError("Submission not found");
  return { id: row.id, createdAt: row.createdAt.toISOString(), data: row.data };
}

export async function deleteSubmission(
  user: User,
  studioId: string,
  formId: string,
  submissionId: string,
) {
  const actor = await actorOn(user, studioId);
  assertCan(actor, "forms.manage");
  const project = actor.project!;
  const form = await formOf(project.id, formId);
  await db().transaction(async (tx) => {
    await authorizeOn(user, project, "forms.manage", tx);
    const [gone] = await tx
      .delete(formSubmissions)
      .where(and(eq(formSubmissions.id, submissionId), eq(formSubmissions.formId, form.id)))
      .returning({ id: formSubmissions.id });
    if (!gone) throw new NotFoundError("Submission not found");
    await logEvent(tx, {
      projectId: project.id,
      type: "forms.submission.deleted",
      content: `${user.name || user.email} deleted a submission of the ${form.name} form`,
      actorId: user.id,
    });
  });
}

/** Deletes every submission of the form; returns how many there were. */
export async function deleteAllSubmissions(
  user: User,
  studioId: string,
  formId: string,
): Promise<number> {
  const actor = await actorOn(user, studioId);
  assertCan(actor, "forms.manage");
  const project = actor.project!;
  const form = await formOf(project.id, formId);
  return db().transaction(async (tx) => {
    await authorizeOn(user, project, "forms.manage", tx);
    const gone = await tx
      .delete(formSubmissions)
      .where(eq(formSubmissions.formId, form.id))
      .returning({ id: formSubmissions.id });
    await logEvent(tx, {
      projectId: project.id,
      type: "forms.submissions.deleted",
      content: `${user.name || user.email} deleted all ${gone.length} submissions of the ${form.name} form`,
      actorId: user.id,
    });
    return gone.length;
  });
}

/**
 * Saves a form's settings. A new notification address that is not a member's is mailed a link
 * to confirm it first (form-notifications.server.ts); a removed one loses its confirmation.
 */
export async function saveFormSettings(user: User, studioId: string, input: FormSettingsInput) {
  const actor = await actorOn(user, studioId);
  assertCan(actor, "forms.manage");
  const project = actor.project!;
  const form = await formOf(project.id, input.formId);
  const toMail = await confirmationsToMail(project.id, form.id, input.notificationEmails);
  const mailIds = await db().transaction(async (tx) => {
    await authorizeOn(user, project, "forms.manage", tx);
    await tx
      .update(forms)
      .set({
        enabled: input.enabled,
        notificationEmails: input.notificationEmails,
        redirectUrl: input.redirectUrl,
        updatedAt: new Date(),
      })
      .where(eq(forms.id, form.id));
    const mailIds = await syncNotificationAddresses(tx, form.id, input.notificationEmails, toMail);
    await logEvent(tx, {
      projectId: project.id,
      type: "forms.settings.saved",
      content: `${user.name || user.email} saved the settings of the ${form.name} form`,
      actorId: user.id,
    });
    return mailIds;
  });
  await dispatchMail(mailIds);
}

/**
 * A CSV cell, always quoted: a spreadsheet whose list separator is `;` (or a tab) would split an
 * unquoted `x;=1+1` and run its second half. A value that opens with = + - @, a tab or a carriage
 * return, after any spaces, is defused with a leading apostrophe so spreadsheets show it as text.
 */
export function csvCell(value: string): string {
  const safe = /^\s*[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

const EXPORT_BATCH = 1000;

/**
 * The form's submissions as CSV, oldest first, read 1000 rows at a time as the client takes
 * them, so memory stays flat however many there are. The columns are every field any
 * submission has (asked of the database first).
 */
export async function exportSubmissionsCsv(
  user: User,
  studioId: string,
  formId: string,
): Promise<{ filename: string; stream: ReadableStream<Uint8Array> }> {
  await requireProjectAction(user, studioId, "project.view");
  const project = (await projectRowFor(user, studioId))!;
  const form = await formOf(project.id, formId);
  const keys = await db().execute(
    sql`select distinct jsonb_object_keys(${formSubmissions.data}) as key from ${formSubmissions} where ${formSubmissions.formId} = ${form.id} order by 1`,
  );
  const fields = (keys as unknown as { rows: { key: string }[] }).rows.map((r) => r.key);
  const encoder = new TextEncoder();
  let cursor: { at: Date; id: string } | null = null;
  let headerSent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(
          encoder.encode(`${["submitted_at", "id", ...fields].map(csvCell).join(",")}\r\n`),
        );
        return;
      }
      const from = cursor;
      const rows = await db()
        .select()
        .from(formSubmissions)
        .where(
          and(
            eq(formSubmissions.formId, form.id),
            from
              ? or(
                  sql`${formSubmissions.createdAt} > ${from.at}`,
                  and(
                    eq(formSubmissions.createdAt, from.at),
                    sql`${formSubmissions.id} > ${from.id}`,
                  ),
                )
              : undefined,
          ),
        )
        .orderBy(formSubmissions.createdAt, formSubmissions.id)
        .limit(EXPORT_BATCH);
      if (rows.length === 0) {
        controller.close();
        return;
      }
      const last = rows.at(-1)!;
      cursor = { at: last.createdAt, id: last.id };
      const text = rows
        .map((r) =>
          [r.createdAt.toISOString(), r.id, ...fields.map((f) => r.data[f] ?? "")]
            .map(csvCell)
            .join(","),
        )
        .join("\r\n");
      controller.enqueue(encoder.encode(`${text}\r\n`));
    },
  });
  const slug = form.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return { filename: `${project.studioId}-${slug}-submissions.csv`, stream };
}

/** The 'Contact' form of the project a hosted site belongs to (null for an unknown site). */
export async function contactFormOfSite(siteId: string): Promise<string | null> {
  const [row] = await db()
    .select({ projectId: projectSites.projectId })
    .from(projectSites)
    .where(eq(projectSites.siteId, siteId.slice(0, 200)))
    .limit(1);
  return row ? ensureDefaultForm(row.projectId) : null;
}

/** The studioId of a form's project ("" when the form is unknown: then a 404). */
export async function studioIdOfForm(formId: string): Promise<string> {
  if (!/^[0-9a-f-]{36}$/i.test(formId)) return "";
  const [row] = await db()
    .select({ studioId: projects.studioId })
    .from(forms)
    .innerJoin(projects, eq(projects.id, forms.projectId))
    .where(eq(forms.id, formId));
  return row?.studioId ?? "";
}
