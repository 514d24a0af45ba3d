import { and, desc, eq, ilike, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { accessRequests } from "~/db/schema";
import { enqueue } from "~/jobs/queue.server";
import type { JobDefinition } from "~/jobs/types";
import { requestAccessSchema, type RequestAccessInput } from "./access-requests.schema";
import { addressProof } from "~/services/accounts/index.server";
import { ConflictError, NotFoundError } from "~/services/core";
import { likePattern } from "~/services/core/index.server";
import { absoluteUrl, dispatchMail, queueMail } from "~/services/core/index.server";
import { consume, tryConsume } from "~/services/core/index.server";

/** A request for access: Pending until a platform admin approves or rejects it, once. */
export type AccessRequest = typeof accessRequests.$inferSelect;
export type RequestStatus = AccessRequest["requestStatus"];
export type Decision = "Approved" | "Rejected";

export const PAGE_SIZE = 20;

export const ACCESS_REQUEST_JOB = "access-requests.submit";

/**
 * Takes a request for access. The page answers the same, at once, whatever the address: the
 * work (and any "already pending" or "already approved" news) goes to the job below and reaches
 * only the address's mailbox.
 */
export async function submitAccessRequest(
  input: RequestAccessInput,
  meta: { clientIp?: string } = {},
): Promise<void> {
  await consume("requestAccessAddress", meta.clientIp ?? "unknown");
  await enqueue(ACCESS_REQUEST_JOB, { input });
}

/**
 * The job: records the request (status Pending) and mails the requester that it was received.
 * Every mail to the address is a fixed text: the address is not proved, so nothing typed into
 * the form (name, company, notes) is echoed to it (decision 028).
 * One pending request per e-mail: a second one, or one for an approved address, is not recorded;
 * the mail tells the address's owner where they stand instead.
 */
export async function recordAccessRequest(
  input: RequestAccessInput,
): Promise<AccessRequest | null> {
  const address = input.businessEmail.toLowerCase();
  if (!(await tryConsume("requestAccessMails", address))) return null;
  const { row, mailId } = await db().transaction(async (tx) => {
    // The table has no unique index on pending e-mails, so a per-e-mail transaction lock keeps two
    // simultaneous submissions from both passing the check below.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"access_request:" + address}))`);
    const existing = await tx
      .select({ status: accessRequests.requestStatus })
      .from(accessRequests)
      .where(
        and(
          sql`lower(${accessRequests.businessEmail}) = ${address}`,
          or(
            eq(accessRequests.requestStatus, "Pending"),
            eq(accessRequests.requestStatus, "Approved"),
          ),
        ),
      );
    if (existing.some((r) => r.status === "Approved")) {
      const proof = addressProof(address);
      const mailId = await queueMail(tx, {
        to: address,
        subject: "Your access to StackShift is already approved",
        text: `Hello,\n\nSomeone (hopefully you) asked for access to StackShift with this email, which is already approved. Create your account here:\n\n${signupLink(address, proof)}\n\nThe StackShift team`,
        secrets: [proof],
      });
      return { row: null, mailId };
    }
    if (existing.length > 0) {
      const mailId = await queueMail(tx, {
        to: address,
        subject: "Your request for access to StackShift is waiting for review",
        text: `Hello,\n\nSomeone (hopefully you) asked for access to StackShift with this email. A request for it is already waiting for our review; we will email you once it has been reviewed.\n\nThe StackShift team`,
      });
      return { row: null, mailId };
    }
    const [row] = await tx
      .insert(accessRequests)
      .values({
        fullName: input.fullName,
        businessEmail: address,
        telephoneNumber: input.telephoneNumber ?? null,
        companyName: input.companyName ?? null,
        numberOfEmployees: input.numberOfEmployees ?? null,
        websiteAddress: input.websiteAddress ?? null,
        additionalInfo: input.additionalInfo ?? null,
      })
      .returning();
    const mailId = await queueMail(tx, {
      to: address,
      subject: "We received your request for access to StackShift",
      text: `Hello,\n\nThank you for your interest in StackShift. We received your request for access and it is waiting for our approval. We will email you at this address once it has been reviewed.\n\nIf you did not ask for access, ignore this email.\n\nThe StackShift team`,
    });
    return { row, mailId };
  });
  await dispatchMail([mailId]);
  return row;
}

/** The sign-up link of approval mails; its proof spares the new account a confirmation mail. */
function signupLink(address: string, proof: string) {
  return absoluteUrl(`/signup?email=${encodeURIComponent(address)}&proof=${proof}`);
}

export const accessRequestJobs: JobDefinition[] = [
  {
    name: ACCESS_REQUEST_JOB,
    handler: async (data) => {
      await recordAccessRequest(requestAccessSchema.parse(data.input));
    },
  },
];

/**
 * One page of requests, newest first, optionally filtered by a keyword matching name, e-mail,
 * company or website. Keyset pagination on (created_at, id): the cursor is the id of the last row
 * shown, and its timestamp is read in SQL so microsecond precision is never lost in a JS Date.
 */
export async function listAccessRequests(
  options: { q?: string; cursor?: string; limit?: number } = {},
): Promise<{ items: AccessRequest[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(options.limit ?? PAGE_SIZE, 1), 100);
  const q = options.q?.trim().toLowerCase();
  const conditions = [];
  if (q) {
    const pattern = likePattern(q);
    conditions.push(
      or(
        ilike(accessRequests.fullName, pattern),
        ilike(accessRequests.businessEmail, pattern),
        ilike(accessRequests.companyName, pattern),
        ilike(accessRequests.websiteAddress, pattern),
      ),
    );
  }
  if (options.cursor) {
    conditions.push(
      sql`(${accessRequests.createdAt}, ${accessRequests.id}) < (select c.created_at, c.id from ${accessRequests} c where c.id = ${options.cursor})`,
    );
  }
  const rows = await db()
    .select()
    .from(accessRequests)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(accessRequests.createdAt), desc(accessRequests.id))
    .limit(limit + 1);
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? items[items.length - 1].id : null };
}

export async function getAccessRequest(id: string): Promise<AccessRequest | null> {
  const [row] = await db().select().from(accessRequests).where(eq(accessRequests.id, id));
  return row ?? null;
}

/**
 * Approves or rejects a Pending request and mails the requester (approval carries the sign-up
 * link). The UPDATE only matches a Pending row, so of two concurrent decisions exactly one wins;
 * the other, like any decision on a decided request, is a ConflictError.
 */
export async function decideAccessRequest(
  id: string,
  decision: Decision,
  adminId: string,
): Promise<AccessRequest> {
  const { row, mailId } = await db().transaction(async (tx) => {
    const [row] = await tx
      .update(accessRequests)
      .set({ requestStatus: decision, decidedAt: new Date(), decidedBy: adminId })
      .where(and(eq(accessRequests.id, id), eq(accessRequests.requestStatus, "Pending")))
      .returning();
    if (!row) {
      const [current] = await tx
        .select({ status: accessRequests.requestStatus })
        .from(accessRequests)
        .where(eq(accessRequests.id, id));
      if (!current) throw new NotFoundError("This request for access no longer exists.");
      throw new ConflictError(
        `This request has already been ${current.status.toLowerCase()}. Only pending requests can be approved or rejected.`,
      );
    }
    const proof = addressProof(row.businessEmail);
    const mailId = await queueMail(
      tx,
      decision === "Approved"
        ? {
            to: row.businessEmail,
            subject: "Your request for access to StackShift was approved",
            text: `Hello,\n\nGood news: your request for access to StackShift was approved. Create your account here:\n\n${signupLink(row.businessEmail, proof)}\n\nThe StackShift team`,
            secrets: [proof],
          }
        : {
            to: row.businessEmail,
            subject: "Your request for access to StackShift",
            text: `Hello,\n\nThank you for your interest in StackShift. We are unable to approve your request for access at this time.\n\nThe StackShift team`,
          },
    );
    return { row, mailId };
  });
  await dispatchMail([mailId]);
  return row;
}
