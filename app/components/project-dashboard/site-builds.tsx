import { Link, useFetcher } from "@remix-run/react";
import { formatDistanceStrict } from "date-fns";
import { useEffect, useState, type MouseEvent } from "react";
import { Badge } from "~/components/ui/badge";
import { externalUrl, PROVIDER_LABEL, type ProviderRow } from "~/services/projects";
import type { DeploymentView } from "~/services/deployments/index.server";
import { buildsHref, numberedPages, type BuildsRequest, type BuildsView } from "./builds-view";
import { TableHead } from "~/components/ui/table-head";
import type { PartHeight } from "~/utils/page-load";

/** 3 skeleton rows while a page of builds loads. */
const SKELETON_ROWS = 3;
const COLUMNS = 7;

/** What a fetcher gets back from the dashboard's loader (it uses only these). */
type FetchedPage = { builds: BuildsView; now: string };

/**
 * The section's height before it is drawn (renderWhenNear): heading, providers and table head,
 * and a row per deployment (one for the empty or error row). Measured at 1280 and 375 px, where
 * the providers wrap.
 */
export function siteBuildsHeight(builds: BuildsView): PartHeight {
  return { fixed: [136, 186], row: [56, 56], rows: builds.ok ? builds.results.length || 1 : 1 };
}

/**
 * 'Site Builds': the hosting providers with their Primary / 'Not Deployed' / 'Deployed' labels
 * and a table of deployments. Page links are plain links (?page= for page-numbered providers,
 * ?prev=/?next= for cursor ones), so they work without JavaScript; with JavaScript a fetcher
 * loads the page in place and three skeleton rows show meanwhile.
 */
export function SiteBuilds({
  studioId,
  builds: loaded,
  providers,
  now: loadedNow,
}: {
  studioId: string;
  builds: BuildsView;
  providers: ProviderRow[];
  now: string;
}) {
  const fetcher = useFetcher<FetchedPage>();
  const [pending, setPending] = useState<string | null>(null);
  useEffect(() => {
    if (fetcher.state === "idle") setPending(null);
  }, [fetcher.state]);

  // A page fetched in place wins over the URL's page; refreshes revalidate both.
  const builds = fetcher.data?.builds ?? loaded;
  const now = fetcher.data?.now ?? loadedNow;
  const loading = pending !== null && fetcher.state !== "idle";

  const open = (event: MouseEvent<HTMLAnchorElement>, request: BuildsRequest) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return; // a new tab or window: let the browser follow the link
    }
    event.preventDefault();
    const href = buildsHref(studioId, request);
    setPending(href);
    fetcher.load(href);
  };

  return (
    <section aria-labelledby="site-builds-heading" className="space-y-4">
      <h2 id="site-builds-heading" className="text-lg font-semibold">
        Site Builds
      </h2>
      <Providers providers={providers} />
      <div className="relative overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="min-w-full text-left text-sm" aria-busy={loading}>
          <caption className="sr-only">
            Deployments of the site{loading ? " (loading)" : ""}
          </caption>
          <TableHead
            className="bg-slate-50 dark:bg-slate-900"
            cellClassName="px-3 py-2"
            columns={[
              "Deployment",
              "Branch",
              "State",
              "Label",
              "Created",
              "Updated",
              <span key="link" className="sr-only">
                Link
              </span>,
            ]}
          />
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {loading ? (
              <SkeletonRows />
            ) : !builds.ok ? (
              <tr>
                <td colSpan={COLUMNS} className="px-3 py-6 text-center">
                  <p role="alert" className="text-red-700 dark:text-red-400">
                    {builds.message || "Something went wrong"}
                  </p>
                  {builds.invalid ? (
                    <Link
                      to={buildsHref(studioId, {})}
                      preventScrollReset
                      className="mt-2 inline-block text-brand underline"
                    >
                      Go to the first page
                    </Link>
                  ) : null}
                </td>
              </tr>
            ) : builds.results.length === 0 ? (
              <tr>
                <td
                  colSpan={COLUMNS}
                  className="px-3 py-6 text-center text-slate-600 dark:text-slate-300"
                >
                  No data available
                </td>
              </tr>
            ) : (
              builds.results.map((deployment) => (
                <DeploymentRow key={deployment.id} deployment={deployment} now={now} />
              ))
            )}
          </tbody>
        </table>
      </div>
      {loading ? (
        <p role="status" className="sr-only">
          Loading builds
        </p>
      ) : null}
      {builds.ok ? <Pagination studioId={studioId} builds={builds} onOpen={open} /> : null}
    </section>
  );
}

function Providers({ providers }: { providers: ProviderRow[] }) {
  return (
    <ul aria-label="Hosting providers" className="flex flex-wrap gap-3">
      {providers.map((row) => {
        const url = externalUrl(row.site?.customDomain) ?? externalUrl(row.site?.url);
        return (
          <li
            key={row.provider}
            className="flex items-center gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm dark:border-slate-800"
          >
            <span className="font-medium">{PROVIDER_LABEL[row.provider]}</span>
            <Badge tone={row.primary ? "green" : row.label === "Deployed" ? "blue" : "gray"}>
              {row.label}
            </Badge>
            {url ? (
              <a
                href={url}
                target="_blank"
                rel="noopener noreferrer"
                className="text-brand underline"
              >
                {new URL(url).host}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

function SkeletonRows() {
  return (
    <>
      {Array.from({ length: SKELETON_ROWS }, (_, row) => (
        <tr key={row} aria-hidden="true" data-testid="build-skeleton">
          {Array.from({ length: COLUMNS }, (_, cell) => (
            <td key={cell} className="px-3 py-3">
              <div className="h-4 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

function Time({ iso, now }: { iso: string | null; now: string }) {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return <span>-</span>;
  // Relative to the loader's clock: the server render and hydration print the same words.
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {formatDistanceStrict(date, new Date(now), { addSuffix: true })}
    </time>
  );
}

function deploymentTitle(d: DeploymentView) {
  return (
    d.title ||
    d.meta?.githubCommitMessage ||
    (d.commitRef ? `Commit ${d.commitRef.slice(0, 7)}` : d.id)
  );
}

function DeploymentRow({ deployment: d, now }: { deployment: DeploymentView; now: string }) {
  const permalink = externalUrl(d.permalink) ?? externalUrl(d.deploySslUrl) ?? externalUrl(d.url);
  const title = deploymentTitle(d);
  return (
    <tr>
      <td className="max-w-xs px-3 py-2">
        <span className="block truncate font-medium" title={title}>
          {title}
        </span>
        {d.commitRef ? (
          <code className="text-xs text-slate-500">{d.commitRef.slice(0, 7)}</code>
        ) : null}
        {d.errorMessage ? (
          <span className="block text-xs text-red-700 dark:text-red-400">{d.errorMessage}</span>
        ) : null}
      </td>
      <td className="px-3 py-2">{d.branch ?? "-"}</td>
      <td className="px-3 py-2">{d.state}</td>
      <td className="px-3 py-2">
        {d.label === "Published" ? (
          <Badge tone="green">Published</Badge>
        ) : d.label === "Error" ? (
          <Badge tone="red">Error</Badge>
        ) : (
          <span className="sr-only">None</span>
        )}
      </td>
      <td className="whitespace-nowrap px-3 py-2">
        <Time iso={d.createdAt} now={now} />
      </td>
      <td className="whitespace-nowrap px-3 py-2">
        <Time iso={d.updatedAt} now={now} />
      </td>
      <td className="px-3 py-2">
        {permalink ? (
          <a
            href={permalink}
            target="_blank"
            rel="noopener noreferrer"
            className="whitespace-nowrap text-brand underline"
          >
            View deploy<span className="sr-only"> {title} (opens in a new tab)</span>
          </a>
        ) : null}
      </td>
    </tr>
  );
}

const pageLinkClass = (current = false) =>
  `rounded-md px-3 py-1 text-sm ${
    current
      ? "bg-slate-900 font-semibold text-white dark:bg-slate-100 dark:text-slate-900"
      : "border border-slate-300 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
  }`;

function Pagination({
  studioId,
  builds,
  onOpen,
}: {
  studioId: string;
  builds: Extract<BuildsView, { ok: true }>;
  onOpen: (event: MouseEvent<HTMLAnchorElement>, request: BuildsRequest) => void;
}) {
  const link = (
    request: BuildsRequest,
    label: string,
    extra: { current?: boolean; rel?: string; ariaLabel?: string } = {},
  ) => (
    <Link
      to={buildsHref(studioId, request)}
      onClick={(event) => onOpen(event, request)}
      preventScrollReset
      rel={extra.rel}
      aria-label={extra.ariaLabel}
      aria-current={extra.current ? "page" : undefined}
      className={pageLinkClass(extra.current)}
    >
      {label}
    </Link>
  );

  if (builds.isSiteOnVercel) {
    const { prev, next } = builds.pagination;
    if (!prev && !next) return null;
    return (
      <nav aria-label="Site builds pages" className="flex gap-2">
        {prev ? link({ prev }, "Previous", { rel: "prev" }) : null}
        {next ? link({ next }, "Next", { rel: "next" }) : null}
      </nav>
    );
  }

  const current = builds.request.page ?? 1;
  const hasNext = Boolean(builds.pagination.next);
  if (current === 1 && !hasNext) return null;
  return (
    <nav aria-label="Site builds pages">
      <ul className="flex flex-wrap gap-2">
        {current > 1 ? <li>{link({ page: current - 1 }, "Previous", { rel: "prev" })}</li> : null}
        {numberedPages(current, hasNext).map((p) => (
          <li key={p.page}>
            {link({ page: p.page }, p.label, {
              current: p.current,
              ariaLabel: `Page ${p.label}`,
            })}
          </li>
        ))}
        {hasNext ? <li>{link({ page: current + 1 }, "Next", { rel: "next" })}</li> : null}
      </ul>
    </nav>
  );
}
