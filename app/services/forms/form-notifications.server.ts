/**
 * Who a form's submissions are mailed to, and how many (docs/decisions/028-mail-for-others.md).
 * Anyone may post to a form, so its notification mails are the platform's sender writing what a
 * stranger typed: they go only to members of the project (the owner and accepted members, whose
 * account addresses are proved) and to addresses that confirmed a mailed link; and at most
 * FORM_MAIL_DAILY_CAP of them a day per project, the rest held (counted, never sent) while the
 * submissions are still stored.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, gte, inArray, isNull, notInArray, sql, sum, min } from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import {
  formMailDays,
  formNotificationAddresses,
  forms,
  members,
  projects,
  users,
} from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import { InvalidError, NotFoundError, RateLimitedError } from "~/services/core";
import { absoluteUrl, dispatchMail, queueMail } from "~/services/core/index.server";
import { projectForAction, withProjectAction } from "~/services/permissions/index.server";
import { consume, POLICIES } from "~/services/core/index.server";

/**
 * Notification mails per project and UTC day. A busy site's contact form brings some 50
 * submissions a day to two or three people (150 mails); a relay needs thousands.
 */
export const FORM_MAIL_DAILY_CAP = 1000;
/** How long the Forms page reports held mails. */
const HELD_REPORT_DAYS = 7;
/** A confirmation link works this long (a week's holiday). */
const CONFIRM_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const utcDay = (at = new Date()) => at.toISOString().slice(0, 10);

/** The proved addresses of a project's people: the owner's and each accepted member's account. */
async function memberAddresses(tx: Queryable, projectId: string): Promise<Set<string>> {
  const rows = await tx
    .select({ email: users.email })
    .from(users)
    .where(
      sql`${users.id} in (select ${projects.ownerId} from ${projects} where ${projects.id} = ${projectId})
        or ${users.id} in (select ${members.userId} from ${members}
          where ${members.projectId} = ${projectId} and ${members.status} = 'accepted')`,
    );
  return new Set(rows.map((r) => r.email.toLowerCase()));
}

export type RecipientState = "member" | "confirmed" | "waiting";
export type NotificationRecipient = {
  email: string;
  state: RecipientState;
  /** When the last confirmation link went out (waiting addresses only; null: not yet). */
  mailedAt: string | null;
};

/** Each notification address of the forms, in the forms' order, with whether it is mailed. */
export async function recipientStates(
  projectId: string,
  list: { id: string; notificationEmails: string[] }[],
): Promise<Map<string, NotificationRecipient[]>> {
  const out = new Map<string, NotificationRecipient[]>();
  if (list.length === 0) return out;
  const people = await memberAddresses(db(), projectId);
  const rows = await db()
    .select()
    .from(formNotificationAddresses)
    .where(
      inArray(
        formNotificationAddresses.formId,
        list.map((f) => f.id),
      ),
    );
  for (const form of list) {
    out.set(
      form.id,
      form.notificationEmails.map((email) => {
        const row = rows.find((r) => r.formId === form.id && r.email === email);
        const state: RecipientState = people.has(email)
          ? "member"
          : row?.confirmedAt
            ? "confirmed"
            : "waiting";
        const mailedAt = state === "waiting" ? (row?.mailedAt?.toISOString() ?? null) : null;
        return { email, state, mailedAt };
      }),
    );
  }
  return out;
}

/**
 * Spends one confirmation link of the limits of the user who asks and of the project
 * (RateLimitedError when either is spent: the caller's transaction rolls back, so a refused
 * save or resend writes and spends nothing), then of the address: false when the address had
 * its links for the day. In the transaction that records the link; always user, project,
 * address, so two transactions never wait on each other's counters in a cycle (decision 031's
 * order). `recipientWhat` set: the address's refusal is thrown too (a Resend says it).
 */
async function spendConfirmationLimits(
  tx: Queryable,
  user: User,
  projectId: string,
  address: string,
  recipientWhat?: string,
): Promise<boolean> {
  await consume("formNotificationConfirmUser", `user:${user.id}`, {
    tx,
    what: `You have asked for ${POLICIES.formNotificationConfirmUser.points} confirmation links within a day, the most allowed.`,
  });
  await consume("formNotificationConfirmProject", `project:${projectId}`, {
    tx,
    what: `This project has sent ${POLICIES.formNotificationConfirmProject.points} confirmation links within a day, the most allowed.`,
  });
  try {
    await consume("formNotificationConfirmMails", address, { tx, what: recipientWhat });
    return true;
  } catch (error) {
    if (error instanceof RateLimitedError && recipientWhat === undefined) return false;
    throw error;
  }
}

/**
 * Of the addresses an admin is adding, those to mail a confirmation link: not members, and
 * within the address's limit of confirmation mails (an address past it is saved and waits for
 * a Resend). In the settings' transaction, before the form's list is written; past the asker's
 * or the project's limit it throws RateLimitedError for the Notification e-mails field.
 */
export async function confirmationsToMail(
  tx: Queryable,
  user: User,
  projectId: string,
  formId: string,
  wanted: string[],
): Promise<Set<string>> {
  const [form] = await tx
    .select({ emails: forms.notificationEmails })
    .from(forms)
    .where(eq(forms.id, formId));
  const added = wanted.filter((e) => !(form?.emails ?? []).includes(e));
  if (added.length === 0) return new Set();
  const people = await memberAddresses(tx, projectId);
  const out = new Set<string>();
  for (const email of added) {
    if (people.has(email)) continue;
    if (await spendConfirmationLimits(tx, user, projectId, email)) out.add(email);
  }
  return out;
}

function confirmationMail(email: string, token: string) {
  const link = absoluteUrl(`/form-notifications/${token}`);
  // A fixed text: nothing a project's admin typed (project or form names) reaches an address that
  // has not said it wants this mail. The page behind the link names them.
  return {
    to: email,
    subject: "Confirm that you want StackShift form notifications",
    text: `Hello,\n\nA StackShift project wants to mail the submissions of a website form to this address. Nothing is sent to it unless you confirm. Open this link within 7 days to see which project and form, and to confirm:\n\n${link}\n\nIf you do not want these mails, ignore this email.\n\nThe StackShift team`,
    secrets: [token],
  };
}

/**
 * In the settings' transaction, after the form's list was written: rows for the new addresses
 * (a confirmation mail for those in `toMail`), and the removed addresses' rows gone, links and
 * confirmation with them. Returns the mails' outbox ids.
 */
export async function syncNotificationAddresses(
  tx: Queryable,
  formId: string,
  list: string[],
  toMail: Set<string>,
): Promise<string[]> {
  await tx
    .delete(formNotificationAddresses)
    .where(
      list.length
        ? and(
            eq(formNotificationAddresses.formId, formId),
            notInArray(formNotificationAddresses.email, list),
          )
        : eq(formNotificationAddresses.formId, formId),
    );
  const mailIds: string[] = [];
  for (const email of list) {
    const mail = toMail.has(email);
    const token = randomBytes(32).toString("base64url");
    const [inserted] = await tx
      .insert(formNotificationAddresses)
      .values({
        formId,
        email,
        ...(mail
          ? {
              tokenHash: sha256(token),
              tokenExpiresAt: new Date(Date.now() + CONFIRM_TTL_MS),
              mailedAt: new Date(),
            }
          : {}),
      })
      .onConflictDoNothing()
      .returning({ email: formNotificationAddresses.email });
    if (inserted && mail) mailIds.push(await queueMail(tx, confirmationMail(email, token)));
  }
  return mailIds;
}

/**
 * Mails a new confirmation link to a waiting address of the form (the owner, admins, platform
 * admins). The earlier link stops working. Limited per address, per asking user and per project:
 * RateLimitedError with the wait, and nothing spent or written.
 */
export async function resendConfirmation(
  user: User,
  studioId: string,
  formId: string,
  email: string,
) {
  const { project } = await projectForAction(user, studioId, "forms.manage", { mode: "check" });
  const address = email.trim().toLowerCase();
  const [row] = await db()
    .select({ confirmedAt: formNotificationAddresses.confirmedAt })
    .from(formNotificationAddresses)
    .innerJoin(forms, eq(forms.id, formNotificationAddresses.formId))
    .where(
      and(
        eq(formNotificationAddresses.formId, formId),
        eq(formNotificationAddresses.email, address),
        eq(forms.projectId, project.id),
      ),
    );
  if (!row) throw new NotFoundError("This address is not a notification address of the form");
  if (row.confirmedAt || (await memberAddresses(db(), project.id)).has(address)) {
    throw new InvalidError(`${address} already gets the notification mails`);
  }
  const token = randomBytes(32).toString("base64url");
  const mailId = await withProjectAction(user, project.id, "forms.manage", async ({ tx }) => {
    await spendConfirmationLimits(
      tx,
      user,
      project.id,
      address,
      `Too many confirmation mails to ${address}.`,
    );
    const [updated] = await tx
      .update(formNotificationAddresses)
      .set({
        tokenHash: sha256(token),
        tokenExpiresAt: new Date(Date.now() + CONFIRM_TTL_MS),
        mailedAt: new Date(),
      })
      .where(
        and(
          eq(formNotificationAddresses.formId, formId),
          eq(formNotificationAddresses.email, address),
          isNull(formNotificationAddresses.confirmedAt),
        ),
      )
      .returning({ email: formNotificationAddresses.email });
    if (!updated) throw new NotFoundError("This address is not waiting for confirmation");
    return queueMail(tx, confirmationMail(address, token));
  });
  await dispatchMail([mailId]);
}

const openLink = (token: string) =>
  and(
    eq(formNotificationAddresses.tokenHash, sha256(token)),
    isNull(formNotificationAddresses.confirmedAt),
    gt(formNotificationAddresses.tokenExpiresAt, new Date()),
  );

/** What a confirmation link would confirm, while it can. Reads only (mail scanners open links). */
export async function pendingConfirmation(token: string) {
  if (!token || token.length > 100) return null;
  const [row] = await db()
    .select({
      email: formNotificationAddresses.email,
      formName: forms.name,
      projectName: projects.name,
    })
    .from(formNotificationAddresses)
    .innerJoin(forms, eq(forms.id, formNotificationAddresses.formId))
    .innerJoin(projects, eq(projects.id, forms.projectId))
    .where(openLink(token));
  return row ?? null;
}

/** The POST of the link's page: the address gets the form's notification mails from now on. */
export async function confirmNotificationAddress(token: string): Promise<{ email: string }> {
  if (!token || token.length > 100) throw linkInvalid();
  const [row] = await db()
    .update(formNotificationAddresses)
    .set({ confirmedAt: new Date(), tokenHash: null, tokenExpiresAt: null })
    .where(openLink(token))
    .returning({ email: formNotificationAddresses.email });
  if (!row) throw linkInvalid();
  return row;
}

const linkInvalid = () =>
  new InvalidError("This link is invalid, expired or already used (it works once, for 7 days).");

/**
 * In a submission's transaction: the addresses of `list` that are mailed now, members of the
 * project and confirmed addresses (an address waiting for confirmation gets nothing, then or
 * later: its mails are not kept for it).
 */
export async function mailedRecipients(
  tx: Queryable,
  projectId: string,
  formId: string,
  list: string[],
): Promise<string[]> {
  if (list.length === 0) return [];
  const people = await memberAddresses(tx, projectId);
  const confirmed = await tx
    .select({ email: formNotificationAddresses.email })
    .from(formNotificationAddresses)
    .where(
      and(
        eq(formNotificationAddresses.formId, formId),
        inArray(formNotificationAddresses.email, list),
        sql`${formNotificationAddresses.confirmedAt} is not null`,
      ),
    );
  const ok = new Set([...people, ...confirmed.map((r) => r.email)]);
  return list.filter((email) => ok.has(email));
}

/**
 * In a submission's transaction: counts `n` notification mails against the project's cap of the
 * day, or, when they do not all fit, counts them held and answers false (the submission's mails
 * go out together or not at all). The UPDATE locks the day's row, and PostgreSQL checks its
 * condition again on the row as the lock finds it, so processes sending at once never overshoot.
 */
export async function reserveFormMails(
  tx: Queryable,
  projectId: string,
  n: number,
): Promise<boolean> {
  if (n === 0) return true;
  const day = utcDay();
  const row = and(eq(formMailDays.projectId, projectId), eq(formMailDays.day, day));
  await tx.insert(formMailDays).values({ projectId, day }).onConflictDoNothing();
  const [fits] = await tx
    .update(formMailDays)
    .set({ sent: sql`${formMailDays.sent} + ${n}` })
    .where(and(row, sql`${formMailDays.sent} + ${n} <= ${FORM_MAIL_DAILY_CAP}`))
    .returning({ sent: formMailDays.sent });
  if (fits) return true;
  await tx
    .update(formMailDays)
    .set({
      held: sql`${formMailDays.held} + ${n}`,
      firstHeldAt: sql`coalesce(${formMailDays.firstHeldAt}, now())`,
    })
    .where(row);
  return false;
}

export type HeldMails = { count: number; since: string; cap: number } | null;

/** The notification mails the cap held in the last week, and since when (null: none). */
export async function heldFormMails(projectId: string): Promise<HeldMails> {
  const from = utcDay(new Date(Date.now() - (HELD_REPORT_DAYS - 1) * 86_400_000));
  const [row] = await db()
    .select({ count: sum(formMailDays.held), since: min(formMailDays.firstHeldAt) })
    .from(formMailDays)
    .where(
      and(
        eq(formMailDays.projectId, projectId),
        gte(formMailDays.day, from),
        gt(formMailDays.held, 0),
      ),
    );
  const count = Number(row?.count ?? 0);
  if (!count || !row?.since) return null;
  return { count, since: new Date(row.since).toISOString(), cap: FORM_MAIL_DAILY_CAP };
}
