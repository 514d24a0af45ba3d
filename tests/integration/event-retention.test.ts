/**
 * The hourly purge of project events (events/retention.server.ts) on PostgreSQL: events older
 * than 30 days go with their delivery log; newer ones, and old ones not yet fanned out, stay; a
 * deleted project's webhooks go once its `project.deleted` delivery has had its 24 hours.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { projectEvents, webhookDeliveries, webhooks } from "~/db/schema";
import { getUser } from "~/services/accounts/accounts.server";
import { EVENTS_FANOUT_JOB } from "~/services/events/emit.server";
import { EVENTS_PURGE_JOB, purgeOldEvents } from "~/services/events/retention.server";
import { changeMemberRole } from "~/services/members/members.server";
import { deleteProject } from "~/services/projects/project-deletion.server";
import { addWebhook } from "~/services/webhooks/index.server";
import { JOBS } from "~/jobs/index.server";
import { createUser, insertProject, runQueuedJobs } from "../helpers";
import { addMember } from "./studio-fixtures";
import { startReceiver } from "./webhook-receiver";

const endpoint = startReceiver();
const DAY = 24 * 60 * 60 * 1000;

async function hookedProject() {
  const owner = (await getUser((await createUser({ name: "Ret Owner" })).id))!;
  const project = await insertProject(owner.id, { name: "Retention project" });
  const hook = await addWebhook(owner, project.studioId, {
    url: endpoint.url,
    events: ["member.roleChanged", "project.deleted"],
    format: "standard",
  });
  return { owner, project, hook };
}

/** Writes `n` role changes (each an event with a delivery), fanned out. */
async function roleChanges(
  owner: NonNullable<Awaited<ReturnType<typeof getUser>>>,
  project: { id: string; studioId: string },
  n: number,
) {
  const member = (await getUser((await createUser()).id))!;
  await addMember(project.id, member, "editor");
  const row = (await db().query.members.findFirst({
    where: (m, { eq: e }) => e(m.userId, member.id),
  }))!;
  for (let i = 0; i < n; i += 1) {
    const role = i % 2 === 0 ? "admin" : "editor";
    await changeMemberRole(owner, { studioId: project.studioId, memberId: row.id, role });
  }
  await runQueuedJobs(EVENTS_FANOUT_JOB);
  return db().select().from(projectEvents).where(eq(projectEvents.projectId, project.id));
}

const age = (ids: string[], days: number) =>
  db()
    .update(projectEvents)
    .set({ createdAt: sql`now() - make_interval(days => ${days})` })
    .where(inArray(projectEvents.id, ids));

describe("the events' purge", () => {
  it("runs every hour", () => {
    expect(JOBS.find((job) => job.name === EVENTS_PURGE_JOB)?.schedule).toBe("23 * * * *");
  });

  it("removes events older than 30 days with their deliveries, keeps newer ones", async () => {
    const { owner, project, hook } = await hookedProject();
    const events = await roleChanges(owner, project, 3);
    expect(events).toHaveLength(3);
    const deliveries = () =>
      db().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id));
    expect(await deliveries()).toHaveLength(3);
    const [old, older, recent] = events.map((e) => e.id);
    await age([old], 31);
    await age([older], 45);
    await age([recent], 29);

    const { events: purged } = await purgeOldEvents();
    expect(purged).toBeGreaterThanOrEqual(2);
    const left = await db()
      .select({ id: projectEvents.id })
      .from(projectEvents)
      .where(eq(projectEvents.projectId, project.id));
    expect(left.map((e) => e.id)).toEqual([recent]);
    expect((await deliveries()).map((d) => d.eventId)).toEqual([recent]);
  });

  it("keeps an old event that was never fanned out", async () => {
    const { owner, project } = await hookedProject();
    const [event] = await roleChanges(owner, project, 1);
    await db()
      .update(projectEvents)
      .set({ fannedOutAt: null })
      .where(eq(projectEvents.id, event.id));
    await age([event.id], 40);
    await purgeOldEvents();
    const [kept] = await db().select().from(projectEvents).where(eq(projectEvents.id, event.id));
    expect(kept).toBeDefined();
  });

  it("removes a deleted project's webhooks 25 hours after the deletion, not before", async () => {
    const { owner, project, hook } = await hookedProject();
    await deleteProject(owner, project.studioId, "Retention project");
    await runQueuedJobs(EVENTS_FANOUT_JOB);
    const stored = () => db().select().from(webhooks).where(eq(webhooks.id, hook.id));
    // The day after: the project.deleted delivery may still be retrying.
    await purgeOldEvents(new Date(Date.now() + DAY));
    expect(await stored()).toHaveLength(1);
    const { webhooks: removed } = await purgeOldEvents(new Date(Date.now() + DAY + 2 * 3600_000));
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await stored()).toEqual([]);
    expect(
      await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id)),
    ).toEqual([]);
  });

  it("keeps the webhooks of a project that exists, however old", async () => {
    const { project, hook } = await hookedProject();
    await db()
      .update(webhooks)
      .set({ createdAt: sql`now() - interval '400 days'` })
      .where(eq(webhooks.projectId, project.id));
    await purgeOldEvents(new Date(Date.now() + 400 * DAY));
    expect(await db().select().from(webhooks).where(eq(webhooks.id, hook.id))).toHaveLength(1);
  });
});
