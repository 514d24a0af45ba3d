import { Form, Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { SEARCH_DEBOUNCE_MS } from "~/components/lists/search-box";
import { STATE_TONE } from "~/components/project-dashboard/status-badges";
import { Badge } from "~/components/ui/badge";
import { Spinner } from "~/components/ui/spinner";
import { usePopups, type Popups } from "~/utils/page-load";
import { searchText } from "~/web/list-query";
import {
  OVERLAY_PARAMS,
  projectCount,
  truncateProjectName,
  urlWith,
  type PickerPage,
  type PickerProject,
} from "./shell-helpers";

export const PICKER_SEARCH_ACTION = "/resources/picker";

/**
 * The layout loader's picker: the current page's project, and a page of the list only when
 * `?pq=` or `?pcursor=` ask for it (without JavaScript; `loaded`). With JavaScript the list
 * comes from /resources/picker when the picker opens.
 */
export type PickerData = PickerPage & { loaded: boolean; selected: PickerProject | null };

const triggerClass =
  "flex max-w-[16rem] cursor-pointer list-none items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800 wide:max-w-none [&::-webkit-details-marker]:hidden";
const panelClass =
  "z-50 w-[min(20rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-3 shadow-lg dark:border-slate-700 dark:bg-slate-900";
const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand focus:outline-none focus:ring-1 focus:ring-brand dark:border-slate-700 dark:bg-slate-950";

function Chevron() {
  return (
    <svg viewBox="0 0 20 20" className="h-4 w-4 shrink-0" fill="currentColor" aria-hidden>
      <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
    </svg>
  );
}

/**
 * The top bar's project picker. Before JavaScript: a <details> disclosure whose
 * search is a GET form (`?pq=`, read by the layout loader). With JavaScript, once Radix is loaded:
 * a Radix Popover whose search loads /resources/picker through a fetcher, lowercased and debounced.
 */
export function ProjectPicker({ picker }: { picker: PickerData }) {
  const popups = usePopups();
  const disclosure = useRef<HTMLDetailsElement>(null);
  const label = picker.selected ? truncateProjectName(picker.selected.name) : "Select project";
  return popups ? (
    <PickerPopover
      Popover={popups.Popover}
      picker={picker}
      label={label}
      // Opened before Radix arrived (the <details> is still on the page while this first
      // renders): the popover takes over open rather than closing under the person's pointer.
      openedBefore={disclosure.current?.open ?? false}
    />
  ) : (
    <PickerDisclosure disclosure={disclosure} picker={picker} label={label} />
  );
}

function PickerDisclosure({
  disclosure,
  picker,
  label,
}: {
  disclosure: RefObject<HTMLDetailsElement>;
  picker: PickerData;
  label: string;
}) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  // A new search replaces the old one and closes any open dialog or drawer; other params stay.
  const keep = [...params.entries()].filter(
    ([key]) =>
      key !== "pq" && key !== "pcursor" && !(OVERLAY_PARAMS as readonly string[]).includes(key),
  );
  return (
    <details ref={disclosure} className="relative" open={picker.loaded || undefined}>
      <summary className={triggerClass} title={picker.selected?.name}>
        <span className="truncate">{label}</span>
        <Chevron />
      </summary>
      {/* Narrow windows (and 400 % zoom): the panel spans the window instead of running past
          its right edge from where the picker sits (fixed, with the top left where it falls). */}
      <div
        className={`fixed inset-x-4 mt-2 sm:absolute sm:inset-x-auto sm:left-0 ${panelClass} max-sm:w-auto`}
      >
        <Form method="get" action={location.pathname} className="flex gap-2">
          {keep.map(([key, value], i) => (
            <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
          ))}
          <label className="sr-only" htmlFor="picker-search-nojs">
            Find project
          </label>
          <input
            id="picker-search-nojs"
            type="search"
            name="pq"
            placeholder="Find project"
            defaultValue={picker.query}
            autoComplete="off"
            className={inputClass}
          />
          <button
            type="submit"
            className="rounded-md border border-slate-300 px-3 text-sm dark:border-slate-700"
          >
            Search
          </button>
        </Form>
        {picker.cursor ? (
          <Link
            to={urlWith(location.pathname, location.search, { pcursor: null })}
            className="mt-2 block px-2 text-xs text-brand underline"
          >
            Back to the newest projects
          </Link>
        ) : null}
        {picker.loaded ? (
          <PickerBody
            projects={picker.projects}
            total={picker.total}
            selected={picker.selected}
            moreHref={
              picker.nextCursor
                ? urlWith(location.pathname, location.search, {
                    pq: picker.query,
                    pcursor: picker.nextCursor,
                  })
                : null
            }
          />
        ) : (
          // The list is a page load away: this page again with the picker open (?pq=).
          <Link
            to={urlWith(location.pathname, location.search, { pq: "" })}
            className="mt-3 block px-2 py-1 text-sm font-medium text-brand underline"
          >
            Show my projects
          </Link>
        )}
      </div>
    </details>
  );
}

function PickerPopover({
  Popover,
  picker,
  label,
  openedBefore,
}: {
  Popover: Popups["Popover"];
  picker: PickerData;
  label: string;
  openedBefore: boolean;
}) {
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState(picker.query);
  const fetcher = useFetcher<PickerPage>();
  const moreFetcher = useFetcher<PickerPage>();
  const [more, setMore] = useState<PickerPage[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  // The newest search asked for, and the last answer to it. Two loads can both land, in either
  // order: the route's first load waits for the route to be discovered, and a search typed
  // meanwhile does not cancel it. An answer to another search than the newest is never shown
  // (the server's searchText, applied here, names the same query); the newest one's answer lands
  // after it or has already been kept.
  const asked = useRef(picker.query);
  const [answer, setAnswer] = useState<PickerPage | null>(null);
  const search = (q: string) => {
    asked.current = q;
    fetcher.load(`${PICKER_SEARCH_ACTION}?q=${encodeURIComponent(q)}`);
  };
  useEffect(() => {
    const page = fetcher.data;
    if (page && page.query === searchText(asked.current)) setAnswer(page);
  }, [fetcher.data]);
  // The list is fetched when the picker first opens (unless the page came with it).
  const openPicker = (next: boolean) => {
    setOpen(next);
    if (next && !picker.loaded && !answer && fetcher.state === "idle") search(query);
  };
  const [takeOver] = useState(openedBefore);
  useEffect(() => {
    if (takeOver) openPicker(true);
    // Once, when the popover replaces a disclosure that was open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [takeOver]);
  // Until the first answer, the layout loader's page (empty unless ?pq= asked for it).
  const first = answer ?? picker;
  const waiting = !picker.loaded && !answer;

  // Pages appended by 'Load more' belong to one search: a new search starts over. Each page is
  // kept by its cursor, so a revalidated page replaces itself.
  const firstQuery = first.query;
  useEffect(() => setMore([]), [firstQuery]);
  useEffect(() => {
    const page = moreFetcher.data;
    if (!page?.cursor || page.query !== firstQuery) return;
    setMore((pages) => {
      const at = pages.findIndex((p) => p.cursor === page.cursor);
      if (at === -1) return [...pages, page];
      const copy = [...pages];
      copy[at] = page;
      return copy;
    });
  }, [moreFetcher.data, firstQuery]);

  const projects = useMemo(() => {
    const seen = new Set<string>();
    return [first, ...more]
      .flatMap((p) => p.projects)
      .filter((p) => !seen.has(p.studioId) && Boolean(seen.add(p.studioId)));
  }, [first, more]);
  const nextCursor = more.length ? more[more.length - 1].nextCursor : first.nextCursor;
  const loadMore = () => {
    if (!nextCursor || moreFetcher.state !== "idle") return;
    const params = new URLSearchParams({ q: first.query, cursor: nextCursor });
    moreFetcher.load(`${PICKER_SEARCH_ACTION}?${params}`);
  };

  return (
    <Popover.Root open={open} onOpenChange={openPicker}>
      <Popover.Trigger className={triggerClass} title={picker.selected?.name}>
        <span className="truncate">{label}</span>
        <Chevron />
      </Popover.Trigger>
      <Popover.Content
        align="start"
        sideOffset={8}
        aria-label="Projects"
        className={panelClass}
        onOpenAutoFocus={(e) => {
          // Focus the search box rather than the first link.
          e.preventDefault();
          document.getElementById("picker-search")?.focus();
        }}
      >
        <fetcher.Form
          method="get"
          action={PICKER_SEARCH_ACTION}
          role="search"
          onSubmit={() => clearTimeout(timer.current)}
          className="relative"
        >
          <label className="sr-only" htmlFor="picker-search">
            Find project
          </label>
          <input
            id="picker-search"
            type="search"
            name="q"
            placeholder="Find project"
            autoComplete="off"
            value={query}
            onChange={(e) => {
              // Search inputs are lowercased and debounced.
              const q = e.target.value.toLowerCase();
              setQuery(q);
              clearTimeout(timer.current);
              timer.current = setTimeout(() => search(q), SEARCH_DEBOUNCE_MS);
            }}
            className={inputClass}
          />
          {fetcher.state === "loading" ? (
            <span className="absolute right-2 top-2">
              <Spinner label="Searching projects" className="h-4 w-4" />
            </span>
          ) : null}
        </fetcher.Form>
        <PickerBody
          projects={projects}
          total={first.total}
          selected={picker.selected}
          loading={waiting}
          onNavigate={() => setOpen(false)}
          moreHref={
            nextCursor
              ? urlWith(location.pathname, location.search, {
                  pq: first.query || null,
                  pcursor: nextCursor,
                })
              : null
          }
          onMore={loadMore}
          loadingMore={moreFetcher.state !== "idle"}
        />
      </Popover.Content>
    </Popover.Root>
  );
}

function PickerBody({
  projects,
  total,
  selected,
  onNavigate,
  moreHref,
  onMore,
  loadingMore = false,
  loading = false,
}: {
  projects: PickerProject[];
  total: number;
  selected: PickerProject | null;
  /** The first page is on its way: a spinner rather than 'nothing found'. */
  loading?: boolean;
  onNavigate?: () => void;
  /** 'Load more' as a link (the next page, without JavaScript), or null on the last page. */
  moreHref: string | null;
  /** With JavaScript: appends the next page in place instead of following the link. */
  onMore?: () => void;
  loadingMore?: boolean;
}) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const keep = [...params.entries()].filter(([key]) => key !== "dialog");
  return (
    <div className="mt-3">
      <Link
        to="/sites"
        onClick={onNavigate}
        className="block px-2 py-1 text-xs font-semibold tracking-wide text-brand hover:underline"
      >
        ALL PROJECTS
      </Link>
      {loading ? (
        <p className="flex items-center gap-2 px-2 py-4 text-sm text-slate-600 dark:text-slate-300">
          <Spinner label="Loading projects" className="h-4 w-4" />
        </p>
      ) : projects.length === 0 ? (
        <p className="px-2 py-4 text-sm text-slate-600 dark:text-slate-300">
          Sorry, we couldn&apos;t find what you&apos;re looking for!
        </p>
      ) : (
        <>
          <p role="status" className="px-2 text-xs text-slate-600 dark:text-slate-300">
            {projectCount(total)}
          </p>
          <div className="mt-1 max-h-72 overflow-y-auto">
            <ul aria-label="Projects found">
              {projects.map((project) => (
                <li key={project.studioId}>
                  <Link
                    to={`/sites/${encodeURIComponent(project.studioId)}`}
                    onClick={onNavigate}
                    aria-current={project.studioId === selected?.studioId ? "page" : undefined}
                    className="flex items-center justify-between gap-2 rounded-md px-2 py-2 text-sm hover:bg-slate-100 aria-[current=page]:font-semibold dark:hover:bg-slate-800"
                  >
                    <span className="truncate">{project.name}</span>
                    {/* The list's derived badges (project-status.ts); the name comes first in the
                        link's accessible name. */}
                    <span className="flex shrink-0 items-center gap-1">
                      {project.badge.isNew ? <Badge tone="blue">New</Badge> : null}
                      <Badge tone={STATE_TONE[project.badge.state]}>{project.badge.label}</Badge>
                      {project.live ? <Badge tone="green">Live</Badge> : null}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
            {moreHref ? (
              // A link, so it works without JavaScript (the next page); with JavaScript it
              // appends the next page in place.
              <Link
                to={moreHref}
                preventScrollReset
                aria-disabled={loadingMore || undefined}
                onClick={(event) => {
                  if (!onMore) return;
                  event.preventDefault();
                  onMore();
                }}
                className="mt-1 flex items-center justify-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
              >
                {loadingMore ? <Spinner label="Loading more projects" className="h-4 w-4" /> : null}
                Load more
              </Link>
            ) : null}
          </div>
        </>
      )}
      {/* A GET form, so 'Create New' is a button that opens ?dialog=create with or without JS. */}
      <Form
        method="get"
        action={location.pathname}
        preventScrollReset
        onSubmit={onNavigate}
        className="mt-2 border-t border-slate-200 pt-2 dark:border-slate-700"
      >
        {keep.map(([key, value], i) => (
          <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
        ))}
        <input type="hidden" name="dialog" value="create" />
        <button
          type="submit"
          className="w-full rounded-md bg-brand px-3 py-2 text-sm font-medium text-white hover:bg-brand-dark"
        >
          Create New
        </button>
      </Form>
    </div>
  );
}
