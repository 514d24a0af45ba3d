/**
 * What the dashboard needs of a help desk (docs/decisions/019-support-desk-behind-an-interface.md).
 * The pages talk only to a `SupportDesk`; the built-in one keeps tickets in our own tables, and an
 * outside desk (the original product used Zoho Desk) can take its place behind the same calls.
 *
 * Every call gets the signed-in user and applies the same rules, whoever stores the tickets:
 * - a ticket is seen by its requester while they may view its project (or it is about none), by
 *   the project's owner and accepted admins, and by platform admins, the support team, whose
 *   reads are recorded on the ticket (TicketViewed); to anyone else it does not exist
 *   (NotFoundError, never ForbiddenError, so ticket ids cannot be probed);
 * - whoever sees a ticket may reply; only platform admins change its status (ForbiddenError);
 * - the requester and the project's owner and admins hear about support's replies and status
 *   changes (by mail, or the outside desk's own notifications).
 * Times travel as ISO strings, so views go to the page as they are.
 */
import type { User } from "~/services/accounts/index.server";
import type { NewTicketInput, TicketEventName, TicketStatus } from "./support.schema";

export type { TicketEventName, TicketStatus };

/** A project a ticket is about, as the pages name and link it. */
export type TicketProject = { id: string; studioId: string; name: string };

/** A row of the ticket list. */
export type TicketSummary = {
  id: string;
  subject: string;
  status: TicketStatus;
  project: TicketProject | null;
  requesterName: string;
  /** The last activity: creation, a reply or a status change. */
  updatedAt: string;
};

export type TicketPage = {
  tickets: TicketSummary[];
  /** Pass as `after` for the next (older) page; null on the last page. */
  nextCursor: string | null;
  /** The search the page was read with, "" for none. */
  q: string;
};

export type TicketComment = {
  id: string;
  authorName: string;
  /** Written by the support team. */
  fromSupport: boolean;
  body: string;
  createdAt: string;
};

export type TicketEvent = {
  id: string;
  eventName: TicketEventName;
  actorName: string;
  /** What changed, e.g. 'Status: Open -> In Progress'. */
  detail: string | null;
  createdAt: string;
};

export type TicketDetail = {
  id: string;
  subject: string;
  description: string;
  status: TicketStatus;
  project: TicketProject | null;
  requester: { name: string };
  createdAt: string;
  updatedAt: string;
  /** Oldest first. */
  comments: TicketComment[];
  /** Newest first: the latest few, or up to EVENTS_MAX when all were asked for. */
  events: TicketEvent[];
  /** How many events the ticket has in all. */
  eventCount: number;
  /** Whether the viewer may change the status (platform admins). */
  canChangeStatus: boolean;
};

export interface SupportDesk {
  /** The user's tickets (every ticket for platform admins), newest activity first. */
  listTickets(user: User, options?: { after?: string; q?: string }): Promise<TicketPage>;
  /**
   * Opens a ticket (status open). `projectId` must be a project the user may view: otherwise
   * InvalidError with a message for the field.
   */
  createTicket(user: User, input: NewTicketInput): Promise<{ id: string }>;
  /** One ticket with its conversation and events; NotFoundError when the user may not see it. */
  getTicket(user: User, ticketId: string, options?: { allEvents?: boolean }): Promise<TicketDetail>;
  /** A reply on the ticket's conversation. */
  addComment(user: User, ticketId: string, body: string): Promise<void>;
  /** Sets the status (platform admins only); false when it already was that. */
  changeStatus(user: User, ticketId: string, status: TicketStatus): Promise<boolean>;
}
