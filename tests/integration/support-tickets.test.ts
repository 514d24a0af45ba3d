/**
 * The support desk (/sites/support): which tickets each person sees (the requester while a member
 * of its project, the project's owner and admins, platform admins, whose reads are on the
 * ticket's history: everyone else gets a 404), newest activity first
 * in keyset pages of 20 with a search; 'New ticket' with its field errors; the ticket page with
 * its conversation and event log ('Show more' / 'Collapse'); replies; status changes by platform
 * admins only; who is mailed. Also that /sites/support is not taken for a project's studioId.
 */
import { UNSAFE_flatRoutes } from "@remix-run/dev";
import { matchRoutes } from "@remix-run/react";
import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { members, outbox, supportTickets, ticketComments, ticketEvents } from "~/db/schema";
import remixConfig from "../../remix.config.js";
import { action as listAction, loader as listLoader } from "~/routes/_app.sites.support._index";
import {
  action as ticketAction,
  loader as ticketLoader,
} from "~/routes/_app.sites.support.$ticketId";
import type { TicketDetail, TicketPage, TicketProject } from "~/services/support-desk/types";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { locationOf, toastOf } from "../setup/matchers";
import { addMember } from "./studio-fixtures";

type TestUser = Awaited<ReturnType<typeof createUser>>;
type Person = TestUser & { cookie: string };

async function person(name: string, email?: string): Promise<Person> {
  const user = await createUser({ name, email });
  return { ...user, cookie: await sessionCookie(user.id) };
}

let admin: Person;
beforeAll(async () => {
  // The platform admin of the test database (PLATFORM_ADMIN_EMAILS in tests/setup/worker-db.ts).
  admin = await person("Sam Support", "admin@example.com");
});

/** A project with its owner, an editor, a member admin, an invitee and an outsider. */
async function team() {
  const [owner, editor, projectAdmin, invited, outsider] = await Promise.all([
    person("Olga Owner"),
    person("Ed Editor"),
    person("Ann Admin"),
    person("Ina Invited"),
    person("Otto Outsider"),
  ]);
  const project = await insertProject(owner.id, { name: `Bakery ${Date.now()}` });
  await addMember(project.id, editor, "editor");
  await addMember(project.id, projectAdmin, "admin");
  await addMember(project.id, invited, "editor", "invited");
  return { owner, editor, projectAdmin, invited, outsider, project };
}

async function list(who: Person, query = "") {
  const res = await call(listLoader, makeRequest(`/sites/support${query}`, { cookie: who.cookie }));
  expect(res.status).toBe(200);
  return (await res.json()) as { page: TicketPage; projects: TicketProject[]; now: string };
}

function createTicket(who: Person, form: Record<string, string>) {
  return call(
    listAction,
    makeRequest("/sites/support?index", {
      cookie: who.cookie,
      form: { intent: "ticket-create", ...form },
    }),
  );
}

/** Opens a ticket through the form; returns its id. */
async function openTicket(
  who: Person,
  form: { subject: string; description?: string; projectId?: string },
) {
  const res = await createTicket(who, { description: "Please help.", ...form });
  expect(res.status).toBe(302);
  const id = locationOf(res)!.split("/").pop()!;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id;
}

function viewTicket(who: Person | null, id: string, query = "") {
  return call(ticketLoader, makeRequest(`/sites/support/${id}${query}`, { cookie: who?.cookie }), {
    ticketId: id,
  });
}

async function ticket(who: Person, id: string, query = "") {
  const res = await viewTicket(who, id, query);
  expect(res.status).toBe(200);
  return ((await res.json()) as { ticket: TicketDetail }).ticket;
}

function postOnTicket(who: Person, id: string, form: Record<string, string>, query = "") {
  return call(
    ticketAction,
    makeRequest(`/sites/support/${id}${query}`, { cookie: who.cookie, form }),
    { ticketId: id },
  );
}

const reply = (who: Person, id: string, body: string) =>
  postOnTicket(who, id, { intent: "ticket-comment", body });
const setStatus = (who: Person, id: string, status: string, query = "") =>
  postOnTicket(who, id, { intent: "ticket-status", status }, query);

/** A few milliseconds, so two tickets' times differ. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

async function mailsTo(addresses: string[]) {
  return db().select().from(outbox).where(inArray(outbox.to, addresses));
}

describe("routing", () => {
  it("serves /sites/support and /sites/support/{id} with the support routes, not a project's dashboard", () => {
    const manifest = UNSAFE_flatRoutes("app", remixConfig.ignoredRouteFiles);
    type Routes = Parameters<typeof matchRoutes>[0];
    const childrenOf = (parentId: string): Routes =>
      Object.values(manifest)
        .filter((r) => (r.parentId ?? "root") === parentId)
        .map((r) =>
          r.index
            ? { id: r.id, path: r.path, index: true }
            : { id: r.id, path: r.path, children: childrenOf(r.id) },
        );
    const leaf = (path: string) => matchRoutes(childrenOf("root"), path)?.at(-1)?.route.id;
    expect(leaf("/sites/support")).toBe("routes/_app.sites.support._index");
    expect(leaf("/sites/support/0b7c2a6e-1a7e-4b8e-9a55-2f1f6f0e9d11")).toBe(
      "routes/_app.sites.support.$ticketId",
    );
    // A project's own page is still a project's.
    expect(leaf("/sites/my-studio")).toBe("routes/_app._project.sites.$studioId");
  });
});

describe("the ticket list", () => {
  it("shows each person the tickets they requested or whose project they may view; platform admins all", async () => {
    const t = await team();
    const about = await openTicket(t.editor, {
      subject: "Our contact form is broken",
      projectId: t.project.id,
    });
    const own = await openTicket(t.outsider, { subject: "How do I change my password?" });
    const ids = async (who: Person) => (await list(who)).page.tickets.map((x) => x.id);

    for (const viewer of [t.owner, t.editor, t.projectAdmin]) {
      expect(await ids(viewer), viewer.name).toContain(about);
      expect(await ids(viewer), viewer.name).not.toContain(own);
    }
    // An invitation not accepted yet shows nothing of the project.
    expect(await ids(t.invited)).not.toContain(about);
    expect(await ids(t.outsider)).toEqual([own]);
    expect(await ids(admin)).toEqual(expect.arrayContaining([about, own]));

    const row = (await list(t.owner)).page.tickets.find((x) => x.id === about)!;
    expect(row).toMatchObject({
      subject: "Our contact form is broken",
      status: "open",
      project: { id: t.project.id, name: t.project.name, studioId: t.project.studioId },
      requesterName: "Ed Editor",
    });
    expect((await list(t.outsider)).page.tickets[0].project).toBeNull();
  });

  it("is empty for someone without tickets, and offers only the projects they may view", async () => {
    const t = await team();
    await insertProject(t.outsider.id, { name: "Zebra site" });
    const { page, projects } = await list(t.invited);
    expect(page).toEqual({ tickets: [], nextCursor: null, q: "" });
    expect(projects).toEqual([]);
    const mine = await list(t.editor);
    expect(mine.projects.map((p) => p.id)).toEqual([t.project.id]);
  });

  it("sorts by last activity, newest first: a reply moves a ticket to the top", async () => {
    const someone = await person("Rita Requester");
    const first = await openTicket(someone, { subject: "First" });
    await pause();
    const second = await openTicket(someone, { subject: "Second" });
    expect((await list(someone)).page.tickets.map((x) => x.subject)).toEqual(["Second", "First"]);
    await pause();
    await reply(someone, first, "Any news?");
    expect((await list(someone)).page.tickets.map((x) => x.id)).toEqual([first, second]);
  });

  it("reads 20 at a time with a cursor to older tickets, and searches subjects", async () => {
    const someone = await person("Pia Pages");
    const base = Date.parse("2026-01-01T00:00:00.000Z");
    await db()
      .insert(supportTickets)
      .values(
        Array.from({ length: 25 }, (_, i) => ({
          subject: i === 7 ? "Invoice 100% wrong" : `Question ${i}`,
          description: "x",
          requesterId: someone.id,
          // The newest five share a time: the id keeps their order across pages.
          createdAt: new Date(base + Math.min(i, 20) * 60_000),
          updatedAt: new Date(base + Math.min(i, 20) * 60_000),
        })),
      );
    const first = await list(someone);
    expect(first.page.tickets).toHaveLength(20);
    expect(first.page.nextCursor).toEqual(expect.any(String));
    const second = await list(someone, `?after=${first.page.nextCursor}`);
    expect(second.page.tickets).toHaveLength(5);
    expect(second.page.nextCursor).toBeNull();
    const all = [...first.page.tickets, ...second.page.tickets];
    expect(new Set(all.map((x) => x.id)).size).toBe(25);
    const times = all.map((x) => x.updatedAt);
    expect(times).toEqual([...times].sort().reverse());

    const found = await list(someone, `?q=${encodeURIComponent("100%")}`);
    expect(found.page.tickets.map((x) => x.subject)).toEqual(["Invoice 100% wrong"]);
    expect(found.page.q).toBe("100%");
    // A broken cursor reads the first page.
    expect((await list(someone, "?after=%%%garbage")).page.tickets).toHaveLength(20);
  });
});

describe("New ticket", () => {
  it("creates an open ticket with a TicketCreated event and goes to its page with a toast", async () => {
    const t = await team();
    const res = await createTicket(t.editor, {
      subject: "  The site is\n down  ",
      projectId: t.project.id,
      description: "Since this morning.\nNothing loads.",
    });
    expect(res.status).toBe(302);
    expect(locationOf(res)).toMatch(/^\/sites\/support\/[0-9a-f-]{36}$/);
    expect(await toastOf(res)).toMatchObject({ type: "success", title: "Ticket created" });
    const id = locationOf(res)!.split("/").pop()!;
    const view = await ticket(t.editor, id);
    expect(view).toMatchObject({
      subject: "The site is down",
      description: "Since this morning.\nNothing loads.",
      status: "open",
      project: { name: t.project.name },
      requester: { name: "Ed Editor" },
      comments: [],
      eventCount: 1,
      canChangeStatus: false,
    });
    expect(view.events).toEqual([
      expect.objectContaining({ eventName: "TicketCreated", actorName: "Ed Editor", detail: null }),
    ]);
  });

  it("answers missing or too long fields with messages beside them, and creates nothing", async () => {
    const someone = await person("Fay Fields");
    const res = await createTicket(someone, { subject: " ", description: "" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.subject).toEqual(["Subject is required"]);
    expect(body.result.error.description).toEqual(["Description is required"]);

    const long = await createTicket(someone, {
      subject: "s".repeat(201),
      description: "d".repeat(5001),
    });
    expect(long.status).toBe(400);
    const longBody = (await long.json()) as { result: { error: Record<string, string[]> } };
    expect(longBody.result.error.subject).toEqual(["At most 200 characters"]);
    expect(longBody.result.error.description).toEqual(["At most 5000 characters"]);
    expect(
      await db().select().from(supportTickets).where(eq(supportTickets.requesterId, someone.id)),
    ).toEqual([]);
  });

  it("refuses a project the user may not view, as it would one that does not exist", async () => {
    const t = await team();
    for (const projectId of [t.project.id, "00000000-0000-4000-8000-000000000000", "nope"]) {
      const res = await createTicket(t.outsider, {
        subject: "Let me in",
        projectId,
        description: "Please.",
      });
      expect(res.status, projectId).toBe(400);
      const body = (await res.json()) as { result: { error: Record<string, string[]> } };
      expect(body.result.error.projectId).toEqual(["Choose one of your projects, or none"]);
    }
    // The invitee too: the project is theirs only once they accept.
    expect(
      (await createTicket(t.invited, { subject: "x", projectId: t.project.id, description: "y" }))
        .status,
    ).toBe(400);
    expect(
      await db().select().from(supportTickets).where(eq(supportTickets.requesterId, t.outsider.id)),
    ).toEqual([]);
  });

  it("drops NUL characters, which PostgreSQL cannot store, from tickets, replies and searches", async () => {
    const someone = await person("Nul Nelly");
    const id = await openTicket(someone, { subject: "A\u0000B", description: "C\u0000D" });
    await reply(someone, id, "E\u0000F");
    const view = await ticket(someone, id);
    expect([view.subject, view.description, view.comments[0].body]).toEqual(["AB", "CD", "EF"]);
    expect((await list(someone, "?q=%00")).page.tickets.map((x) => x.id)).toEqual([id]);
  });

  it("sends anonymous visitors to the login page", async () => {
    const res = await call(
      listAction,
      makeRequest("/sites/support?index", {
        form: { intent: "ticket-create", subject: "x", description: "y" },
      }),
    );
    expect(locationOf(res)).toMatch(/^\/auth\/login/);
  });
});

describe("the ticket page", () => {
  it("is a 404 for everyone who may not see the ticket, as for one that does not exist", async () => {
    const t = await team();
    const id = await openTicket(t.owner, { subject: "Private", projectId: t.project.id });
    for (const who of [t.owner, t.projectAdmin, admin]) {
      expect((await viewTicket(who, id)).status, who.name).toBe(200);
    }
    // Editors and developers read only the tickets they opened (decision 019, amended).
    for (const who of [t.editor, t.invited, t.outsider]) {
      expect((await viewTicket(who, id)).status, who.name).toBe(404);
    }
    const stranger = await person("Sid Stranger");
    expect((await viewTicket(stranger, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await viewTicket(stranger, "not-a-ticket")).status).toBe(404);
    // Nor can they write on it: a 404, and nothing stored.
    expect((await reply(t.outsider, id, "hello?")).status).toBe(404);
    expect((await setStatus(t.outsider, id, "resolved")).status).toBe(404);
    expect(await db().select().from(ticketComments).where(eq(ticketComments.ticketId, id))).toEqual(
      [],
    );
  });

  it("a ticket without a project is its requester's and support's only", async () => {
    const t = await team();
    const id = await openTicket(t.editor, { subject: "About my account" });
    expect((await viewTicket(t.editor, id)).status).toBe(200);
    expect((await viewTicket(admin, id)).status).toBe(200);
    expect((await viewTicket(t.owner, id)).status).toBe(404);
  });

  it("lists the conversation oldest first, support's replies marked", async () => {
    const t = await team();
    const id = await openTicket(t.editor, { subject: "Slow pages", projectId: t.project.id });
    await reply(t.editor, id, "It takes 10 seconds.");
    await reply(admin, id, "We are looking into it.");
    await reply(t.owner, id, "Same here.");
    const view = await ticket(t.owner, id);
    expect(view.comments.map((c) => [c.authorName, c.fromSupport, c.body])).toEqual([
      ["Ed Editor", false, "It takes 10 seconds."],
      ["Sam Support", true, "We are looking into it."],
      ["Olga Owner", false, "Same here."],
    ]);
  });

  it("shows the 3 latest events, and all of them with ?events=all", async () => {
    const t = await team();
    const id = await openTicket(t.editor, { subject: "Many events", projectId: t.project.id });
    await reply(t.editor, id, "one");
    await setStatus(admin, id, "in_progress");
    await reply(admin, id, "two");
    await setStatus(admin, id, "on_hold");
    const latest = await ticket(t.editor, id);
    expect(latest.eventCount).toBe(5);
    expect(latest.events.map((e) => e.eventName)).toEqual([
      "TicketUpdated",
      "CommentAdded",
      "TicketUpdated",
    ]);
    expect(latest.events[0]).toMatchObject({
      actorName: "Sam Support",
      detail: "Status: In Progress -> On Hold",
    });
    const all = await ticket(t.editor, id, "?events=all");
    expect(all.events.map((e) => e.eventName)).toEqual([
      "TicketUpdated",
      "CommentAdded",
      "TicketUpdated",
      "CommentAdded",
      "TicketCreated",
    ]);
    expect(all.events.at(-1)).toMatchObject({ actorName: "Ed Editor" });
  });
});

describe("replies", () => {
  it("the requester's reply adds a CommentAdded event, bumps the last activity and mails nobody", async () => {
    const t = await team();
    const id = await openTicket(t.editor, { subject: "Quiet reply", projectId: t.project.id });
    const before = await ticket(t.editor, id);
    await pause();
    const res = await reply(t.editor, id, "More details: it is the footer.");
    expect(res.status).toBe(302);
    expect(locationOf(res)).toBe(`/sites/support/${id}`);
    expect(await toastOf(res)).toMatchObject({ type: "success", title: "Reply sent" });
    const after = await ticket(t.editor, id);
    expect(after.events[0]).toMatchObject({ eventName: "CommentAdded", actorName: "Ed Editor" });
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(
      await mailsTo([t.editor.email, t.owner.email, t.projectAdmin.email, admin.email]),
    ).toEqual([]);
  });

  it("support's reply mails the requester and the project's owner and admins, not the editor or the author", async () => {
    const t = await team();
    const id = await openTicket(t.editor, { subject: "Broken images", projectId: t.project.id });
    const res = await reply(admin, id, "Fixed: please reload.");
    expect(res.status).toBe(302);
    const mails = await mailsTo([
      t.editor.email,
      t.owner.email,
      t.projectAdmin.email,
      t.invited.email,
      admin.email,
    ]);
    expect(mails.map((m) => m.to).sort()).toEqual(
      [t.editor.email, t.owner.email, t.projectAdmin.email].sort(),
    );
    for (const mail of mails) {
      expect(mail.subject).toBe("Support replied: Broken images");
      expect(mail.text).toContain("Fixed: please reload.");
      expect(mail.text).toContain(`http://localhost:3000/sites/support/${id}`);
    }
  });

  it("support's reply on a ticket without a project mails only its requester", async () => {
    const t = await team();
    const id = await openTicket(t.editor, { subject: "My account" });
    await reply(admin, id, "Done.");
    const mails = await mailsTo([t.editor.email, t.owner.email, t.projectAdmin.email, admin.email]);
    expect(mails.map((m) => m.to)).toEqual([t.editor.email]);
    expect(mails[0].text).not.toContain("(about ");
  });

  it("answers an empty reply with its message, and stores nothing", async () => {
    const someone = await person("Eve Empty");
    const id = await openTicket(someone, { subject: "Empty" });
    const res = await reply(someone, id, "   ");
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.body).toEqual(["Write a reply first"]);
    expect(await db().select().from(ticketComments).where(eq(ticketComments.ticketId, id))).toEqual(
      [],
    );
  });
});

describe("status", () => {
  it("a platform admin sets it: a TicketUpdated event, the new label, mails but not to the admin", async () => {
    const t = await team();
    const id = await openTicket(t.editor, { subject: "Status please", projectId: t.project.id });
    const res = await setStatus(admin, id, "in_progress", "?events=all");
    expect(res.status).toBe(302);
    expect(locationOf(res)).toBe(`/sites/support/${id}?events=all`);
    expect(await toastOf(res)).toMatchObject({
      type: "success",
      title: "Status updated",
      description: "The ticket is now In Progress.",
    });
    const view = await ticket(t.editor, id);
    expect(view.status).toBe("in_progress");
    expect(view.events[0]).toMatchObject({
      eventName: "TicketUpdated",
      actorName: "Sam Support",
      detail: "Status: Open -> In Progress",
    });
    expect((await ticket(admin, id)).canChangeStatus).toBe(true);
    const mails = await mailsTo([t.editor.email, t.owner.email, t.projectAdmin.email, admin.email]);
    expect(mails.map((m) => m.to).sort()).toEqual(
      [t.editor.email, t.owner.email, t.projectAdmin.email].sort(),
    );
    expect(mails[0].subject).toBe("Ticket In Progress: Status please");
    expect(mails[0].text).toContain("Status: Open -> In Progress");
  });

  it("setting the same status again changes nothing", async () => {
    const someone = await person("Stu Same");
    const id = await openTicket(someone, { subject: "Same" });
    const res = await setStatus(admin, id, "open");
    expect(await toastOf(res)).toMatchObject({ type: "info", title: "The status is unchanged" });
    expect(
      await db()
        .select()
        .from(ticketEvents)
        .where(and(eq(ticketEvents.ticketId, id), eq(ticketEvents.eventName, "TicketUpdated"))),
    ).toEqual([]);
    expect(await mailsTo([someone.email])).toEqual([]);
  });

  it("is refused to everyone else who sees the ticket, with an error toast and no change", async () => {
    const t = await team();
    const id = await openTicket(t.editor, {
      subject: "Not yours to close",
      projectId: t.project.id,
    });
    for (const who of [t.editor, t.owner, t.projectAdmin]) {
      const res = await setStatus(who, id, "resolved");
      expect(res.status, who.name).toBe(302);
      expect(await toastOf(res), who.name).toMatchObject({
        type: "error",
        title: "Failed to update the status",
        description: "Only the support team can change the status of a ticket",
      });
    }
    const view = await ticket(t.editor, id);
    expect(view.status).toBe("open");
    expect(view.eventCount).toBe(1);
  });

  it("refuses a status that does not exist", async () => {
    const someone = await person("Una Unknown");
    const id = await openTicket(someone, { subject: "Odd" });
    const res = await setStatus(admin, id, "closed");
    expect(res.status).toBe(400);
    expect((await ticket(someone, id)).status).toBe("open");
  });
});

describe("who reads a ticket", () => {
  it("the owner and admins read every ticket of the project; editors and developers their own", async () => {
    const t = await team();
    const developer = await person("Dev Developer");
    await addMember(t.project.id, developer, "developer");
    const ownersTicket = await openTicket(t.owner, { subject: "Billing", projectId: t.project.id });
    const editorsTicket = await openTicket(t.editor, {
      subject: "Images",
      projectId: t.project.id,
    });
    const ids = async (who: Person) => (await list(who)).page.tickets.map((x) => x.id);

    for (const who of [t.owner, t.projectAdmin]) {
      expect(await ids(who), who.name).toEqual(
        expect.arrayContaining([ownersTicket, editorsTicket]),
      );
      for (const id of [ownersTicket, editorsTicket]) {
        expect((await viewTicket(who, id)).status, who.name).toBe(200);
      }
    }
    expect(await ids(t.editor)).toEqual([editorsTicket]);
    expect((await viewTicket(t.editor, ownersTicket)).status).toBe(404);
    expect(await ids(developer)).toEqual([]);
    for (const id of [ownersTicket, editorsTicket]) {
      expect((await viewTicket(developer, id)).status).toBe(404);
      expect((await reply(developer, id, "Me too")).status).toBe(404);
    }
  });

  it("a requester removed from the project no longer reads, lists or hears of their ticket", async () => {
    const t = await team();
    const id = await openTicket(t.editor, { subject: "Before I go", projectId: t.project.id });
    expect((await viewTicket(t.editor, id)).status).toBe(200);
    await db()
      .delete(members)
      .where(and(eq(members.projectId, t.project.id), eq(members.userId, t.editor.id)));

    expect((await viewTicket(t.editor, id)).status).toBe(404);
    expect((await list(t.editor)).page.tickets).toEqual([]);
    expect((await reply(t.editor, id, "Still there?")).status).toBe(404);
    // The project's owner still reads it, and support's answer is not mailed to the editor.
    expect((await viewTicket(t.owner, id)).status).toBe(200);
    expect((await reply(admin, id, "Looking into it")).status).toBe(302);
    expect((await mailsTo([t.editor.email])).map((m) => m.to)).toEqual([]);
    expect((await mailsTo([t.owner.email])).length).toBe(1);
  });

  it("a platform admin's read is on the ticket's history, once an hour; customers' reads are not", async () => {
    const t = await team();
    const id = await openTicket(t.owner, { subject: "Read receipts", projectId: t.project.id });
    await ticket(t.owner, id);
    await ticket(t.projectAdmin, id);
    const viewed = () =>
      db()
        .select()
        .from(ticketEvents)
        .where(and(eq(ticketEvents.ticketId, id), eq(ticketEvents.eventName, "TicketViewed")));
    expect(await viewed()).toEqual([]);

    await ticket(admin, id);
    const seen = await ticket(admin, id);
    expect(await viewed()).toEqual([
      expect.objectContaining({ actorId: admin.id, actorName: "Sam Support" }),
    ]);
    // Shown in the ticket's events, to the customer too.
    const history = (await ticket(t.owner, id)).events;
    expect(history[0]).toMatchObject({
      eventName: "TicketViewed",
      actorName: "Sam Support",
      detail: "Read by the support team",
    });
    expect(seen.events.map((e) => e.eventName)).toContain("TicketViewed");

    // An hour later the next read is recorded again.
    await db()
      .update(ticketEvents)
      .set({ createdAt: sql`now() - interval '61 minutes'` })
      .where(and(eq(ticketEvents.ticketId, id), eq(ticketEvents.eventName, "TicketViewed")));
    await ticket(admin, id);
    expect(await viewed()).toHaveLength(2);
  });
});
