import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import { SectionCard } from "~/components/ui/section-card";
import { Button } from "~/components/ui/button";
import { CopyButton } from "~/components/ui/copy-button";
import { Field } from "~/components/ui/field";
import type { RangeChoice } from "~/services/analytics";
import { RANGE_PRESETS } from "~/services/analytics";
import type { AnalyticsView } from "~/services/analytics/index.server";
import { dayLabel, ViewsChart } from "./views-chart";
import { TableHead } from "~/components/ui/table-head";

const muted = "text-sm text-slate-600 dark:text-slate-300";
const number = new Intl.NumberFormat("en-US");

/** The period: presets as links, a custom period through a GET form (both work without JS). */
function RangePicker({ choice }: { choice: RangeChoice }) {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === pathname;
  return (
    <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
      <nav aria-label="Period">
        <ul className="flex gap-2">
          {RANGE_PRESETS.map((days) => {
            const current = choice.preset === days && !choice.errors;
            return (
              <li key={days}>
                <Link
                  to={`${pathname}?days=${days}`}
                  preventScrollReset
                  aria-current={current ? "page" : undefined}
                  className={
                    current
                      ? "inline-block rounded-md bg-brand px-3 py-1.5 text-sm font-medium text-white"
                      : "inline-block rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
                  }
                >
                  Last {days} days
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <Form
        method="get"
        preventScrollReset
        aria-label="Custom period"
        className="flex flex-wrap items-start gap-3"
      >
        <div className="w-44">
          <Field
            label="From"
            name="from"
            type="date"
            required
            defaultValue={choice.errors ? undefined : choice.range.from}
            errors={choice.errors?.from}
          />
        </div>
        <div className="w-44">
          <Field
            label="To"
            name="to"
            type="date"
            required
            defaultValue={choice.errors ? undefined : choice.range.to}
            errors={choice.errors?.to}
          />
        </div>
        <Button type="submit" variant="secondary" className="mt-6" disabled={loading}>
          {loading ? "Loading..." : "Show"}
        </Button>
      </Form>
    </div>
  );
}

function TopTable({
  caption,
  heading,
  rows,
  empty,
}: {
  caption: string;
  heading: string;
  rows: { label: string; views: number }[];
  empty: string;
}) {
  if (rows.length === 0) return <p className={muted}>{empty}</p>;
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <TableHead columns={[heading, { label: "Page views", numeric: true }]} />
      <tbody>
        {rows.map((r) => (
          <tr key={r.label} className="border-t border-slate-200 dark:border-slate-800">
            <th scope="row" className="break-all py-2 pr-3 font-normal">
              {r.label}
            </th>
            <td className="py-2 text-right tabular-nums">{number.format(r.views)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The Analytics page: the period, page views per day (chart and table with the same numbers),
 * top pages and referrers, and the tag that counts a live site's views.
 */
export function AnalyticsSections({ view, choice }: { view: AnalyticsView; choice: RangeChoice }) {
  const period = `${dayLabel(view.range.from)} to ${dayLabel(view.range.to)}`;
  const summary = `Page views per day, ${period}: ${number.format(view.total)} in all`;
  return (
    <div className="space-y-6">
      <RangePicker choice={choice} />

      <SectionCard id="page-views" title="Page views">
        <p className="text-sm">
          <strong className="text-2xl font-semibold tabular-nums">
            {number.format(view.total)}
          </strong>{" "}
          <span className={muted}>
            {view.total === 1 ? "page view" : "page views"}, {period} (UTC, {view.range.days} days)
          </span>
        </p>
        {view.total === 0 ? (
          <p className={muted}>
            No page views in this period yet. Views appear here a moment after visitors open the
            site.
          </p>
        ) : null}
        <ViewsChart days={view.days} summary={summary} />
        <div
          className="max-h-72 overflow-y-auto rounded-md border border-slate-200 dark:border-slate-800"
          tabIndex={0}
          role="region"
          aria-label="Page views per day as a table"
        >
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Page views per day</caption>
            <TableHead
              className="sticky top-0 bg-white dark:bg-slate-950"
              cellClassName="px-3 py-2"
              columns={["Day", { label: "Page views", numeric: true }]}
            />
            <tbody>
              {view.days.map((d) => (
                <tr key={d.day} className="border-t border-slate-200 dark:border-slate-800">
                  <th scope="row" className="px-3 py-1.5 font-normal">
                    <time dateTime={d.day}>{dayLabel(d.day)}</time>
                  </th>
                  <td className="px-3 py-1.5 text-right tabular-nums">{number.format(d.views)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </SectionCard>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <SectionCard id="top-pages" title="Top pages">
          <TopTable
            caption="Top pages"
            heading="Page"
            rows={view.topPages.map((p) => ({ label: p.path, views: p.views }))}
            empty="No pages viewed in this period."
          />
        </SectionCard>
        <SectionCard id="top-referrers" title="Top referrers">
          <TopTable
            caption="Top referrers"
            heading="Referring site"
            rows={view.topReferrers.map((r) => ({ label: r.referrer, views: r.views }))}
            empty="No visits from other sites in this period."
          />
        </SectionCard>
      </div>

      <SectionCard id="tracking-tag" title="Count views on your live site">
        <p className="text-sm">
          Add this tag to the <code>&lt;head&gt;</code> of every page of the site to count its views
          (the preview site of local hosting has it already). It sets no cookies and collects no
          personal data: only the page&apos;s path, the referring site and the day are counted.
        </p>
        <div className="flex items-start gap-2">
          {/* Focusable: on narrow screens the tag scrolls sideways, and keyboards must reach it. */}
          <pre
            tabIndex={0}
            aria-label="The analytics tag"
            className="min-w-0 flex-1 overflow-x-auto rounded-md bg-slate-100 p-3 text-xs dark:bg-slate-900"
          >
            <code>{view.snippet}</code>
          </pre>
          <CopyButton value={view.snippet} label="the analytics tag" />
        </div>
      </SectionCard>
    </div>
  );
}
