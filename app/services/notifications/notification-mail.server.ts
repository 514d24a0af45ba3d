/**
 * Who a project's notification mails may go to, and the mail itself (one event, or a digest's
 * several), with its unsubscribe link.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { Queryable } from "~/db/client.server";
import { members, projects, users } from "~/db/schema";
import type { ProjectRole } from "~/services/events";
import { absoluteUrl, type Mail } from "~/services/core/index.server";
import { eventLink, eventSentence } from "./mail-text";
import { eventLabel, type NotifiableEvent } from "./schema";
import { newUnsubscribeLink } from "./unsubscribe.server";

export type Person = { userId: string; email: string; name: string; role: ProjectRole };
type ProjectRef = { id: string; studioId: string; name: string };
type EventItem = { type: NotifiableEvent; payload: Record<string, unknown> };

/** The project's owner and accepted members with an account, each once, with their role. */
export async function peopleOf(tx: Queryable, projectId: string): Promise<Person[]> {
  const [owner] = await tx
    .select({ userId: users.id, email: users.email, name: users.name })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(eq(projects.id, projectId));
  if (!owner) return [];
  const rows = await tx
    .select({ userId: users.id, email: users.email, name: users.name, role: members.role })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(
      and(
        eq(members.projectId, projectId),
        eq(members.status, "accepted"),
        isNotNull(members.userId),
      ),
    );
  const people: Person[] = [{ ...owner, role: "owner" }];
  for (const row of rows) {
    if (!people.some((p) => p.userId === row.userId)) people.push(row);
  }
  return people;
}

/**
 * One notification mail to one person of one project: one event, or a digest's several. It
 * links to the project page and carries a fresh unsubscribe link, in its text and in the
 * List-Unsubscribe headers (RFC 2369, with RFC 8058's one-click POST).
 */
export async function notificationMail(
  tx: Queryable,
  person: Person,
  project: ProjectRef,
  items: EventItem[],
): Promise<Mail> {
  const { token, url } = await newUnsubscribeLink(tx, person.userId, project.id);
  const projectUrl = absoluteUrl(`/sites/${encodeURIComponent(project.studioId)}`);
  const lines = items.map((item) => {
    const link = eventLink(item.type, item.payload);
    const sentence = eventSentence(item.type, project.name, item.payload);
    return link ? `${sentence}\n${link}` : sentence;
  });
  const subject =
    items.length === 1
      ? `${eventLabel(items[0].type)}: ${project.name}`
      : `${items.length} events in ${project.name}`;
  const body =
    items.length === 1 ? lines[0] : lines.map((l) => `- ${l.replace("\n", "\n  ")}`).join("\n\n");
  const text = [
    `Hello ${person.name},`,
    items.length === 1 ? body : `Since our last mail about "${project.name}":\n\n${body}`,
    `The project: ${projectUrl}`,
    `You get this mail because of your notification settings: ${absoluteUrl("/sites/user-settings/notifications")}`,
    `To stop all notification mails about "${project.name}": ${url}`,
  ].join("\n\n");
  return {
    to: person.email,
    subject,
    text,
    secrets: [token],
    headers: {
      "List-Unsubscribe": `<${url}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
