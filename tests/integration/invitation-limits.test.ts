/**
 * Invitation limits (decision 031): per inviter an hour, per project a day, per recipient a day.
 * Onboarding at agency scale passes; the fourth mail to one address in a day and a project past
 * its day are refused with a clear message and Retry-After, through the API and beside the invite
 * form's Email field, and a refused invitation writes nothing and spends no other limit's points.
 */
import { and, eq, inArray, like } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { members, outbox, rateLimits } from "~/db/schema";
import { action as dashboardAction } from "~/routes/_app._project.sites.$studioId/route";
import { MAIL_JOB } from "~/services/core/mail.server";
import { POLICIES } from "~/services/core/rate-limit.server";
import { resetEnv } from "~/utils/env.server";
import { call, insertProject, makeRequest, runQueuedJobs } from "../helpers";
import { acceptedMember, actor, invite, mailsTo, memberRow, type Actor } from "./members-support";
import { changedTables, checksumQuery, readChecksums } from "./table-checksums";

const run = Date.now().toString(36);

const received: string[] = [];
let smtp: SMTPServer;

beforeAll(async () => {
  // A real SMTP server: "delivered" means it received the mail.
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        received.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
  resetEnv();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  resetEnv();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const project = (owner: Actor) => insertProject(owner.id);

/**
 * Runs `send(0..count-1)` a few at a time. Hundreds of invitations, each a few database round
 * trips: one after another the file spent minutes waiting on them. The limits count atomically,
 * so the order they arrive in changes nothing these tests assert.
 */
async function inFlight(count: number, send: (i: number) => Promise<void>, width = 8) {
  for (let start = 0; start < count; start += width) {
    const batch = Array.from({ length: Math.min(width, count - start) }, (_, k) => start + k);
    await Promise.all(batch.map(send));
  }
}

/** The invite form on the dashboard, posted without JavaScript. */
const formInvite = (who: Actor, studioId: string, email: string) =>
  call(
    dashboardAction,
    makeRequest(`/sites/${studioId}`, {
      cookie: who.cookie,
      form: { intent: "member-invite", email, role: "editor" },
    }),
    { studioId },
  );

/** The Members table's Resend, posted without JavaScript. */
const formResend = (who: Actor, studioId: string, memberId: string) =>
  call(
    dashboardAction,
    makeRequest(`/sites/${studioId}`, {
      cookie: who.cookie,
      form: { intent: "member-resend", memberId },
    }),
    { studioId },
  );

/** A limit's counter as stored (rate-limiter-flexible keys rows `{policy}:{key}`). */
async function counter(policy: keyof typeof POLICIES, key: string) {
  const [row] = await db()
    .select({ points: rateLimits.points })
    .from(rateLimits)
    .where(eq(rateLimits.key, `${policy}:${key}`));
  return row?.points ?? 0;
}

let checksumSql = "";
/** Runs `act` and expects no product row and no job to have changed (the counters aside). */
async function expectNothingWritten(act: () => Promise<Response>) {
  checksumSql ||= await checksumQuery({ sessions: ["last_seen_at"] }, { jobs: true });
  const before = await readChecksums(checksumSql);
  const res = await act();
  expect(changedTables(before, await readChecksums(checksumSql))).toEqual([]);
  return res;
}

/** Retry-After of a refusal within a day's window: most of a day, never more. */
function expectRetryWithinADay(res: Response) {
  const seconds = Number(res.headers.get("Retry-After"));
  expect(seconds).toBeGreaterThan(23 * 3600);
  expect(seconds).toBeLessThanOrEqual(24 * 3600);
}

describe("invitation limits", () => {
  it("lets one admin send 200 invitations in an hour across 20 projects from one address, all delivered", async () => {
    expect(POLICIES.invite.points).toBeGreaterThanOrEqual(300);
    const agency = await actor({ name: "Agency Admin" });
    const invitees: string[] = [];
    for (let p = 0; p < 20; p += 1) {
      const client = await project(agency);
      await inFlight(10, async (i) => {
        const email = `onboard-${p}-${i}-${run}@example.com`;
        // One client address throughout (the test request's), one session.
        const res = await invite(agency.cookie, client.studioId, email);
        expect(res.status, `invitation ${p * 10 + i + 1}`).toBe(201);
        invitees.push(email);
      });
    }

    await runQueuedJobs(MAIL_JOB, { together: true });
    const mails = await db().select().from(outbox).where(inArray(outbox.to, invitees));
    expect(mails).toHaveLength(200);
    expect(mails.every((m) => m.status === "sent")).toBe(true);
    expect(new Set(received.filter((to) => invitees.includes(to))).size).toBe(200);
  }, 180_000);

  it("refuses the 4th invitation mail to one address in a day (any inviter, project, invite or resend), says why and when, and writes nothing", async () => {
    const address = `popular-${run}@example.com`;
    const [first, second, third] = [await actor(), await actor(), await actor()];
    const [one, two, three] = [await project(first), await project(second), await project(third)];

    // Three mails: an invitation, its resend (the API's POST again), another team's invitation.
    expect((await invite(first.cookie, one.studioId, address)).status).toBe(201);
    expect((await invite(first.cookie, one.studioId, address)).status).toBe(200);
    expect((await formInvite(second, two.studioId, address)).status).toBe(302);
    expect(await mailsTo(address)).toHaveLength(3);

    const message = `${address} has already been sent 3 invitation emails within a day, the most allowed. Please wait 24 hours and try again.`;
    // The fourth, through the API: 429, Retry-After, the API's error shape.
    const refused = await expectNothingWritten(() => invite(third.cookie, three.studioId, address));
    expect(refused.status).toBe(429);
    expectRetryWithinADay(refused);
    expect(await refused.json()).toEqual({ error: message });
    // ...and through the table's Resend: the failure toast says the same.
    const row = await memberRow(one.id, address);
    const resend = await expectNothingWritten(() => formResend(first, one.studioId, row.id));
    await expect(resend).toSendToast({
      type: "error",
      title: "Ooops, something went wrong resending invitation!",
      description: message,
    });
    expect(await memberRow(one.id, address)).toEqual(row);
    expect(await memberRow(three.id, address)).toBeUndefined();
    expect(await mailsTo(address)).toHaveLength(3);

    // The refusals spent none of the third inviter's or project's points: both still at zero.
    expect(await counter("invite", `user:${third.id}`)).toBe(0);
    expect(await counter("inviteProject", `project:${three.id}`)).toBe(0);
    expect(await counter("inviteRecipient", `email:${address}`)).toBe(3);
    // Anyone else can still be invited there.
    expect((await invite(third.cookie, three.studioId, `other-${run}@example.com`)).status).toBe(
      201,
    );
  });

  it("shows the refusal beside the invite form's Email field, with 429 and Retry-After, without JavaScript", async () => {
    const address = `busy-${run}@example.com`;
    const owner = await actor();
    const projects = [await project(owner), await project(owner), await project(owner)];
    for (const p of projects)
      expect((await invite(owner.cookie, p.studioId, address)).status).toBe(201);
    const fourth = await project(owner);

    const res = await expectNothingWritten(() => formInvite(owner, fourth.studioId, address));
    expect(res.status).toBe(429);
    expectRetryWithinADay(res);
    const body = await res.json();
    // conform's reply: the message under `email`, which the form shows beside the field, and the
    // typed values, which it keeps.
    expect(body.result.error).toEqual({
      email: [
        `${address} has already been sent 3 invitation emails within a day, the most allowed. Please wait 24 hours and try again.`,
      ],
    });
    expect(body.result.initialValue).toMatchObject({ email: address, role: "editor" });
    await expect(res).not.toSendToast();
  });

  it(`refuses a project's invitations past its day, whoever sends them, and no other project's`, async () => {
    const { points } = POLICIES.inviteProject;
    const owner = await actor();
    const busy = await project(owner);
    // The member admin's own invitation is the project's first mail.
    const admin = await acceptedMember(owner, { _id: busy.id, studioId: busy.studioId }, "admin");
    await inFlight(points - 1, async (i) => {
      const sent = i + 1;
      const who = sent % 2 === 0 ? owner : admin;
      const res = await invite(who.cookie, busy.studioId, `crowd-${sent}-${run}@example.com`);
      expect(res.status, `invitation ${sent + 1}`).toBe(201);
    });

    const extra = `crowd-extra-${run}@example.com`;
    const refused = await expectNothingWritten(() => invite(admin.cookie, busy.studioId, extra));
    expect(refused.status).toBe(429);
    expectRetryWithinADay(refused);
    expect(await refused.json()).toEqual({
      error: `This project has sent ${points} invitations within a day, the most allowed. Please wait 24 hours and try again.`,
    });
    const invited = await db()
      .select({ email: members.invitedEmail })
      .from(members)
      .where(and(eq(members.projectId, busy.id), like(members.invitedEmail, `crowd-%-${run}@%`)));
    expect(invited).toHaveLength(points - 1);
    // The recipient's mails were not spent by the refusal, and the owner's other project goes on.
    expect(await counter("inviteRecipient", `email:${extra}`)).toBe(0);
    const other = await project(owner);
    expect((await invite(owner.cookie, other.studioId, extra)).status).toBe(201);
  }, 180_000);

  it("lets a platform admin doing support invite as many as any inviter, no fewer", async () => {
    const { points } = POLICIES.invite;
    const support = await actor({ email: "admin@example.com", name: "Sol Support" });
    expect(support.user.isAdmin).toBe(true);
    // Customers' projects, support a member of none; each takes fewer than a project's day.
    const perProject = Math.min(POLICIES.inviteProject.points - 1, 125);
    const customers: { studioId: string }[] = [];
    for (let sent = 0; sent < points; sent += perProject)
      customers.push(await project(await actor()));
    await inFlight(points, async (sent) => {
      const { studioId } = customers[Math.floor(sent / perProject)];
      const res = await invite(support.cookie, studioId, `helped-${sent}-${run}@example.com`);
      expect(res.status, `invitation ${sent + 1}`).toBe(201);
    });
    const next = await project(await actor());
    const refused = await expectNothingWritten(() =>
      invite(support.cookie, next.studioId, `helped-extra-${run}@example.com`),
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeLessThanOrEqual(3600);
    expect((await refused.json()).error).toMatch(
      new RegExp(
        `^You have sent ${points} invitations within an hour, the most allowed\\. Please wait \\d+ (minutes|seconds) and try again\\.$`,
      ),
    );
  }, 300_000);
});
