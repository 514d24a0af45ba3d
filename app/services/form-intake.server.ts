/**
 * The public side of forms: what a hosted site's form posts to /forms/{formId}. Only the
 * project's own site addresses may post from a browser (CORS), a filled honeypot is answered as
 * a success and stored nowhere, each client address may send a form 30 times a minute, and each
 * accepted submission mails the form's notification addresses that are members of the project or
 * confirmed, through the outbox and mail job, within the project's daily cap (past it the mails
 * are held and the submission is still stored: form-notifications.server.ts).
 */
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { formSubmissions, forms, projects } from "~/db/schema";
import { ForbiddenError, InvalidError, NotFoundError } from "./errors";
import { mailedRecipients, reserveFormMails } from "./form-notifications.server";
import { FORM_MESSAGES, HONEYPOT_FIELD } from "./forms.schema";
import { absoluteUrl, dispatchMail, queueMail } from "./mail.server";
import { consume } from "./rate-limit.server";
import { siteOrigins } from "./site-origins.server";

const MAX_FIELDS = 50;
const MAX_VALUE = 10_000;

export type IntakeForm = {
  id: string;
  name: string;
  enabled: boolean;
  redirectUrl: string | null;
  notificationEmails: string[];
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

/** The text fields of a submission: no files, no underscore fields, bounded. */
function fieldsOf(entries: [string, unknown][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (typeof value !== "string" || key.startsWith("_") || key.length > 100) continue;
    if (Object.keys(out).length >= MAX_FIELDS) break;
    out[key] = value.slice(0, MAX_VALUE);
  }
  return out;
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
  const data = fieldsOf(entries);
  if (!Object.values(data).some((v) => v.trim() !== "")) {
    throw new InvalidError("The form is empty", { "": ["The form is empty"] });
  }
  const searchText = Object.values(data).join(" \u0001 ").toLowerCase().slice(0, 20_000);
  const { id, mailIds } = await db().transaction(async (tx) => {
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
            ...Object.entries(data).map(([k, v]) => `${k}: ${v}`),
            "",
            `All submissions: ${absoluteUrl(`/sites/forms/${form.studioId}?form=${form.id}`)}`,
          ].join("\n"),
        }),
      );
    }
    return { id: row.id, mailIds };
  });
  await dispatchMail(mailIds);
  return { id };
}
