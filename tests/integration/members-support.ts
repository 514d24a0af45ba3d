/** Shared setup of the members tests: projects, actors, the members API and the database rows. */
import { and, asc, eq, like, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { eventLogs, members, outbox, projectSites } from "~/db/schema";
import { hostingProvider } from "~/providers/hosting/index.server";
import { action as membersApi } from "~/routes/api.app.members";
import { getUser, type User } from "~/services/accounts/accounts.server";
import { createProject } from "~/services/projects/projects.server";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";

export type Actor = Awaited<ReturnType<typeof createUser>> & { cookie: string; user: User };

export async function actor(overrides: Parameters<typeof createUser>[0] = {}): Promise<Actor> {
  const row = await createUser(overrides);
  return { ...row, cookie: await sessionCookie(row.id), user: (await getUser(row.id))! };
}

let seq = 0;
export async function ownedProject(owner: Actor) {
  seq += 1;
  const { project } = await createProject(owner.user, {
    name: `Members test ${seq}`,
    idempotencyKey: `members-test-${seq}-${Math.random()}`,
  });
  return project;
}

/**
 * Gives a project of `ownedProject` its primary site (Vercel: a business site) at the local
 * hosting provider, as provisioning would; `name` is the site's name before the studioId.
 */
export async function withVercelSite(
  project: { _id: string; studioId: string; idempotencyKey: string },
  name = "site",
) {
  const site = await hostingProvider("vercel").createSite({
    name: `${name}-${project.studioId}`,
    idempotencyKey: project.idempotencyKey,
  });
  await db()
    .insert(projectSites)
    .values({ projectId: project._id, provider: "vercel", siteId: site.id, url: site.url });
  return site;
}

export function api(method: string, cookie: string | undefined, body: unknown) {
  return call(
    membersApi,
    makeRequest("/api/app/members", {
      method,
      cookie,
      ...(typeof body === "string"
        ? { body, headers: { "Content-Type": "application/json" } }
        : { json: body }),
    }),
  );
}

export const invite = (cookie: string, studioId: string, email: string, role?: string) =>
  api("POST", cookie, { studioId, email, ...(role ? { role } : {}) });

export async function memberRow(projectId: string, email: string) {
  const [row] = await db()
    .select()
    .from(members)
    .where(and(eq(members.projectId, projectId), eq(members.invitedEmail, email.toLowerCase())));
  return row;
}

export async function keyOf(projectId: string, email: string) {
  const row = await memberRow(projectId, email);
  if (!row?.invitationKey) throw new Error(`no invitation key for ${email}`);
  return row.invitationKey;
}

export function mailsTo(address: string) {
  return db()
    .select()
    .from(outbox)
    .where(eq(outbox.to, address.toLowerCase()))
    .orderBy(asc(outbox.createdAt));
}

export function eventsOf(projectId: string, typePrefix = "members.") {
  return db()
    .select()
    .from(eventLogs)
    .where(and(eq(eventLogs.projectId, projectId), like(eventLogs.type, `${typePrefix}%`)))
    .orderBy(asc(eventLogs.timestamp));
}

/** Invites `who` with the role and accepts through the API: an accepted member. */
export async function acceptedMember(
  owner: Actor,
  project: { _id: string; studioId: string },
  role: "editor" | "developer" | "admin" = "editor",
  who?: Actor,
) {
  const member = who ?? (await actor());
  const sent = await invite(owner.cookie, project.studioId, member.email, role);
  if (sent.status !== 201) throw new Error(`invite failed: ${sent.status} ${await sent.text()}`);
  const key = await keyOf(project._id, member.email);
  const res = await api("PATCH", member.cookie, {
    studioId: project.studioId,
    memberInvitationKey: key,
    action: "accept",
    email: member.email,
  });
  if (res.status !== 200) throw new Error(`accept failed: ${res.status} ${await res.text()}`);
  return { ...member, memberId: (await memberRow(project._id, member.email)).id };
}

/**
 * Runs `fn` while inserts into `table` matching `when` fail inside the database (a trigger), so a
 * step late in a transaction fails for real: what else the transaction did must roll back.
 */
export async function withFailingInsert<T>(
  table: "event_logs" | "outbox",
  when: string,
  fn: () => Promise<T>,
): Promise<T> {
  const name = `members_test_fail_${table}`;
  await db().execute(
    sql.raw(
      `create or replace function ${name}() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`,
    ),
  );
  await db().execute(
    sql.raw(
      `create trigger ${name} before insert on ${table} for each row when (${when}) execute function ${name}()`,
    ),
  );
  try {
    return await fn();
  } finally {
    await db().execute(sql.raw(`drop trigger if exists ${name} on ${table}`));
  }
}
