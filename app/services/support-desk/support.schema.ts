/**
 * The support desk's forms and words, shared by the pages (conform checks the same schemas in the
 * browser) and the desk implementations.
 */
import { z } from "zod";

export const TICKET_STATUSES = ["open", "in_progress", "on_hold", "resolved"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const STATUS_LABEL: Record<TicketStatus, string> = {
  open: "Open",
  in_progress: "In Progress",
  on_hold: "On Hold",
  resolved: "Resolved",
};

export function isTicketStatus(value: unknown): value is TicketStatus {
  return typeof value === "string" && (TICKET_STATUSES as readonly string[]).includes(value);
}

/** TicketViewed: a platform admin read the ticket as support (at most once an hour each). */
export const TICKET_EVENTS = [
  "TicketCreated",
  "TicketUpdated",
  "CommentAdded",
  "TicketViewed",
] as const;
export type TicketEventName = (typeof TICKET_EVENTS)[number];

export const SUBJECT_MAX = 200;
export const DESCRIPTION_MAX = 5000;
export const COMMENT_MAX = 5000;
/** Tickets per page of the list. */
export const TICKETS_PAGE = 20;
/** Events the ticket page shows until 'Show more'. */
export const EVENTS_SHOWN = 3;
/** The most events 'Show more' lists. */
export const EVENTS_MAX = 1000;
/** The most projects the new-ticket form offers. */
export const PROJECT_CHOICES_MAX = 500;

export const SUPPORT_MESSAGES = {
  created: "Ticket created",
  createFailed: "Failed to create the ticket",
  replied: "Reply sent",
  replyFailed: "Failed to send the reply",
  statusChanged: "Status updated",
  statusUnchanged: "The status is unchanged",
  statusFailed: "Failed to update the status",
  onlySupport: "Only the support team can change the status of a ticket",
  unknownProject: "Choose one of your projects, or none",
  notFound: "Ticket not found",
} as const;

/** One line: a subject travels into mail subjects, where a line break has no place. */
const oneLine = (value: string) => value.replace(/\s+/g, " ");

export const newTicketSchema = z.object({
  subject: z
    .string({ error: "Subject is required" })
    .trim()
    .min(1, "Subject is required")
    .max(SUBJECT_MAX, `At most ${SUBJECT_MAX} characters`)
    .transform(oneLine),
  projectId: z.uuid({ error: SUPPORT_MESSAGES.unknownProject }).optional(),
  description: z
    .string({ error: "Description is required" })
    .trim()
    .min(1, "Description is required")
    .max(DESCRIPTION_MAX, `At most ${DESCRIPTION_MAX} characters`),
});
export type NewTicketInput = z.output<typeof newTicketSchema>;

export const commentSchema = z.object({
  body: z
    .string({ error: "Write a reply first" })
    .trim()
    .min(1, "Write a reply first")
    .max(COMMENT_MAX, `At most ${COMMENT_MAX} characters`),
});

export const statusSchema = z.object({
  status: z.enum(TICKET_STATUSES, { error: "Choose a status" }),
});
