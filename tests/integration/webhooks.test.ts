/**
 * Project events and webhooks on PostgreSQL, with a real HTTP receiver on 127.0.0.1 standing in
 * for a customer's endpoint (WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=1 lets it be reached; the refusal
 * tests turn it off). Each event is written once by the real operation; deliveries are signed so
 * that standardwebhooks' Webhook.verify accepts them, retried with the same webhook-id, cut at
 * 10 s; addresses that are not public are refused at save and at delivery.
 */
import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { projectEvents, webhookDeliveries, webhooks } from "~/db/schema";
import { getUser, type User } from "~/services/accounts/accounts.server";
import { EVENTS_FANOUT_JOB } from "~/services/events/emit.server";
import { changeMemberRole, leaveProject, removeMember } from "~/services/members/members.server";
import { inviteMember } from "~/services/members/member-invitations.server";
import { createProject } from "~/services/projects/projects.server";
import { deleteProject } from "~/services/projects/project-deletion.server";
import { transferOwnership } from "~/services/projects/project-settings.server";
import { useResolver } from "~/services/webhooks/address-guard.server";
import { WEBHOOK_DELIVERY_JOB } from "~/services/webhooks/fan-out.server";
import { addWebhook, listDeliveries, redeliver } from "~/services/webhooks/index.server";
import { createUser, insertProject, runQueuedJobs } from "../helpers";
import { addMember } from "./studio-fixtures";
import { allowPrivateAddresses, startReceiver } from "./webhook-receiver";

const endpoint = startReceiver();

async function person(name: string): Promise<User> {
  const row = await createUser({ name });
  return (await getUser(row.id))!;
}

async function eventsOf(projectId: string) {
  return db().select().from(projectEvents).where(eq(projectEvents.projectId, projectId));
}

const typesOf = (rows: { type: string }[]) => rows.map((r) => r.type).sort();

/** Runs the fan-out and then the deliveries, as the workers would. */
async function deliverAll() {
  await runQueuedJobs(EVENTS_FANOUT_JOB);
  await runQueuedJobs(WEBHOOK_DELIVERY_JOB);
}

describe("events written by the real operations", () => {
  it("project created, member invited, role changed, removed and left, project transferred and deleted: each once", async () => {
    allowPrivateAddresses(true);
    const owner = await person("Olive Owner");
    const { project } = await createProject(owner, {
      name: "Events project",
      idempotencyKey: `events-${Date.now()}`,
    });
    const projectId = project._id;
    const studioId = project.studioId;

    const invited = await person("Ivy Invited");
    await inviteMember(owner, { studioId, email: invited.email, role: "editor" });
    const admin = await person("Ada Admin");
    await addMember(projectId, admin, "editor");
    const memberId = (await db().query.members.findFirst({
      where: (m, { and: a, eq: e }) => a(e(m.projectId, projectId), e(m.userId, admin.id)),
    }))!.id;
    await changeMemberRole(owner, { studioId, memberId, role: "admin" });
    const leaver = await person("Lee Leaver");
    await addMember(projectId, leaver, "developer");
    await leaveProject(leaver, studioId);
    const removed = await person("Rex Removed");
    await addMember(projectId, removed, "editor");
    await removeMember(owner, { studioId, memberEmail: removed.email });
    await transferOwnership(owner, studioId, admin.id);
    const newOwner = (await getUser(admin.id))!;
    await deleteProject(newOwner, studioId, "Events project");

    const rows = await eventsOf(projectId);
    expect(typesOf(rows)).toEqual(
      [
        "member.invited",
        "member.left",
        "member.removed",
        "member.roleChanged",
        "project.created",
        "project.deleted",
        "project.transferred",
      ].sort(),
    );
    const byType = Object.fromEntries(rows.map((r) => [r.type, r.payload]));
    expect(byType["member.roleChanged"]).toEqual({
      memberId,
      email: admin.email,
      role: "admin",
      previousRole: "editor",
    });
    expect(byType["member.invited"]).toMatchObject({ email: invited.email, role: "editor" });
    expect(byType["project.transferred"]).toEqual({ newOwnerEmail: admin.email });
    // The deleted project's events keep its name and studioId.
    expect(rows.every((r) => r.studioId === studioId && r.projectName === "Events project")).toBe(
      true,
    );
  });

  it("a fan-out job that runs twice creates each delivery once", async () => {
    allowPrivateAddresses(true);
    const owner = await person("Twice Owner");
    const project = await insertProject(owner.id);
    await addWebhook(owner, project.studioId, {
      url: endpoint.url,
      events: ["member.roleChanged"],
      format: "standard",
    });
    const member = await person("Twice Member");
    await addMember(project.id, member, "editor");
    const row = (await db().query.members.findFirst({
      where: (m, { eq: e }) => e(m.userId, member.id),
    }))!;
    await changeMemberRole(owner, { studioId: project.studioId, memberId: row.id, role: "admin" });
    const [event] = await eventsOf(project.id);
    const { fanOutEvent } = await import("~/services/events/consumers.server");
    await fanOutEvent(event.id);
    await fanOutEvent(event.id);
    await runQueuedJobs(EVENTS_FANOUT_JOB);
    await runQueuedJobs(WEBHOOK_DELIVERY_JOB);
    expect(endpoint.received).toHaveLength(1);
  });
});

describe("signed deliveries", () => {
  async function projectWithHook(events: string[], format: "standard" | "slack" = "standard") {
    allowPrivateAddresses(true);
    const owner = await person("Hook Owner");
    const project = await insertProject(owner.id);
    const hook = await addWebhook(owner, project.studioId, {
      url: endpoint.url,
      events: events as never,
      format,
    });
    return { owner, project, hook };
  }

  async function changeRole(owner: User, project: { id: string; studioId: string }) {
    const member = await person("Role Member");
    await addMember(project.id, member, "editor");
    const row = (await db().query.members.findFirst({
      where: (m, { eq: e }) => e(m.userId, member.id),
    }))!;
    await changeMemberRole(owner, { studioId: project.studioId, memberId: row.id, role: "admin" });
    return member;
  }

  it("delivers the event once, signed so that Webhook.verify accepts it, and logs it", async () => {
    const { owner, project, hook } = await projectWithHook(["member.roleChanged"]);
    expect(hook.secret).toMatch(/^whsec_/);
    const member = await changeRole(owner, project);
    await deliverAll();
    expect(endpoint.received).toHaveLength(1);
    const [{ headers, body }] = endpoint.received;
    expect(headers["webhook-signature"]).toMatch(/^v1,/);
    const verified = new Webhook(hook.secret).verify(body, {
      "webhook-id": String(headers["webhook-id"]),
      "webhook-timestamp": String(headers["webhook-timestamp"]),
      "webhook-signature": String(headers["webhook-signature"]),
    }) as { type: string; data: Record<string, unknown> };
    expect(verified.type).toBe("member.roleChanged");
    expect(verified.data).toMatchObject({
      project: { studioId: project.studioId },
      email: member.email,
      role: "admin",
    });
    const log = await listDeliveries(owner, project.studioId, hook.id);
    expect(log).toMatchObject([
      { eventType: "member.roleChanged", status: "succeeded", attempts: 1, responseStatus: 200 },
    ]);
    expect(log[0].responseBody).toBe("answer 200");
  });

  it("a webhook not subscribed to the event gets nothing", async () => {
    const { owner, project } = await projectWithHook(["project.deleted"]);
    await changeRole(owner, project);
    await deliverAll();
    expect(endpoint.received).toHaveLength(0);
  });

  it("the Slack format sends Slack's text and blocks", async () => {
    const { owner, project } = await projectWithHook(["member.roleChanged"], "slack");
    await changeRole(owner, project);
    await deliverAll();
    const body = JSON.parse(endpoint.received[0].body) as { text: string; blocks: unknown[] };
    expect(body.text).toContain("Member's role changed");
    expect(body.blocks.length).toBeGreaterThan(0);
  });

  it("a receiver answering 500 then 200 gets the delivery twice with the same webhook-id", async () => {
    const { owner, project, hook } = await projectWithHook(["member.roleChanged"]);
    endpoint.answers.push(500, 200);
    await changeRole(owner, project);
    await deliverAll();
    expect(endpoint.received).toHaveLength(1);
    const [first] = await listDeliveries(owner, project.studioId, hook.id);
    expect(first).toMatchObject({ status: "pending", attempts: 1, responseStatus: 500 });
    // The retry waits 30 s in the queue; its handler is what a worker would run then.
    const [scheduled] = await db()
      .select({ next: webhookDeliveries.nextAttemptAt })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, first.id));
    expect(scheduled.next!.getTime()).toBeGreaterThan(Date.now() + 20_000);
    const { deliverWebhook } = await import("~/services/webhooks/delivery.server");
    await deliverWebhook(first.id);
    expect(endpoint.received).toHaveLength(2);
    expect(endpoint.received[1].headers["webhook-id"]).toBe(
      endpoint.received[0].headers["webhook-id"],
    );
    const [after] = await listDeliveries(owner, project.studioId, hook.id);
    expect(after).toMatchObject({ status: "succeeded", attempts: 2, responseStatus: 200 });
  });

  it("Redeliver sends the same delivery again, with the same webhook-id", async () => {
    const { owner, project, hook } = await projectWithHook(["member.roleChanged"]);
    await changeRole(owner, project);
    await deliverAll();
    const [delivery] = await listDeliveries(owner, project.studioId, hook.id);
    await redeliver(owner, project.studioId, delivery.id);
    await runQueuedJobs(WEBHOOK_DELIVERY_JOB);
    expect(endpoint.received).toHaveLength(2);
    expect(endpoint.received[1].headers["webhook-id"]).toBe(delivery.id);
  });

  it("removing a webhook while its delivery's attempt is being recorded fails neither", async () => {
    const { owner, project, hook } = await projectWithHook(["member.roleChanged"]);
    await changeRole(owner, project);
    await runQueuedJobs(EVENTS_FANOUT_JOB);
    const [delivery] = await listDeliveries(owner, project.studioId, hook.id);
    const { deliverWebhook } = await import("~/services/webhooks/delivery.server");
    // The removal's DELETE locks the webhook's row, then (cascading) its deliveries'. The attempt
    // is let through to its transaction while the removal holds the webhook's row, and the
    // removal finishes only once the attempt waits in it: recording the attempt in the other
    // order made PostgreSQL fail one of the two with `deadlock detected`.
    let attempt: Promise<void> | undefined;
    await db().transaction(async (tx) => {
      await tx.select().from(webhooks).where(eq(webhooks.id, hook.id)).for("update");
      attempt = deliverWebhook(delivery.id);
      await expect
        .poll(async () => {
          const { rows } = (await db().execute(
            sql`select count(*)::int as waiting from pg_stat_activity
                where wait_event_type = 'Lock' and datname = current_database()`,
          )) as unknown as { rows: { waiting: number }[] };
          return rows[0].waiting;
        })
        .toBe(1);
      await tx.delete(webhooks).where(eq(webhooks.id, hook.id));
    });
    await expect(attempt).resolves.toBeUndefined();
    expect(endpoint.received).toHaveLength(1);
    const left = await db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, hook.id));
    expect(left).toEqual([]);
  });

  it("a receiver that hangs is cut at 10 s and the delivery is retried", async () => {
    const { owner, project, hook } = await projectWithHook(["member.roleChanged"]);
    endpoint.answers.push("hang");
    await changeRole(owner, project);
    const started = Date.now();
    await deliverAll();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(10_000);
    expect(took).toBeLessThan(15_000);
    const [delivery] = await listDeliveries(owner, project.studioId, hook.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, responseStatus: null });
    expect(delivery.responseBody).toBe("No answer within 10 s");
    const { deliverWebhook } = await import("~/services/webhooks/delivery.server");
    await deliverWebhook(delivery.id);
    const [after] = await listDeliveries(owner, project.studioId, hook.id);
    expect(after).toMatchObject({ status: "succeeded", attempts: 2 });
  }, 30_000);
});

describe("addresses that are not public", () => {
  it.each([
    "https://127.0.0.1/hook",
    "https://10.1.2.3/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/hook",
  ])("%s is refused at save without the setting", async (url) => {
    allowPrivateAddresses(false);
    const owner = await person("Guarded Owner");
    const project = await insertProject(owner.id);
    const refusal = await addWebhook(owner, project.studioId, {
      url,
      events: ["project.deleted"],
      format: "standard",
    }).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ fieldErrors: { url: [expect.stringMatching(/public/)] } });
  });

  it("http is refused without the setting", async () => {
    allowPrivateAddresses(false);
    const owner = await person("Http Owner");
    const project = await insertProject(owner.id);
    const refusal = await addWebhook(owner, project.studioId, {
      url: "http://hooks.example.com/x",
      events: ["project.deleted"],
      format: "standard",
    }).catch((error: unknown) => error);
    expect(refusal).toMatchObject({
      fieldErrors: { url: ["The address must start with https://"] },
    });
  });

  it("a name whose DNS answer turns private after the save is refused at delivery", async () => {
    allowPrivateAddresses(false);
    let answer = "93.184.216.34";
    const restore = useResolver(async () => [{ address: answer, family: 4 }]);
    try {
      const owner = await person("Rebind Owner");
      const project = await insertProject(owner.id);
      const hook = await addWebhook(owner, project.studioId, {
        url: "https://hooks.example.test/x",
        events: ["member.roleChanged"],
        format: "standard",
      });
      answer = "127.0.0.1";
      const member = await person("Rebind Member");
      await addMember(project.id, member, "editor");
      const row = (await db().query.members.findFirst({
        where: (m, { eq: e }) => e(m.userId, member.id),
      }))!;
      await changeMemberRole(owner, {
        studioId: project.studioId,
        memberId: row.id,
        role: "admin",
      });
      await deliverAll();
      expect(endpoint.received).toHaveLength(0);
      const [delivery] = await listDeliveries(owner, project.studioId, hook.id);
      expect(delivery.responseBody).toMatch(/127\.0\.0\.1, a loopback address/);
      expect(delivery).toMatchObject({ attempts: 1, responseStatus: null });
      const [stored] = await db()
        .select({ enabled: webhooks.enabled })
        .from(webhooks)
        .where(and(eq(webhooks.id, hook.id)));
      expect(stored.enabled).toBe(true);
    } finally {
      restore();
    }
  });
});
