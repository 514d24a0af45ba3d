/**
 * The public side of forms: what a hosted site's form posts to /forms/{formId}. Only the
 * project's own site addresses may post from a browser (CORS), a filled honeypot is answered as
 * a success and stored nowhere, each client address may send a form 30 times a minute, a form
 * keeps at most 100 field names (the rest go into each submission's `_other` field), and each
 * accepted submission mails the form's notification addresses that are members of the project or
 * confirmed, through the outbox and mail job, within the project's daily cap (past it the mails
 * are held and the submission is still stored: form-notifications.server.ts).
 */
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { formSubmissions, forms, projects } from "~/db/schema";
import { ForbiddenError, InvalidError, NotFoundError } from "~/services/core";
import { mailedRecipients, reserveFormMails } from "./form-notifications.server";
import { FORM_MESSAGES, HONEYPOT_FIELD, MAX_FIELD_NAMES, OTHER_FIELD } from "./forms.schema";
import { absoluteUrl, dispatchMail, queueMail } from "~/services/core/index.server";
import { consume } from "~/services/core/index.server";
import { emitProjectEvent } from "~/services/events/index.server";
import { siteOrigins } from "~/services/projects/index.server";

const MAX_VALUE = 10_000;

export type IntakeForm = {
  id: string;
  name: string;
  enabled: boolean;
  redirectUrl: string | null;
  notificationEmails: string[];
  /** The form's field names when it was read (the submission checks them again under lock). */
  fieldNames: string[];
  projectId: string;
  projectName: string;
  studioId: string;
  /** The origins the project's site is served from: the only ones CORS allows. */
  origins: string[];
};

/** The form with where its site lives, or NotFound. */
export async function intakeForm(formId: string): Promise<IntakeForm> {
  if (!/^[0-9a-f-]{36}$/i.test(formId)) throw new NotFoundError("Form not found");
  const [row] = await db()
    .select({ form: forms, project: projects })
    .from(forms)
    .innerJoin(projects, eq(projects.id, forms.projectId))
    .where(eq(forms.id, formId));
  if (!row) throw new NotFoundError("Form not found");
  const origins = await siteOrigins(row.project);
  return {
    id: row.form.id,
    name: row.form.name,
    enabled: row.form.enabled,
    redirectUrl: row.form.redirectUrl,
    notificationEmails: row.form.notificationEmails,
    fieldNames: row.form.fieldNames,
    projectId: row.project.id,
    projectName: row.project.name,
    studioId: row.project.studioId,
    origins,
  };
}

/** The Origin a browser sent, when the form allows it; ForbiddenError for any other. */
export function allowedOrigin(form: IntakeForm, origin: string | null): string | null {
  if (!origin) return null;
  if (!form.origins.includes(origin)) throw new ForbiddenError(FORM_MESSAGES.foreignOrigin);
  return origin;
}

/**
 * The text fields of a submission in the order posted (a repeated name keeps its last value): no
 * files, no underscore fields, names up to 100 characters, values up to 10,000. How many is
 * bounded by the 64 KB body; the form's field names by MAX_FIELD_NAMES.
 */
function fieldsOf(entries: [string, unknown][]): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of entries) {
    if (typeof value !== "string" || key.startsWith("_") || key.length > 100) continue;
    out.set(key, value.slice(0, MAX_VALUE));
  }
  return out;
}

/** One line of the other field: `name: value`, the value's line breaks indented by two spaces. */
const otherLine = (name: string, value: string) => `${name}: ${value.replace(/\r\n?|\n/g, "\n  ")}`;

/**
 * A submission's fields as stored or shown: those the form knows by name as they are, every other
 * one as a line of OTHER_FIELD (after any lines it holds already). Also used when reading, for
 * rows stored before the cap or while Delete all emptied the list.
 */
export function foldFields(
  fields: Iterable<[string, string]>,
  known: ReadonlySet<string>,
): Record<string, string> {
  const data: Record<string, string> = {};
  const other: string[] = [];
  for (const [key, value] of fields) {
    if (key === OTHER_FIELD) other.unshift(value);
    else if (known.has(key)) data[key] = value;
    else other.push(otherLine(key, value));
  }
  if (other.length) data[OTHER_FIELD] = other.join("\n");
  return data;
}

/**
 * Stores one submission (or, for a honeypot hit, pretends to). The rate limit counts every
 * attempt from the address; a submission without any filled field is refused.
 */
export async function acceptSubmission(
  form: IntakeForm,
  entries: [string, unknown][],
  clientIp: string,
): Promise<{ id: string | null }> {
  if (!form.enabled) throw new ForbiddenError(FORM_MESSAGES.disabled);
  await consume("formSubmitAddress", `${form.id}|${clientIp}`);
  const honeypot = entries.find(([key]) => key === HONEYPOT_FIELD)?.[1];
  if (typeof honeypot === "string" && honeypot.trim() !== "") return { id: null };
  const fields = fieldsOf(entries);
  if (![...fields.values()].some((v) => v.trim() !== "")) {
    throw new InvalidError("The form is empty", { "": ["The form is empty"] });
  }
  const { id, mailIds } = await db().transaction(async (tx) => {
    let names = form.fieldNames;
    const fresh = [...fields.keys()].filter((k) => !names.includes(k));
    if (fresh.length > 0 && names.length < MAX_FIELD_NAMES) {
      // New names while there is room: the list grows under the form's row lock, so submissions
      // arriving together on any process never take it past the cap. Known names (nearly every
      // submission) and a full list skip the lock.
      const [locked] = await tx
        .select({ fieldNames: forms.fieldNames })
        .from(forms)
        .where(eq(forms.id, form.id))
        .for("update");
      if (!locked) throw new NotFoundError("Form not found");
      names = locked.fieldNames;
      const added = fresh
        .filter((k) => !names.includes(k))
        .slice(0, Math.max(0, MAX_FIELD_NAMES - names.length));
      if (added.length > 0) {
        names = [...names, ...added];
        await tx.update(forms).set({ fieldNames: names }).where(eq(forms.id, form.id));
      }
    }
    const data = foldFields(fields, new Set(names));
    const searchText = Object.values(data).join(" \u0001 ").toLowerCase().slice(0, 20_000);
    const [row] = await tx
      .insert(formSubmissions)
      // Millisecond times, like the cursors the pages and the export compare them with.
      .values({ formId: form.id, data, searchText, createdAt: new Date() })
      .returning({ id: formSubmissions.id });
    const mailIds: string[] = [];
    const to = await mailedRecipients(tx, form.projectId, form.id, form.notificationEmails);
    const within = await reserveFormMails(tx, form.projectId, to.length);
    for (const address of within ? to : []) {
      mailIds.push(
        await queueMail(tx, {
          to: address,
          subject: `New ${form.name} form submission on ${form.projectName}`,
          text: [
            `A visitor sent the ${form.name} form of ${form.projectName}:`,
            "",
            ...Object.entries(data).map(([k, v]) => (k === OTHER_FIELD ? v : `${k}: ${v}`)),
            "",
            `All submissions: ${absoluteUrl(`/sites/forms/${form.studioId}?form=${form.id}`)}`,
          ].join("\n"),
        }),
      );
    }
    await emitProjectEvent(tx, {
      projectId: form.projectId,
      type: "form.submission",
      payload: {
        formId: form.id,
        formName: form.name,
        submissionId: row.id,
        submissionsUrl: absoluteUrl(`/sites/forms/${form.studioId}?form=${form.id}`),
      },
    });
    return { id: row.id, mailIds };
  });
  await dispatchMail(mailIds);
  return { id };
}
