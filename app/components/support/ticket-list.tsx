import { Link, useLocation } from "@remix-run/react";
import { SearchBox } from "~/components/lists/search-box";
import { urlWith } from "~/components/shell/shell-helpers";
import type { TicketPage } from "~/services/support-desk";
import { lastUpdated } from "~/services/support-desk";
import { TicketStatusBadge } from "./ticket-status-badge";
import { TableHead } from "~/components/ui/table-head";

/**
 * The tickets the user sees, newest activity first, 20 a page with a link to older ones; a
 * search on the subject. `now` is the loader's clock, so 'x minutes ago' reads the same on the
 * server and in the browser.
 */
export function TicketList({ page, now }: { page: TicketPage; now: string }) {
  const location = useLocation();
  return (
    <section aria-labelledby="tickets-heading" className="space-y-4">
      <h2 id="tickets-heading" className="text-lg font-semibold">
        Tickets
      </h2>
      <SearchBox
        id="ticket-search"
        query={page.q}
        label="Search tickets"
        placeholder="Search by subject"
        action="/sites/support"
      />
      {page.tickets.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {page.q
            ? `No ticket matches "${page.q}".`
            : "No tickets yet. Open one with New ticket whenever you need a hand."}
        </p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Support tickets, newest activity first</caption>
            <TableHead columns={["Subject", "Project", "Status", "Last update"]} />
            <tbody>
              {page.tickets.map((ticket) => (
                <tr key={ticket.id} className="border-t border-slate-200 dark:border-slate-800">
                  <th scope="row" className="py-2 pr-3 font-medium">
                    <Link to={`/sites/support/${ticket.id}`} className="text-brand hover:underline">
                      {ticket.subject}
                    </Link>
                  </th>
                  <td className="py-2 pr-3">{ticket.project?.name ?? "None"}</td>
                  <td className="py-2 pr-3">
                    <TicketStatusBadge status={ticket.status} />
                  </td>
                  <td className="whitespace-nowrap py-2">
                    <time dateTime={ticket.updatedAt}>{lastUpdated(ticket.updatedAt, now)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.nextCursor ? (
        <Link
          to={urlWith(location.pathname, location.search, { after: page.nextCursor })}
          className="text-sm font-medium text-brand hover:underline"
        >
          Older tickets
        </Link>
      ) : null}
    </section>
  );
}
