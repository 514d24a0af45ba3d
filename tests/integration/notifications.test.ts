/**
 * Personal e-mail notifications on PostgreSQL: the fan-out's consumer queues one mail per person
 * whose settings (defaults by role, the page's table, a project's choice) want the event; the
 * Notifications page saves them with one POST; the mailed unsubscribe link only shows on GET
 * and turns the project's mails off on its POST, the one-click POST of RFC 8058 included; the
 * digest sends one mail per person and project for the events of its 10 minutes.
 */
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { notificationProjectOverrides, outbox } from "~/db/schema";
import {
  action as settingsAction,
  loader as settingsLoader,
} from "~/routes/_app.sites.user-settings_.notifications";
import {
  action as unsubscribeAction,
  loader as unsubscribeLoader,
} from "~/routes/notifications.unsubscribe.$token";
import { getUser, type User } from "~/services/accounts/accounts.server";
import { deploymentErrorPage, emitProjectEvent } from "~/services/events/emit.server";
import { EVENTS_FANOUT_JOB } from "~/services/events/emit.server";
import { fanOutEvent } from "~/services/events/consumers.server";
import { MAIL_JOB, REDACTED } from "~/services/core/mail.server";
import { changeMemberRole } from "~/services/members/members.server";
import { DIGEST_JOB, sendDigest } from "~/services/notifications/digest.server";
import { NOTIFICATION_DEFAULTS } from "~/services/notifications/schema";
import {
  call,
  createUser,
  insertProject,
  makeRequest,
  runQueuedJobs,
  sessionCookie,
} from "../helpers";
import { toastOf } from "../setup/matchers";
import { addMember } from "./studio-fixtures";

const PAGE = "/sites/user-settings/notifications";
const APP_ORIGIN = new URL(process.env.APP_URL ?? "http://localhost:3000").origin;

async function person(name: string): Promise<User> {
  const row = await createUser({ name });
  return (await getUser(row.id))!;
}

/** A project with an owner and one accepted member of each role (and one invited editor). */
async function team(name = "Notify project") {
  const owner = await person("Owen Owner");
  const project = await insertProject(owner.id, { name });
  const admin = await person("Ada Admin");
  const developer = await person("Dev Developer");
  const editor = await person("Eddie Editor");
  const invited = await person("Ivy Invited");
  await addMember(project.id, admin, "admin");
  await addMember(project.id, developer, "developer");
  await addMember(project.id, editor, "editor");
  await addMember(project.id, invited, "editor", "invited");
  return { owner, project, admin, developer, editor, invited };
}

async function failDeploy(project: { id: string; studioId: string }, key = String(Math.random())) {
  await db().transaction((tx) =>
    emitProjectEvent(tx, {
      projectId: project.id,
      type: "deployment.failed",
      payload: {
        deploymentId: null,
        permanent: false,
        errorPageUrl: deploymentErrorPage(project.studioId, false),
      },
      dedupeKey: key,
    }),
  );
}

async function changeRoleOf(owner: User, project: { id: string; studioId: string }) {
  const member = await person("Role Member");
  await addMember(project.id, member, "editor");
  const row = (await db().query.members.findFirst({
    where: (m, { eq: e }) => e(m.userId, member.id),
  }))!;
  await changeMemberRole(owner, {
    studioId: project.studioId,
    memberId: row.id,
    role: "developer",
  });
  return member;
}

/** The notification mails (queued since `since`) to these people, by address. */
async function mailsTo(people: User[], since: Date) {
  const rows = await db()
    .select()
    .from(outbox)
    .where(sql`${outbox.createdAt} >= ${since.toISOString()}`);
  return people.map((p) => rows.filter((r) => r.to === p.email));
}

const fanOut = () => runQueuedJobs(EVENTS_FANOUT_JOB);

function tokenOf(text: string) {
  const match = text.match(/\/notifications\/unsubscribe\/([A-Za-z0-9_-]+)/);
  expect(match, "an unsubscribe link in the mail").toBeTruthy();
  return match![1];
}

async function saveSettings(user: User, form: Record<string, string | string[]>) {
  const cookie = await sessionCookie(user.id);
  return call(
    settingsAction,
    makeRequest(PAGE, { cookie, form: { intent: "notifications-save", ...form } }),
  );
}

describe("the consumer with the defaults", () => {
  it("a failed deploy mails the owner and every accepted member, not the invited one", async () => {
    const { owner, project, admin, developer, editor, invited } = await team("Failing project");
    const since = new Date();
    await failDeploy(project);
    await fanOut();
    const mails = await mailsTo([owner, admin, developer, editor, invited], since);
    expect(mails.map((m) => m.length)).toEqual([1, 1, 1, 1, 0]);
    const [mail] = mails[0];
    expect(mail.subject).toBe("Deployment failed: Failing project");
    expect(mail.text).toContain(`A deployment of "Failing project" failed.`);
    expect(mail.text).toContain(`/sites/${project.studioId}/failed-deployment`);
    expect(mail.text).toContain(`The project: ${APP_ORIGIN}/sites/${project.studioId}`);
    const token = tokenOf(mail.text);
    expect(mail.headers).toEqual({
      "List-Unsubscribe": `<${APP_ORIGIN}/notifications/unsubscribe/${token}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    // Each mail has its own link.
    expect(tokenOf(mails[1][0].text)).not.toBe(token);
  });

  it("a member's role change mails the owner and the admin (the actor too), not developers or editors", async () => {
    const { owner, project, admin, developer, editor } = await team();
    const since = new Date();
    const member = await changeRoleOf(owner, project);
    await fanOut();
    const mails = await mailsTo([owner, admin, developer, editor, member], since);
    expect(mails.map((m) => m.length)).toEqual([1, 1, 0, 0, 0]);
    expect(mails[0][0].text).toContain(
      `The role of ${member.email} in "Notify project" changed from editor to developer.`,
    );
  });

  it("a fan-out job that runs twice mails once", async () => {
    const { owner, project } = await team();
    const since = new Date();
    await failDeploy(project, "twice");
    const [event] = await db().query.projectEvents.findMany({
      where: (e, { eq: e2 }) => e2(e.projectId, project.id),
    });
    await fanOutEvent(event.id);
    await fanOutEvent(event.id);
    await fanOut();
    expect((await mailsTo([owner], since))[0]).toHaveLength(1);
  });

  it("the stored copy loses the unsubscribe token, in the text and the headers, once delivered", async () => {
    const { owner, project } = await team();
    const since = new Date();
    await failDeploy(project);
    await fanOut();
    const [[queued]] = await mailsTo([owner], since);
    const token = tokenOf(queued.text);
    await runQueuedJobs(MAIL_JOB);
    const [delivered] = await db().select().from(outbox).where(eq(outbox.id, queued.id));
    expect(delivered.text).not.toContain(token);
    expect(delivered.text).toContain(REDACTED);
    expect(JSON.stringify(delivered.headers)).not.toContain(token);
    expect(delivered.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });
});

describe("the Notifications page", () => {
  it("shows the defaults and the person's projects with their role", async () => {
    const { project, developer } = await team("Shown project");
    const res = await call(
      settingsLoader,
      makeRequest(PAGE, { cookie: await sessionCookie(developer.id) }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      settings: {
        byRole: typeof NOTIFICATION_DEFAULTS;
        digest: boolean;
        projects: { id: string; role: string; mode: string }[];
      };
    };
    expect(body.settings.byRole).toEqual(NOTIFICATION_DEFAULTS);
    expect(body.settings.digest).toBe(false);
    expect(body.settings.projects).toEqual([
      expect.objectContaining({ id: project.id, role: "developer", mode: "settings" }),
    ]);
  });

  it("a developer who unticks failed deploys gets no mail of the next one; ticking it again brings it back", async () => {
    const { project, developer, editor } = await team();
    const off = await saveSettings(developer, { owner: ["deployment.failed"] });
    expect(await toastOf(off)).toMatchObject({
      type: "success",
      title: "Notification settings saved",
    });
    let since = new Date();
    await failDeploy(project);
    await fanOut();
    expect((await mailsTo([developer, editor], since)).map((m) => m.length)).toEqual([0, 1]);

    await saveSettings(developer, { developer: ["deployment.failed"] });
    since = new Date();
    await failDeploy(project);
    await fanOut();
    expect((await mailsTo([developer], since))[0]).toHaveLength(1);
  });

  it("keeps only the events a role may be mailed (an editor's member events are dropped)", async () => {
    const { developer } = await team();
    await saveSettings(developer, {
      editor: ["deployment.failed", "member.invited"],
      owner: ["member.invited"],
    });
    const res = await call(
      settingsLoader,
      makeRequest(PAGE, { cookie: await sessionCookie(developer.id) }),
    );
    const body = (await res.json()) as { settings: { byRole: Record<string, string[]> } };
    expect(body.settings.byRole).toEqual({
      owner: ["member.invited"],
      admin: [],
      developer: [],
      editor: ["deployment.failed"],
    });
  });

  it("a project set to 'Only failed deploys' mails no member events; 'Nothing' mails nothing", async () => {
    const { owner, project, admin } = await team();
    await saveSettings(admin, {
      admin: NOTIFICATION_DEFAULTS.admin,
      "projects[0].projectId": project.id,
      "projects[0].mode": "failed-deploys",
    });
    let since = new Date();
    await changeRoleOf(owner, project);
    await failDeploy(project);
    await fanOut();
    const [adminMails] = await mailsTo([admin], since);
    expect(adminMails.map((m) => m.subject)).toEqual(["Deployment failed: Notify project"]);

    await saveSettings(admin, {
      admin: NOTIFICATION_DEFAULTS.admin,
      "projects[0].projectId": project.id,
      "projects[0].mode": "none",
    });
    since = new Date();
    await failDeploy(project);
    await fanOut();
    expect((await mailsTo([admin, owner], since)).map((m) => m.length)).toEqual([0, 1]);
  });

  it("a project the person is not in is left alone", async () => {
    const { project } = await team();
    const outsider = await person("Otto Outsider");
    await saveSettings(outsider, {
      "projects[0].projectId": project.id,
      "projects[0].mode": "none",
    });
    const rows = await db()
      .select()
      .from(notificationProjectOverrides)
      .where(eq(notificationProjectOverrides.userId, outsider.id));
    expect(rows).toEqual([]);
  });

  it("bad input is a 400 with the message beside the field, never a 500", async () => {
    const { developer, project } = await team();
    const unknownEvent = await saveSettings(developer, { developer: "deployment.exploded" });
    expect(unknownEvent.status).toBe(400);
    const body = (await unknownEvent.json()) as { result: { error: Record<string, string[]> } };
    expect(Object.values(body.result.error).flat()).toContain("Choose events from the table");
    const badMode = await saveSettings(developer, {
      "projects[0].projectId": project.id,
      "projects[0].mode": "sometimes",
    });
    expect(badMode.status).toBe(400);
    const badBody = (await badMode.json()) as { result: { error: Record<string, string[]> } };
    expect(badBody.result.error["projects[0].mode"]).toEqual([
      "Choose what to mail for this project",
    ]);
  });

  it("asks for a session", async () => {
    const res = await call(settingsLoader, makeRequest(PAGE));
    expect(res.status).toBe(302);
  });
});

describe("the unsubscribe link", () => {
  async function mailedToken() {
    const { owner, project, editor } = await team("Unsubscribe project");
    const since = new Date();
    await failDeploy(project);
    await fanOut();
    const [[mail]] = await mailsTo([editor], since);
    return { owner, project, editor, token: tokenOf(mail.text) };
  }

  const path = (token: string) => `/notifications/unsubscribe/${token}`;

  async function overrideOf(userId: string, projectId: string) {
    const [row] = await db()
      .select()
      .from(notificationProjectOverrides)
      .where(
        and(
          eq(notificationProjectOverrides.userId, userId),
          eq(notificationProjectOverrides.projectId, projectId),
        ),
      );
    return row?.mode ?? null;
  }

  it("GET only shows what it turns off and changes nothing", async () => {
    const { project, editor, token } = await mailedToken();
    const res = await call(unsubscribeLoader, makeRequest(path(token)), { token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      pending: { email: editor.email, projectName: "Unsubscribe project" },
    });
    expect(await overrideOf(editor.id, project.id)).toBeNull();
  });

  it("the one-click POST (RFC 8058, no session, no Origin) turns the project's mails off", async () => {
    const { owner, project, editor, token } = await mailedToken();
    const res = await call(
      unsubscribeAction,
      makeRequest(path(token), {
        body: "List-Unsubscribe=One-Click",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
        },
      }),
      { token },
    );
    expect(res.status).toBe(200);
    expect(await overrideOf(editor.id, project.id)).toBe("none");
    const since = new Date();
    await failDeploy(project);
    await fanOut();
    expect((await mailsTo([editor, owner], since)).map((m) => m.length)).toEqual([0, 1]);
  });

  it("the page's own button works from our origin and is refused from another", async () => {
    const { project, editor, token } = await mailedToken();
    const foreign = await call(
      unsubscribeAction,
      makeRequest(path(token), { form: {}, headers: { Origin: "https://evil.example" } }),
      { token },
    );
    expect(foreign.status).toBe(403);
    expect(await overrideOf(editor.id, project.id)).toBeNull();
    const ours = await call(
      unsubscribeAction,
      makeRequest(path(token), { form: {}, headers: { Origin: APP_ORIGIN } }),
      { token },
    );
    expect(ours.status).toBe(200);
    expect(await ours.json()).toMatchObject({
      done: { email: editor.email, projectName: "Unsubscribe project" },
    });
    expect(await overrideOf(editor.id, project.id)).toBe("none");
  });

  it("an unknown token shows the unusable-link page (400) on GET and POST", async () => {
    const token = "not-a-token";
    expect((await call(unsubscribeLoader, makeRequest(path(token)), { token })).status).toBe(400);
    const res = await call(
      unsubscribeAction,
      makeRequest(path(token), {
        body: "List-Unsubscribe=One-Click",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
        },
      }),
      { token },
    );
    expect(res.status).toBe(400);
  });

  it("the project's choice is back on the Notifications page, where it can be undone", async () => {
    const { project, editor, token } = await mailedToken();
    await call(
      unsubscribeAction,
      makeRequest(path(token), {
        body: "List-Unsubscribe=One-Click",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
        },
      }),
      { token },
    );
    await saveSettings(editor, {
      editor: ["deployment.failed"],
      "projects[0].projectId": project.id,
      "projects[0].mode": "settings",
    });
    expect(await overrideOf(editor.id, project.id)).toBeNull();
    const since = new Date();
    await failDeploy(project);
    await fanOut();
    expect((await mailsTo([editor], since))[0]).toHaveLength(1);
  });
});

describe("the digest", () => {
  it("keeps the events of 10 minutes for one pending job and mails them in one mail", async () => {
    const { owner, project, admin } = await team("Digest project");
    await saveSettings(admin, { admin: NOTIFICATION_DEFAULTS.admin, digest: "on" });
    const since = new Date();
    await failDeploy(project, "d1");
    await changeRoleOf(owner, project);
    await failDeploy(project, "d2");
    await fanOut();
    // The owner (no digest) got three mails; the admin none yet, and one delayed job.
    expect((await mailsTo([owner, admin], since)).map((m) => m.length)).toEqual([3, 0]);
    const jobs = (await db().execute(
      sql`select data, start_after from pgboss.job where name = ${DIGEST_JOB} and data->>'userId' = ${admin.id}`,
    )) as unknown as { rows: { start_after: string }[] };
    expect(jobs.rows).toHaveLength(1);
    const startAfter = new Date(String(jobs.rows[0].start_after));
    expect(startAfter.getTime() - Date.now()).toBeGreaterThan(9 * 60 * 1000);

    await sendDigest(admin.id, project.id);
    const [adminMails] = await mailsTo([admin], since);
    expect(adminMails).toHaveLength(1);
    expect(adminMails[0].subject).toBe("3 events in Digest project");
    expect(adminMails[0].text.match(/^- /gm)).toHaveLength(3);
    expect(adminMails[0].text).toContain("changed from editor to developer");
    expect(adminMails[0].headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    // Sent and forgotten: running it again mails nothing; the next event starts a new job.
    await sendDigest(admin.id, project.id);
    expect((await mailsTo([admin], since))[0]).toHaveLength(1);
    await failDeploy(project, "d3");
    await fanOut();
    const again = (await db().execute(
      sql`select id from pgboss.job where name = ${DIGEST_JOB} and data->>'userId' = ${admin.id}`,
    )) as unknown as { rows: unknown[] };
    expect(again.rows).toHaveLength(2);
  });
});
