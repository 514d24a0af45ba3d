import { TableScroller } from "~/components/ui/table-scroller";
import { IntentForm } from "~/components/ui/intent-form";
import { Link, useLocation } from "@remix-run/react";
import { LocalDate } from "~/components/local-date";
import { urlWith } from "~/components/shell/shell-helpers";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { SelectField, TextareaField } from "~/components/ui/field";
import { useIntentForm } from "~/components/ui/use-intent-form";
import type { TicketDetail } from "~/services/support-desk";
import { lastUpdated } from "~/services/support-desk";
import {
  commentSchema,
  EVENTS_SHOWN,
  STATUS_LABEL,
  statusSchema,
  TICKET_STATUSES,
} from "~/services/support-desk";
import { useIsPending } from "~/utils/use-is-pending";
import { TicketStatusBadge } from "./ticket-status-badge";
import { TableHead } from "~/components/ui/table-head";

export const TICKET_COMMENT_INTENT = "ticket-comment";
export const TICKET_STATUS_INTENT = "ticket-status";
/** `?events=all`: the whole event log rather than the latest few. */
export const ALL_EVENTS = "all";

/**
 * One ticket: what was asked, the conversation (oldest first, support's replies marked), the
 * reply form, the status form for the support team, and the event log.
 */
export function TicketView({
  ticket,
  allEvents,
  now,
}: {
  ticket: TicketDetail;
  allEvents: boolean;
  now: string;
}) {
  return (
    <article className="space-y-8">
      <header className="space-y-3">
        <Link to="/sites/support" className="text-sm text-brand hover:underline">
          Support
        </Link>
        <h1 className="text-2xl font-semibold">{ticket.subject}</h1>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium text-slate-600 dark:text-slate-300">Status</dt>
          <dd>
            <TicketStatusBadge status={ticket.status} />
          </dd>
          <dt className="font-medium text-slate-600 dark:text-slate-300">Project</dt>
          <dd>
            {ticket.project ? (
              <Link to={`/sites/${ticket.project.studioId}`} className="text-brand hover:underline">
                {ticket.project.name}
              </Link>
            ) : (
              "None"
            )}
          </dd>
          <dt className="font-medium text-slate-600 dark:text-slate-300">Requester</dt>
          <dd>{ticket.requester.name}</dd>
          <dt className="font-medium text-slate-600 dark:text-slate-300">Opened</dt>
          <dd>
            <LocalDate value={ticket.createdAt} style="dateTime" />
          </dd>
          <dt className="font-medium text-slate-600 dark:text-slate-300">Last update</dt>
          <dd>
            <time dateTime={ticket.updatedAt}>{lastUpdated(ticket.updatedAt, now)}</time>
          </dd>
        </dl>
      </header>
      <section aria-labelledby="ticket-description-heading" className="space-y-2">
        <h2 id="ticket-description-heading" className="text-lg font-semibold">
          Description
        </h2>
        <p className="whitespace-pre-wrap break-words">{ticket.description}</p>
      </section>
      {ticket.canChangeStatus ? <StatusForm key={ticket.status} ticket={ticket} /> : null}
      <Conversation ticket={ticket} />
      {/* Keyed by the last activity: after a reply the form comes back empty. */}
      <ReplyForm key={ticket.updatedAt} />
      <EventLog ticket={ticket} allEvents={allEvents} />
    </article>
  );
}

function Conversation({ ticket }: { ticket: TicketDetail }) {
  return (
    <section aria-labelledby="ticket-conversation-heading" className="space-y-3">
      <h2 id="ticket-conversation-heading" className="text-lg font-semibold">
        Conversation
      </h2>
      {ticket.comments.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">No replies yet.</p>
      ) : (
        <ol className="space-y-3">
          {ticket.comments.map((comment) => (
            <li
              key={comment.id}
              aria-label={`${comment.fromSupport ? "Support reply" : "Reply"} by ${comment.authorName}`}
              className={`rounded-lg border p-3 ${
                comment.fromSupport
                  ? "border-blue-200 bg-blue-50 dark:border-blue-900 dark:bg-blue-950"
                  : "border-slate-200 dark:border-slate-800"
              }`}
            >
              <p className="flex flex-wrap items-center gap-2 text-sm">
                <span className="font-medium">{comment.authorName}</span>
                {comment.fromSupport ? <Badge tone="blue">Support</Badge> : null}
                <span className="text-slate-600 dark:text-slate-300">
                  <LocalDate value={comment.createdAt} style="dateTime" />
                </span>
              </p>
              <p className="mt-2 whitespace-pre-wrap break-words">{comment.body}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function ReplyForm() {
  // A refused reply comes back with what was typed: conform restores it from the reply.
  const [form, fields] = useIntentForm(TICKET_COMMENT_INTENT, commentSchema);
  const busy = useIsPending({ intent: TICKET_COMMENT_INTENT });
  return (
    <IntentForm form={form} className="max-w-2xl space-y-3">
      <TextareaField label="Reply" rows={4} field={fields.body} />
      <Button type="submit" disabled={busy}>
        {busy ? "Sending..." : "Send reply"}
      </Button>
    </IntentForm>
  );
}

/** The support team's status select and 'Update status'. */
function StatusForm({ ticket }: { ticket: TicketDetail }) {
  const [form, fields] = useIntentForm(TICKET_STATUS_INTENT, statusSchema, {
    defaultValue: { status: ticket.status },
  });
  const busy = useIsPending({ intent: TICKET_STATUS_INTENT });
  return (
    <IntentForm
      form={form}
      aria-label="Ticket status"
      className="flex max-w-md flex-wrap items-end gap-3"
    >
      <div className="min-w-[12rem] flex-1">
        <SelectField label="Status" field={fields.status}>
          {TICKET_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABEL[status]}
            </option>
          ))}
        </SelectField>
      </div>
      <Button type="submit" variant="secondary" disabled={busy}>
        {busy ? "Updating..." : "Update status"}
      </Button>
    </IntentForm>
  );
}

/**
 * The latest events, newest first; 'Show more' (`?events=all`) lists them all and 'Collapse'
 * goes back. Both are links, so they work without JavaScript.
 */
function EventLog({ ticket, allEvents }: { ticket: TicketDetail; allEvents: boolean }) {
  const location = useLocation();
  const more = !allEvents && ticket.eventCount > ticket.events.length;
  const collapse = allEvents && ticket.eventCount > EVENTS_SHOWN;
  return (
    <section aria-labelledby="ticket-events-heading" className="space-y-3">
      <h2 id="ticket-events-heading" className="text-lg font-semibold">
        Events
      </h2>
      <TableScroller label="Ticket log table">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">
            {allEvents ? "Events of the ticket" : "Latest events of the ticket"}, newest first
          </caption>
          <TableHead columns={["Event", "By", "Detail", "When"]} />
          <tbody>
            {ticket.events.map((event) => (
              <tr key={event.id} className="border-t border-slate-200 dark:border-slate-800">
                <td className="py-2 pr-3 font-mono text-xs">{event.eventName}</td>
                <td className="py-2 pr-3">{event.actorName}</td>
                <td className="py-2 pr-3">{event.detail ?? ""}</td>
                <td className="whitespace-nowrap py-2">
                  <LocalDate value={event.createdAt} style="timestamp" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroller>
      {more ? (
        <Link
          to={urlWith(location.pathname, location.search, { events: ALL_EVENTS })}
          preventScrollReset
          className="text-sm font-medium text-brand hover:underline"
        >
          Show more
        </Link>
      ) : null}
      {collapse ? (
        <Link
          to={urlWith(location.pathname, location.search, { events: null })}
          preventScrollReset
          className="text-sm font-medium text-brand hover:underline"
        >
          Collapse
        </Link>
      ) : null}
    </section>
  );
}
