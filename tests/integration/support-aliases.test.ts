/**
 * Support cannot launder its access (decision 043): a platform admin outside a project may not
 * invite another spelling of a platform admin's mailbox (a +tag, another case, Gmail's dots and
 * googlemail.com), by the invite form, the API or a resend; every invitation support sends names
 * its address in the project's Activity Log and in the audit log, so a membership it made stays
 * attributable to it whoever accepts.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { auditLog, eventLogs, members, users } from "~/db/schema";
import { action as dashboardAction } from "~/routes/_app._project.sites.$studioId/route";
import { action as membersApi } from "~/routes/api.app.members";
import { SUPPORT_INVITES_STAFF_MESSAGE } from "~/services/members/member-invitations.server";
import { resetEnv } from "~/utils/env.server";
import { toastOf } from "../setup/matchers";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";

const GMAIL_ADMIN = "sam.support@gmail.com";
const previousAdmins = process.env.PLATFORM_ADMIN_EMAILS;

let support: { id: string; cookie: string };
let gmailSupport: { id: string; cookie: string };

async function admin(name: string, email: string) {
  const [existing] = await db().select().from(users).where(eq(users.email, email));
  const row = existing ?? (await createUser({ name, email }));
  return { id: row.id, cookie: await sessionCookie(row.id) };
}

beforeAll(async () => {
  process.env.PLATFORM_ADMIN_EMAILS = `admin@example.com,${GMAIL_ADMIN}`;
  resetEnv();
  support = await admin("Sam Support", "admin@example.com");
  gmailSupport = await admin("Gil Support", GMAIL_ADMIN);
});
afterAll(() => {
  process.env.PLATFORM_ADMIN_EMAILS = previousAdmins;
  resetEnv();
});

const inviteByForm = (cookie: string, studioId: string, email: string) =>
  call(
    dashboardAction,
    makeRequest(`/sites/${studioId}`, {
      cookie,
      form: { intent: "member-invite", email, role: "admin" },
    }),
    { studioId },
  );

const inviteByApi = (cookie: string, studioId: string, email: string) =>
  call(
    membersApi,
    makeRequest("/api/app/members", { cookie, json: { studioId, email, role: "admin" } }),
  );

const resendByForm = (cookie: string, studioId: string, memberId: string) =>
  call(
    dashboardAction,
    makeRequest(`/sites/${studioId}`, { cookie, form: { intent: "member-resend", memberId } }),
    { studioId },
  );

const memberRows = (projectId: string) =>
  db().select().from(members).where(eq(members.projectId, projectId));

const supportChanges = (projectId: string) =>
  db()
    .select({ content: eventLogs.content })
    .from(eventLogs)
    .where(and(eq(eventLogs.projectId, projectId), sql`${eventLogs.type} = 'support.changed'`));

const auditWhat = async (projectId: string) =>
  (await db().select().from(auditLog).where(eq(auditLog.projectId, projectId)))
    .filter((row) => row.action === "support.changed")
    .map((row) => row.details.what);

describe("support and the spellings of a platform admin's mailbox", () => {
  it("refuses a +tag, another case, Gmail's dots and googlemail.com, beside the field or as 400 JSON", async () => {
    const owner = await createUser({ name: "Cleo Customer" });
    const project = await insertProject(owner.id);
    const aliases: [typeof support, string][] = [
      [support, "admin+x@example.com"],
      [support, "ADMIN+Project-7@Example.com"],
      [support, "sam.support+inbox@gmail.com"],
      [gmailSupport, "samsupport@gmail.com"],
      [gmailSupport, "Sam.Sup.port@googlemail.com"],
      [gmailSupport, "admin+gil@example.com"],
    ];
    for (const [who, email] of aliases) {
      const res = await inviteByForm(who.cookie, project.studioId, email);
      expect(res.status, email).toBe(400);
      const body = (await res.json()) as {
        result: { error: Record<string, string[]>; initialValue: Record<string, string> };
      };
      expect(body.result.error.email).toEqual([SUPPORT_INVITES_STAFF_MESSAGE]);
      expect(body.result.initialValue.email).toBe(email);

      const api = await inviteByApi(who.cookie, project.studioId, email);
      expect(api.status, email).toBe(400);
      expect(await api.json()).toMatchObject({
        fieldErrors: { email: [SUPPORT_INVITES_STAFF_MESSAGE] },
      });
    }
    expect(await memberRows(project.id)).toEqual([]);
    expect(await supportChanges(project.id)).toEqual([]);

    // Another mailbox of the same provider is fine, and the owner may invite an alias.
    expect(
      (await inviteByForm(support.cookie, project.studioId, "samsupport2@gmail.com")).status,
    ).toBe(302);
    expect(
      (await inviteByForm(await sessionCookie(owner.id), project.studioId, "admin+x@example.com"))
        .status,
    ).toBe(302);
  });

  it("refuses support's resend of an alias the owner invited", async () => {
    const owner = await createUser({ name: "Rhea Resend" });
    const project = await insertProject(owner.id);
    const ownerCookie = await sessionCookie(owner.id);
    expect(
      (await inviteByForm(ownerCookie, project.studioId, "admin+old@example.com")).status,
    ).toBe(302);
    const [row] = await memberRows(project.id);
    const res = await resendByForm(support.cookie, project.studioId, row.id);
    // The table's Resend answers in its failure toast.
    expect(await toastOf(res)).toMatchObject({
      type: "error",
      description: SUPPORT_INVITES_STAFF_MESSAGE,
    });
    expect((await memberRows(project.id))[0].invitationKey).toBe(row.invitationKey);
    expect(await supportChanges(project.id)).toEqual([]);
  });
});

describe("a membership support made stays attributable", () => {
  it("names the invited address in support's Activity Log entry and audit row, for invites and resends", async () => {
    const owner = await createUser({ name: "Ava Attributed" });
    const project = await insertProject(owner.id);
    expect((await inviteByApi(support.cookie, project.studioId, "Helper@Example.org")).status).toBe(
      201,
    );
    const [row] = await memberRows(project.id);
    expect(row.invitedBy).toBe(support.id);
    expect((await resendByForm(support.cookie, project.studioId, row.id)).status).toBe(302);

    expect((await supportChanges(project.id)).map((e) => e.content)).toEqual([
      "Support access by Sam Support: added a member (invited helper@example.org)",
      "Support access by Sam Support: resent the invitation to helper@example.org",
    ]);
    expect(await auditWhat(project.id)).toEqual([
      "added a member (invited helper@example.org)",
      "resent the invitation to helper@example.org",
    ]);
  });
});
