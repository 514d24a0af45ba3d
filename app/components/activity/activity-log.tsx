import { Link, useFetcher, useLocation } from "@remix-run/react";
import { formatDistance } from "date-fns";
import { useId, useState } from "react";
import type { ActivityEntry } from "~/services/activity/index.server";
import type { PartHeight } from "~/utils/page-load";
import { absoluteTime, ACTIVITY_ANCHOR, activityHref, activityPagePath } from "./activity-query";

export type ActivityLogSectionProps = {
  /** The 3 latest events (or up to 1000 when `expanded`), newest first. */
  entries: ActivityEntry[];
  /** Visible events in all, so 'Show more' shows only when there are more. */
  total: number;
  /** The server already sent the expanded log (`?log=all`). */
  expanded: boolean;
  studioId: string;
  /** The loader's "now" (ISO), so server and browser render the same relative times. */
  now?: string;
  /** Where 'Collapse' goes when the server sent the expanded log; default: this page without ?log. */
  collapseHref?: string;
};

/**
 * The section's height before it is drawn (renderWhenNear): heading and link, and an entry per
 * event (three lines; four in a narrow window); an expanded list scrolls in a 32rem box.
 * Measured at 1280 and 375 px.
 */
export function activityLogHeight({ entries, expanded }: ActivityLogSectionProps): PartHeight {
  return {
    fixed: [73, 73],
    row: [72, 92],
    rows: entries.length,
    rowsAtMost: expanded ? 512 : undefined,
  };
}

type Fetched = { entries: ActivityEntry[]; total: number };

/**
 * The dashboard's Activity Log: the 3 latest events; 'Show more'
 * expands to up to 1000 and 'Collapse' returns. Both are links (`?log=all` and back), so they
 * work without JavaScript; with it, 'Show more' fetches the full log in place and 'Collapse'
 * shows the 3 latest again, without leaving the page.
 */
export function ActivityLogSection({
  entries,
  total,
  expanded,
  studioId,
  now,
  collapseHref,
}: ActivityLogSectionProps) {
  const location = useLocation();
  const fetcher = useFetcher<Fetched>();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const headingId = `${ACTIVITY_ANCHOR}-heading`;

  const fetched = open && fetcher.data ? fetcher.data : null;
  const shown = fetched ? fetched.entries : entries;
  const shownTotal = fetched ? fetched.total : total;
  const isExpanded = expanded || fetched !== null;
  const loading = open && fetcher.state === "loading";
  const hasMore = total > entries.length;

  return (
    <section
      id={ACTIVITY_ANCHOR}
      aria-labelledby={headingId}
      className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id={headingId} className="text-lg font-semibold">
        Activity Log
      </h2>
      {shown.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">Nothing to show here yet...</p>
      ) : (
        <ActivityList id={listId} entries={shown} now={now} scroll={isExpanded} />
      )}
      {isExpanded && shownTotal > shown.length ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Showing the latest {shown.length} of {shownTotal} events.
        </p>
      ) : null}
      {isExpanded ? (
        <Link
          to={collapseHref ?? activityHref(location, false)}
          preventScrollReset
          aria-controls={shown.length > 0 ? listId : undefined}
          aria-expanded
          className="inline-block text-sm font-medium text-brand underline"
          onClick={(event) => {
            // Expanded in place: collapse in place. Sent expanded by the server: follow the link.
            if (!fetched) return;
            event.preventDefault();
            setOpen(false);
          }}
        >
          Collapse
        </Link>
      ) : hasMore ? (
        <Link
          to={activityHref(location, true)}
          preventScrollReset
          aria-controls={shown.length > 0 ? listId : undefined}
          aria-expanded={false}
          aria-disabled={loading || undefined}
          className="inline-block text-sm font-medium text-brand underline"
          onClick={(event) => {
            event.preventDefault();
            if (loading) return;
            setOpen(true);
            fetcher.load(activityPagePath(studioId));
          }}
        >
          {loading ? "Loading..." : "Show more"}
        </Link>
      ) : null}
    </section>
  );
}

function ActivityList({
  id,
  entries,
  now,
  scroll,
}: {
  id: string;
  entries: ActivityEntry[];
  now?: string;
  scroll: boolean;
}) {
  const reference = now ? new Date(now) : new Date();
  return (
    <ol
      id={id}
      aria-label="Latest activity, newest first"
      // A long list scrolls inside the card; focusable so keyboards can scroll it too.
      tabIndex={scroll ? 0 : undefined}
      className={`divide-y divide-slate-200 dark:divide-slate-800 ${scroll ? "max-h-[32rem] overflow-y-auto pr-2" : ""}`}
    >
      {entries.map((entry) => (
        <li key={entry._key} className="py-2 text-sm">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className="font-medium">{entry.label}</span>
            <time
              dateTime={entry.timestamp}
              title={absoluteTime(entry.timestamp)}
              className="text-xs text-slate-600 dark:text-slate-300"
              suppressHydrationWarning
            >
              {relativeTime(entry.timestamp, reference)}
            </time>
          </div>
          <p className="text-slate-700 dark:text-slate-200">{entry.content}</p>
          {entry.metadata.email || entry.metadata.role ? (
            <p className="text-xs text-slate-600 dark:text-slate-300">
              {[entry.metadata.email, entry.metadata.role ? roleLabel(entry.metadata.role) : null]
                .filter(Boolean)
                .join(" · ")}
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/** "3 minutes ago"; a timestamp slightly ahead of `now` (clock skew) reads "less than a minute ago". */
export function relativeTime(iso: string, now: Date): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const base = date.getTime() > now.getTime() ? date : now;
  return formatDistance(date, base, { addSuffix: true });
}

function roleLabel(role: string) {
  return role ? role[0].toUpperCase() + role.slice(1) : role;
}
