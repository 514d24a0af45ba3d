/**
 * The forms of a project's hosted site and their submissions, for the dashboard: every project
 * has a 'Contact' form (the local published site renders it); members read the submissions
 * (newest first, keyset pages, search, CSV export streamed in batches); the owner, admins and
 * platform admins change a form's settings and delete submissions.
 */
import { and, count, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { formSubmissions, forms, projects, projectSites } from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import { logEvent } from "~/services/activity/index.server";
import { NotFoundError } from "~/services/core";
import { decodeTimeCursor, encodeTimeCursor, likePattern } from "~/services/core/index.server";
import { foldFields } from "./form-intake.server";
import { OTHER_FIELD, SUBMISSIONS_PAGE, type FormSettingsInput } from "./forms.schema";
import {
  confirmationsToMail,
  heldFormMails,
  recipientStates,
  syncNotificationAddresses,
  type HeldMails,
  type NotificationRecipient,
} from "./form-notifications.server";
import { absoluteUrl, dispatchMail } from "~/services/core/index.server";
import { can, projectForAction, withProjectAction } from "~/services/permissions/index.server";

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
  const { actor, project } = await projectForAction(user, studioId, "project.view");
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

/** The form's field names (rows may hold others: stored before the cap, shown in the other field). */
async function fieldNamesOf(formId: string): Promise<Set<string>> {
  const [row] = await db()
    .select({ fieldNames: forms.fieldNames })
    .from(forms)
    .where(eq(forms.id, formId));
  return new Set(row?.fieldNames ?? []);
}

export type SubmissionsView = {
  form: FormSummary;
  rows: SubmissionRow[];
  /**
   * The fields of this page's submissions, in first-seen order, the other field last: the
   * table's columns (at most the form's 100 names and the other field).
   */
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
  const cursor = decodeTimeCursor(options.after);
  const rows = await db()
    .select()
    .from(formSubmissions)
    .where(
      and(
        eq(formSubmissions.formId, form.id),
        q ? sql`${formSubmissions.searchText} like ${likePattern(q.toLowerCase())}` : undefined,
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
  const known = await fieldNamesOf(form.id);
  const page = rows
    .slice(0, SUBMISSIONS_PAGE)
    .map((r) => ({ ...r, data: foldFields(Object.entries(r.data), known) }));
  const fields: string[] = [];
  for (const row of page) {
    for (const key of Object.keys(row.data)) if (!fields.includes(key)) fields.push(key);
  }
  if (fields.includes(OTHER_FIELD)) fields.push(...fields.splice(fields.indexOf(OTHER_FIELD), 1));
  return {
    forms: view,
    form,
    rows: page.map((r) => ({ id: r.id, createdAt: r.createdAt.toISOString(), data: r.data })),
    fields,
    nextCursor:
      rows.length > SUBMISSIONS_PAGE
        ? encodeTimeCursor(page.at(-1)!.createdAt, page.at(-1)!.id)
        : null,
    q,
  };
}

export async function getSubmission(
  user: User,
  studioId: string,
  formId: string,
  submissionId: string,
) {
  const { project } = await projectForAction(user, studioId, "project.view");
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
  const { project } = await projectForAction(user, studioId, "forms.manage", { mode: "check" });
  const form = await formOf(project.id, formId);
  await withProjectAction(user, project.id, "forms.manage", async ({ tx }) => {
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
  const { project } = await projectForAction(user, studioId, "forms.manage", { mode: "check" });
  const form = await formOf(project.id, formId);
  return withProjectAction(user, project.id, "forms.manage", async ({ tx }) => {
    const gone = await tx
      .delete(formSubmissions)
      .where(eq(formSubmissions.formId, form.id))
      .returning({ id: formSubmissions.id });
    // A fresh start: names a stranger filled the list with do not outlive their submissions.
    await tx.update(forms).set({ fieldNames: [] }).where(eq(forms.id, form.id));
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
  const { project } = await projectForAction(user, studioId, "forms.manage", { mode: "check" });
  const form = await formOf(project.id, input.formId);
  const mailIds = await withProjectAction(user, project.id, "forms.manage", async ({ tx }) => {
    // Before the list is written: it compares with the saved one. Past the asker's or the
    // project's limit of confirmation links nothing is saved (RateLimitedError).
    const toMail = await confirmationsToMail(
      tx,
      user,
      project.id,
      form.id,
      input.notificationEmails,
    );
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

/**
 * Rows read from the database per query of an export: few enough that the rows alive while they
 * are formatted keep garbage collection pauses short (500 rows of 100 fields took scavenges past
 * 100 ms on a loaded machine).
 */
export const EXPORT_BATCH = 100;
/** How long the export formats rows before it lets other requests run. */
const EXPORT_SLICE_MS = 3;

/** Whether a row holds a name outside the list (besides the other field), without allocating. */
function hasUnlisted(data: Record<string, string>, known: ReadonlySet<string>) {
  for (const key in data) if (key !== OTHER_FIELD && !known.has(key)) return true;
  return false;
}

/** Lets every request waiting on the event loop run before the caller goes on. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The form's submissions as CSV, oldest first: read EXPORT_BATCH rows at a time by keyset as the
 * client takes them (memory stays flat however many there are), and formatted a few
 * milliseconds at a time with other requests let through in between (a 100,000-row export of the
 * largest form does not hold the event loop: `npm run bench:forms`). The columns are the form's
 * field names (at most 100, alphabetical) and, when any row has one, the other field.
 */
export async function exportSubmissionsCsv(
  user: User,
  studioId: string,
  formId: string,
): Promise<{ filename: string; stream: ReadableStream<Uint8Array> }> {
  const { project } = await projectForAction(user, studioId, "project.view");
  const form = await formOf(project.id, formId);
  // Rows holding a name outside the list (the other field, or names stored before the cap)
  // need the other column; PostgreSQL answers that from the form's rows, off the event loop.
  const result = await db().execute(
    sql`select ${forms.fieldNames} as names, exists(
          select 1 from ${formSubmissions}
          where ${formSubmissions.formId} = ${forms.id}
            and ${formSubmissions.data} - array(select jsonb_array_elements_text(${forms.fieldNames})) <> '{}'::jsonb
        ) as other
        from ${forms} where ${forms.id} = ${form.id}`,
  );
  const [head] = (result as unknown as { rows: { names: string[]; other: boolean }[] }).rows;
  const fields = [...(head?.names ?? [])].sort();
  const known = new Set(fields);
  const withOther = head?.other ?? false;
  const encoder = new TextEncoder();
  let cursor: { at: Date; id: string } | null = null;
  let headerSent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        const header = ["submitted_at", "id", ...fields, ...(withOther ? [OTHER_FIELD] : [])];
        controller.enqueue(encoder.encode(`${header.map(csvCell).join(",")}\r\n`));
        return;
      }
      const from = cursor;
      const rows = await db()
        .select({
          id: formSubmissions.id,
          createdAt: formSubmissions.createdAt,
          data: formSubmissions.data,
        })
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
      let lines: string[] = [];
      let sliceStart = performance.now();
      for (const r of rows) {
        const data =
          withOther && hasUnlisted(r.data, known)
            ? foldFields(Object.entries(r.data), known)
            : r.data;
        let line = `${csvCell(r.createdAt.toISOString())},${csvCell(r.id)}`;
        for (const f of fields) line += `,${csvCell(data[f] ?? "")}`;
        if (withOther) line += `,${csvCell(data[OTHER_FIELD] ?? "")}`;
        lines.push(line);
        if (performance.now() - sliceStart >= EXPORT_SLICE_MS) {
          controller.enqueue(encoder.encode(`${lines.join("\r\n")}\r\n`));
          lines = [];
          await yieldToOthers();
          sliceStart = performance.now();
        }
      }
      if (lines.length) controller.enqueue(encoder.encode(`${lines.join("\r\n")}\r\n`));
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
