import { eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { db, type Queryable } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { env } from "~/utils/env.server";
import { mailFailed, mailSent } from "~/utils/metrics.server";
import { enqueue, sendJob, RETRY } from "~/jobs/queue.server";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * Secret parts of the text (tokens in links). They are removed from the stored copy as soon as
   * the mail is delivered, so the outbox never holds a usable reset, confirmation or invitation link.
   */
  secrets?: string[];
  /**
   * Extra headers (a notification's List-Unsubscribe and List-Unsubscribe-Post, RFC 8058). The
   * secrets are removed from the stored copy of these too once the mail is delivered.
   */
  headers?: Record<string, string>;
  /**
   * A person is on a page waiting for this mail (a sign-up confirmation, a sign-in or reset link,
   * a new address's proof): it is sent before the mails already queued. A burst of notifications
   * (120 projects made through the API queue 120 studio invitations) otherwise held a sign-up's
   * confirmation for a minute.
   */
  awaited?: boolean;
};

/** pg-boss takes a queue's jobs highest priority first (then oldest first). */
const AWAITED_PRIORITY = 10;

/** What a secret in a delivered mail's stored copy becomes. */
export const REDACTED = "[removed after delivery]";

export function redact(text: string, secrets: string[]) {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join(REDACTED);
  return out;
}

/** The http(s) links of a mail's text. */
export function linksOf(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"']+/g)].map((m) => m[0].replace(/[.,;:!?)\]]+$/, ""));
}

export const MAIL_JOB = "mail.send";

/**
 * Records an e-mail in the outbox and its mail job, inside the caller's transaction: a rolled-back
 * action sends nothing, and a committed one cannot lose its mail to a crash right after the
 * commit. The job's id is the outbox row's, so the row has one job however often it is handed
 * over. Returns the row's id.
 */
export async function queueMail(tx: Queryable, { awaited, ...mail }: Mail): Promise<string> {
  const [row] = await tx
    .insert(outbox)
    .values({ ...mail, secrets: mail.secrets ?? [], headers: mail.headers ?? {} })
    .returning({ id: outbox.id });
  const priority = awaited ? AWAITED_PRIORITY : 0;
  await sendJob(MAIL_JOB, { id: row.id }, { ...RETRY, id: row.id, priority }, tx);
  return row.id;
}

/**
 * Hands outbox rows to the mail job (which retries on SMTP failure). queueMail already did, in
 * the transaction; this changes nothing then (one job per row, by id) and stays for rows written
 * otherwise.
 */
export async function dispatchMail(ids: string[]) {
  for (const id of ids) await enqueue(MAIL_JOB, { id }, { id });
}

let transport: nodemailer.Transporter | undefined;
function smtp() {
  transport ??= nodemailer.createTransport(env().SMTP_URL!);
  return transport;
}

/** The mail job: sends one outbox row over SMTP, or keeps it in the local outbox. */
export async function deliver(id: string) {
  const [mail] = await db().select().from(outbox).where(eq(outbox.id, id));
  if (!mail || mail.status === "sent" || mail.status === "kept") return;
  const delivered = {
    text: redact(mail.text, mail.secrets),
    html: mail.html ? redact(mail.html, mail.secrets) : null,
    headers: Object.fromEntries(
      Object.entries(mail.headers).map(([name, value]) => [name, redact(value, mail.secrets)]),
    ),
    secrets: [] as string[],
  };
  if (!env().SMTP_URL) {
    // Without SMTP the server log is the mailbox: the first admin of a fresh install opens their
    // confirmation link from here (README).
    const links = linksOf(mail.text).map((link) => `\n  ${link}`);
    console.info(`[mail] to=${mail.to} subject="${mail.subject}"${links.join("")}`);
    await db()
      .update(outbox)
      .set({ ...delivered, status: "kept" })
      .where(eq(outbox.id, id));
    mailSent("log");
    return;
  }
  let sent = false;
  try {
    await smtp().sendMail({
      from: "StackShift <no-reply@stackshift.local>",
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? undefined,
      headers: mail.headers,
    });
    sent = true;
    mailSent("smtp");
    await db()
      .update(outbox)
      .set({ ...delivered, status: "sent", sentAt: new Date(), attempts: mail.attempts + 1 })
      .where(eq(outbox.id, id));
  } catch (error) {
    // Counted once: a failure to record a sent mail is not a failed delivery.
    if (!sent) mailFailed();
    await db()
      .update(outbox)
      .set({ attempts: mail.attempts + 1, lastError: String(error), status: "failed" })
      .where(eq(outbox.id, id));
    throw error; // pg-boss retries the job
  }
}

/** The outbox, newest first; `search` matches the recipient or the subject (case-insensitive). */
export function listOutbox(limit = 100, search?: string) {
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return db().query.outbox.findMany({
    where: pattern
      ? (o, { ilike, or }) => or(ilike(o.to, pattern), ilike(o.subject, pattern))
      : undefined,
    orderBy: (o, { desc }) => [desc(o.createdAt), desc(o.id)],
    limit,
  });
}

/**
 * The development outbox page exists only where nothing is really delivered: no SMTP_URL, and not
 * an operator's explicit NODE_ENV=production (`npm start` implies production for React alone).
 */
export function outboxPageEnabled() {
  const explicitProduction =
    process.env.NODE_ENV === "production" && !process.env.STACKSHIFT_IMPLIED_NODE_ENV;
  return !env().SMTP_URL && !explicitProduction;
}

export function absoluteUrl(pathname: string) {
  return new URL(pathname, env().APP_URL + "/").toString();
}
