/**
 * The built-in help desk: tickets, their conversation and their events in our own tables
 * (support_tickets, ticket_comments, ticket_events). Platform admins are the support team
 * (docs/decisions/011-platform-admins-as-support.md); the rules are those of `SupportDesk`
 * (./types.ts). Mails go through the outbox in the transaction of the change, and to the mail
 * job once it has committed.
 */
import {
  and,
  count,
  desc,
  eq,
  exists,
  ilike,
  inArray,
  isNull,
  lt,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import { db, type Queryable } from "~/db/client.server";
import {
  members,
  projects,
  supportTickets,
  ticketComments,
  ticketEvents,
  users,
} from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import { ForbiddenError, InvalidError, NotFoundError } from "~/services/core";
import { absoluteUrl, dispatchMail, queueMail } from "~/services/core/index.server";
import { firstPermitted, ownRelation } from "~/services/permissions/index.server";
import {
  EVENTS_MAX,
  EVENTS_SHOWN,
  isTicketStatus,
  STATUS_LABEL,
  SUPPORT_MESSAGES,
  TICKET_EVENTS,
  TICKETS_PAGE,
  type NewTicketInput,
  type TicketEventName,
  type TicketStatus,
} from "./support.schema";
import { decodeTimeCursor, encodeTimeCursor, likePattern } from "~/services/core/index.server";
import type { SupportDesk, TicketDetail, TicketPage, TicketProject } from "./types";
import { UUID } from "~/utils/uuid";

/** The most comments a ticket page shows: the latest ones, oldest first. */
const COMMENTS_MAX = 1000;

type TicketRow = typeof supportTickets.$inferSelect;
type ProjectRow = TicketProject & { ownerId: string };

/** PostgreSQL text cannot hold NUL characters: they are dropped rather than failing the query. */
const storable = (text: string) => text.split("\u0000").join("");

/** How people are named in the conversation, the events and the mails. */
const nameOf = (user: User) => user.name || user.email;

/**
 * Rows written by hand or by a later version may hold a status or event name we do not know:
 * they read as open / an update rather than breaking the page.
 */
const statusOf = (value: string): TicketStatus => (isTicketStatus(value) ? value : "open");
const eventOf = (value: string): TicketEventName =>
  (TICKET_EVENTS as readonly string[]).includes(value)
    ? (value as TicketEventName)
    : "TicketUpdated";

// ---------------------------------------------------------------------------------------------
// Who sees a ticket

/**
 * The tickets `user` sees, as SQL (docs/decisions/019-support-desk-behind-an-interface.md,
 * amended): those they requested while they may still view the ticket's project (or it is about
 * none), and every ticket of projects they own or are an accepted admin of. Editors and developers see only their own. Platform admins
 * see every ticket (no condition).
 */
function visibleTo(user: User): SQL | undefined {
  if (user.isAdmin) return undefined;
  const owned = db()
    .select({ id: projects.id })
    .from(projects)
    .where(eq(projects.ownerId, user.id));
  const memberOf = (adminOnly: boolean) =>
    db()
      .select({ id: members.projectId })
      .from(members)
      .where(
        and(
          eq(members.userId, user.id),
          eq(members.status, "accepted"),
          adminOnly ? eq(members.role, "admin") : undefined,
        ),
      );
  return or(
    and(
      eq(supportTickets.requesterId, user.id),
      or(
        isNull(supportTickets.projectId),
        inArray(supportTickets.projectId, owned),
        inArray(supportTickets.projectId, memberOf(false)),
      ),
    ),
    inArray(supportTickets.projectId, owned),
    inArray(supportTickets.projectId, memberOf(true)),
  );
}

/**
 * The same rule for one ticket, through the project permissions: "customer" for the requester
 * (while they may view its project) and the project's owner and admins, "support" for a
 * platform admin who sees it only as the support team, null for everyone else.
 */
async function accessTo(
  tx: Queryable,
  user: User,
  ticket: TicketRow,
  project: ProjectRow | null,
): Promise<"customer" | "support" | null> {
  const support = user.isAdmin ? ("support" as const) : null;
  if (!project) return ticket.requesterId === user.id ? "customer" : support;
  // The relation alone: a platform admin may view any project, and is support for it.
  const relation = await ownRelation(user, project, tx);
  if (relation.projectAdmin) return "customer";
  if (ticket.requesterId === user.id && relation.may("project.view")) return "customer";
  return support;
}

async function ticketRow(tx: Queryable, ticketId: string, lock = false) {
  if (!UUID.test(ticketId)) return undefined;
  const query = tx.select().from(supportTickets).where(eq(supportTickets.id, ticketId));
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

async function projectRow(tx: Queryable, projectId: string | null): Promise<ProjectRow | null> {
  if (!projectId) return null;
  const [row] = await tx
    .select({
      id: projects.id,
      studioId: projects.studioId,
      name: projects.name,
      ownerId: projects.ownerId,
    })
    .from(projects)
    .where(eq(projects.id, projectId));
  return row ?? null;
}

/** The ticket and its project, once `user` may see it; NotFoundError otherwise. */
async function visibleTicket(tx: Queryable, user: User, ticketId: string, lock = false) {
  const ticket = await ticketRow(tx, ticketId, lock);
  if (!ticket) throw new NotFoundError(SUPPORT_MESSAGES.notFound);
  const project = await projectRow(tx, ticket.projectId);
  const access = await accessTo(tx, user, ticket, project);
  if (!access) throw new NotFoundError(SUPPORT_MESSAGES.notFound);
  return { ticket, project, access };
}

/**
 * The time of a change to a locked ticket: now, but always after its last activity, so its
 * events keep the order they happened in even when two land in the same millisecond.
 */
const nextMoment = (ticket: TicketRow) =>
  new Date(Math.max(Date.now(), ticket.updatedAt.getTime() + 1));

const toProject = (project: ProjectRow | null): TicketProject | null =>
  project ? { id: project.id, studioId: project.studioId, name: project.name } : null;

// ---------------------------------------------------------------------------------------------
// Mail

/**
 * The user row of the outer query owns `projectId`, or is its accepted member (an admin, when
 * `adminOnly`): who stays on a ticket's mail.
 */
function onProject(tx: Queryable, projectId: string, adminOnly: boolean) {
  return or(
    exists(
      tx
        .select({ one: sql`1` })
        .from(projects)
        .where(and(eq(projects.id, projectId), eq(projects.ownerId, users.id))),
    ),
    exists(
      tx
        .select({ one: sql`1` })
        .from(members)
        .where(
          and(
            eq(members.projectId, projectId),
            eq(members.userId, users.id),
            adminOnly ? eq(members.role, "admin") : undefined,
            eq(members.status, "accepted"),
          ),
        ),
    ),
  );
}

/**
 * Who hears about support's replies and status changes: the requester (while they may still read
 * the ticket), and the owner and admins (accepted) of the ticket's project, except the person who
 * acted. One mail per address.
 */
async function recipients(tx: Queryable, ticket: TicketRow, actorId: string): Promise<string[]> {
  const people = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      or(
        and(
          eq(users.id, ticket.requesterId),
          ticket.projectId ? onProject(tx, ticket.projectId, false) : undefined,
        ),
        ticket.projectId ? onProject(tx, ticket.projectId, true) : undefined,
      ),
    );
  const addresses = people.filter((p) => p.id !== actorId).map((p) => p.email.toLowerCase());
  return [...new Set(addresses)].sort();
}

async function mailEveryone(
  tx: Queryable,
  ticket: TicketRow,
  actor: User,
  mail: { subject: string; lines: string[] },
): Promise<string[]> {
  const link = absoluteUrl(`/sites/support/${ticket.id}`);
  const ids: string[] = [];
  for (const to of await recipients(tx, ticket, actor.id)) {
    ids.push(
      await queueMail(tx, {
        to,
        subject: mail.subject,
        text: [...mail.lines, "", `Open the ticket: ${link}`, "", "The StackShift team"].join("\n"),
      }),
    );
  }
  return ids;
}

// ---------------------------------------------------------------------------------------------

async function listTickets(
  user: User,
  options: { after?: string; q?: string } = {},
): Promise<TicketPage> {
  const q = storable(options.q ?? "")
    .trim()
    .slice(0, 200);
  const cursor = decodeTimeCursor(options.after);
  const rows = await db()
    .select({
      id: supportTickets.id,
      subject: supportTickets.subject,
      status: supportTickets.status,
      updatedAt: supportTickets.updatedAt,
      projectId: projects.id,
      projectStudioId: projects.studioId,
      projectName: projects.name,
      requesterName: users.name,
      requesterEmail: users.email,
    })
    .from(supportTickets)
    .innerJoin(users, eq(users.id, supportTickets.requesterId))
    .leftJoin(projects, eq(projects.id, supportTickets.projectId))
    .where(
      and(
        visibleTo(user),
        q ? ilike(supportTickets.subject, likePattern(q)) : undefined,
        cursor
          ? or(
              lt(supportTickets.updatedAt, cursor.at),
              and(eq(supportTickets.updatedAt, cursor.at), lt(supportTickets.id, cursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(supportTickets.updatedAt), desc(supportTickets.id))
    .limit(TICKETS_PAGE + 1);
  const page = rows.slice(0, TICKETS_PAGE);
  return {
    tickets: page.map((r) => ({
      id: r.id,
      subject: r.subject,
      status: statusOf(r.status),
      project:
        r.projectId && r.projectStudioId && r.projectName !== null
          ? { id: r.projectId, studioId: r.projectStudioId, name: r.projectName }
          : null,
      requesterName: r.requesterName || r.requesterEmail,
      updatedAt: r.updatedAt.toISOString(),
    })),
    nextCursor:
      rows.length > TICKETS_PAGE ? encodeTimeCursor(page.at(-1)!.updatedAt, page.at(-1)!.id) : null,
    q,
  };
}

async function createTicket(user: User, input: NewTicketInput): Promise<{ id: string }> {
  const project = input.projectId ? await projectRow(db(), input.projectId) : null;
  if (input.projectId) {
    // A project the user may not view reads exactly like one that does not exist.
    if (!(await firstPermitted(user, project ? [project] : [], "project.view"))) {
      throw new InvalidError(SUPPORT_MESSAGES.unknownProject, {
        projectId: [SUPPORT_MESSAGES.unknownProject],
      });
    }
  }
  return db().transaction(async (tx) => {
    // Millisecond times, like the list's cursors.
    const now = new Date();
    const [ticket] = await tx
      .insert(supportTickets)
      .values({
        subject: storable(input.subject),
        description: storable(input.description),
        projectId: project?.id ?? null,
        requesterId: user.id,
        status: "open",
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: supportTickets.id });
    await tx.insert(ticketEvents).values({
      ticketId: ticket.id,
      eventName: "TicketCreated",
      actorId: user.id,
      actorName: nameOf(user),
      createdAt: now,
    });
    return { id: ticket.id };
  });
}

async function getTicket(
  user: User,
  ticketId: string,
  options: { allEvents?: boolean } = {},
): Promise<TicketDetail> {
  const { ticket, project, access } = await visibleTicket(db(), user, ticketId);
  if (access === "support") {
    // Support reading a customer's ticket is on the ticket's history: once per admin and hour
    // (ticket_events_viewed_hour_idx), however often the page is opened.
    await db()
      .insert(ticketEvents)
      .values({
        ticketId: ticket.id,
        eventName: "TicketViewed",
        actorId: user.id,
        actorName: nameOf(user),
        detail: "Read by the support team",
      })
      .onConflictDoNothing();
  }
  const [requester] = await db()
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, ticket.requesterId));
  const [comments, events, [{ n }]] = await Promise.all([
    db()
      .select()
      .from(ticketComments)
      .where(eq(ticketComments.ticketId, ticket.id))
      .orderBy(desc(ticketComments.createdAt), desc(ticketComments.id))
      .limit(COMMENTS_MAX),
    db()
      .select()
      .from(ticketEvents)
      .where(eq(ticketEvents.ticketId, ticket.id))
      .orderBy(desc(ticketEvents.createdAt), desc(ticketEvents.id))
      .limit(options.allEvents ? EVENTS_MAX : EVENTS_SHOWN),
    db().select({ n: count() }).from(ticketEvents).where(eq(ticketEvents.ticketId, ticket.id)),
  ]);
  return {
    id: ticket.id,
    subject: ticket.subject,
    description: ticket.description,
    status: statusOf(ticket.status),
    project: toProject(project),
    requester: { name: requester ? requester.name || requester.email : "Unknown" },
    createdAt: ticket.createdAt.toISOString(),
    updatedAt: ticket.updatedAt.toISOString(),
    comments: comments.reverse().map((c) => ({
      id: c.id,
      authorName: c.authorName,
      fromSupport: c.fromSupport,
      body: c.body,
      createdAt: c.createdAt.toISOString(),
    })),
    events: events.map((e) => ({
      id: e.id,
      eventName: eventOf(e.eventName),
      actorName: e.actorName,
      detail: e.detail,
      createdAt: e.createdAt.toISOString(),
    })),
    eventCount: Number(n),
    canChangeStatus: user.isAdmin,
  };
}

async function addComment(user: User, ticketId: string, text: string): Promise<void> {
  const body = storable(text);
  const mailIds = await db().transaction(async (tx) => {
    const { ticket, project } = await visibleTicket(tx, user, ticketId, true);
    // A platform admin writing on someone else's ticket speaks for the support team.
    const fromSupport = user.isAdmin && ticket.requesterId !== user.id;
    const now = nextMoment(ticket);
    await tx.insert(ticketComments).values({
      ticketId: ticket.id,
      authorId: user.id,
      authorName: nameOf(user),
      fromSupport,
      body,
      createdAt: now,
    });
    await tx.insert(ticketEvents).values({
      ticketId: ticket.id,
      eventName: "CommentAdded",
      actorId: user.id,
      actorName: nameOf(user),
      createdAt: now,
    });
    await tx.update(supportTickets).set({ updatedAt: now }).where(eq(supportTickets.id, ticket.id));
    if (!fromSupport) return [];
    const about = project ? ` (about ${project.name})` : "";
    return mailEveryone(tx, ticket, user, {
      subject: `Support replied: ${ticket.subject}`,
      lines: [
        `${nameOf(user)} from the support team replied to the ticket "${ticket.subject}"${about}:`,
        "",
        body,
      ],
    });
  });
  await dispatchMail(mailIds);
}

async function changeStatus(user: User, ticketId: string, status: TicketStatus): Promise<boolean> {
  const result = await db().transaction(async (tx) => {
    // Locked, so two admins changing it at once each record what they really changed.
    const { ticket, project } = await visibleTicket(tx, user, ticketId, true);
    if (!user.isAdmin) throw new ForbiddenError(SUPPORT_MESSAGES.onlySupport);
    const from = statusOf(ticket.status);
    if (from === status) return null;
    const now = nextMoment(ticket);
    const detail = `Status: ${STATUS_LABEL[from]} -> ${STATUS_LABEL[status]}`;
    await tx
      .update(supportTickets)
      .set({ status, updatedAt: now })
      .where(eq(supportTickets.id, ticket.id));
    await tx.insert(ticketEvents).values({
      ticketId: ticket.id,
      eventName: "TicketUpdated",
      actorId: user.id,
      actorName: nameOf(user),
      detail,
      createdAt: now,
    });
    const about = project ? ` (about ${project.name})` : "";
    return mailEveryone(tx, ticket, user, {
      subject: `Ticket ${STATUS_LABEL[status]}: ${ticket.subject}`,
      lines: [`${nameOf(user)} changed the ticket "${ticket.subject}"${about}.`, "", detail],
    });
  });
  if (result === null) return false;
  await dispatchMail(result);
  return true;
}

export const builtinSupportDesk: SupportDesk = {
  listTickets,
  createTicket,
  getTicket,
  addComment,
  changeStatus,
};
