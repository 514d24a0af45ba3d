import { Link, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";
import { LoadMoreLink, OlderPagesNote, useMorePages } from "~/components/lists/more-pages";
import { listUrl, SearchBox } from "~/components/lists/search-box";
import { ButtonLink } from "~/components/ui/button";
import { SITE_TYPE_LABEL } from "~/services/projects";
import type { ProjectSummary } from "~/services/projects/index.server";
import { LocalDate } from "~/components/local-date";
import { ProjectStatus } from "./project-status";
import { usePolling } from "./use-polling";
import { TableHead } from "~/components/ui/table-head";

/** What the list pages' loaders return (/ and /sites share it). */
export type ProjectListData = {
  data: ProjectSummary[];
  nextCursor: string | null;
  /** The lowercased search, "" for none. */
  query: string;
  /** The cursor this page starts after (a no-JavaScript "Load more" link), or null. */
  cursor: string | null;
  /** "all": a platform admin's list of every project; "mine" for everyone else. */
  scope: "mine" | "all";
  /** Platform admins get the 'My projects' / 'All projects' filter. */
  canSeeAll: boolean;
};

const POLL_MS = 60_000; // the project list refreshes every 60 s

const ROLE_LABEL: Record<ProjectSummary["role"], string> = {
  owner: "Owner",
  admin: "Admin",
  developer: "Developer",
  editor: "Editor",
  support: "None (support access)",
};

/** The scope parameter as it goes in a URL: only "all" is written. */
const scopeParam = (scope: ProjectListData["scope"]) => (scope === "all" ? "all" : null);

/** The project list of / and /sites: search, infinite list, empty states, 'Create New'. */
export function ProjectListPage({ page }: { page: ProjectListData }) {
  usePolling(POLL_MS);
  const location = useLocation();
  const createHref = listUrl(location.pathname, {
    scope: scopeParam(page.scope),
    q: page.query || null,
    cursor: page.cursor,
    dialog: "create",
  });
  return (
    <section aria-labelledby="projects-heading" className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="projects-heading" className="text-2xl font-semibold">
          Projects
        </h1>
        <ButtonLink to={createHref} preventScrollReset>
          Create New
        </ButtonLink>
      </div>
      {page.canSeeAll ? <ScopeFilter scope={page.scope} /> : null}
      <SearchForm query={page.query} scope={page.scope} />
      {/* A new search, scope or start point is a new list: appended pages start over. */}
      <ProjectList
        key={`${page.scope}\n${page.query}\n${page.cursor ?? ""}`}
        page={page}
        createHref={createHref}
      />
    </section>
  );
}

/**
 * Platform admins' filter: their own projects, or every project (support access, which each
 * project's Activity Log records when opened). Links, so it works without JavaScript.
 */
function ScopeFilter({ scope }: { scope: ProjectListData["scope"] }) {
  const location = useLocation();
  const item = (value: ProjectListData["scope"], label: string) => (
    <Link
      to={listUrl(location.pathname, { scope: scopeParam(value) })}
      aria-current={scope === value ? "page" : undefined}
      className={
        scope === value
          ? "rounded-md bg-brand px-3 py-1.5 text-sm font-medium text-white"
          : "rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
      }
    >
      {label}
    </Link>
  );
  return (
    <nav aria-label="Projects to show" className="flex gap-2">
      {item("mine", "My projects")}
      {item("all", "All projects")}
    </nav>
  );
}

function SearchForm({ query, scope }: { query: string; scope: ProjectListData["scope"] }) {
  return (
    <SearchBox
      id="project-search"
      query={query}
      label="Search projects"
      placeholder="Find project"
      keep={{ scope: scopeParam(scope) }}
    />
  );
}

function ProjectList({ page, createHref }: { page: ProjectListData; createHref: string }) {
  const location = useLocation();
  const urlFor = useCallback(
    (cursor: string) =>
      // ?index makes the fetcher call the index route's loader, not its parent's.
      listUrl(location.pathname, {
        index: "",
        scope: scopeParam(page.scope),
        q: page.query || null,
        cursor,
      }),
    [location.pathname, page.query, page.scope],
  );
  const {
    items: projects,
    nextCursor,
    loading,
    loadMore,
  } = useMorePages<ProjectSummary, ProjectListData>(
    page,
    urlFor,
    (next) => next.query === page.query && next.scope === page.scope,
  );

  // Infinite scroll: load the next page when the end of the list comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  const latestLoadMore = useRef(loadMore);
  useEffect(() => {
    latestLoadMore.current = loadMore;
  });
  useEffect(() => {
    const node = sentinel.current;
    if (!node || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) latestLoadMore.current();
      },
      { rootMargin: "200px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [nextCursor]);

  if (projects.length === 0) {
    if (page.query) {
      return (
        <p className="py-12 text-center text-slate-600 dark:text-slate-300">
          Sorry, we couldn&apos;t find what you&apos;re looking for!
        </p>
      );
    }
    if (page.cursor) {
      return (
        <p className="py-12 text-center text-slate-600 dark:text-slate-300">
          No more projects.{" "}
          <Link
            to={listUrl(location.pathname, { scope: scopeParam(page.scope) })}
            className="text-brand underline"
          >
            Back to the newest projects
          </Link>
        </p>
      );
    }
    return (
      <div className="rounded-lg border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
        <h2 className="text-lg font-semibold">Nothing to show here yet...</h2>
        <p className="mt-2 text-slate-600 dark:text-slate-300">
          It&apos;s a little lonely here. Create your first project and it will show up on this
          page.
        </p>
        <ButtonLink to={createHref} preventScrollReset className="mt-6">
          Create New
        </ButtonLink>
      </div>
    );
  }

  return (
    <div className="space-y-4">
      {page.cursor ? (
        <OlderPagesNote
          newest={listUrl(location.pathname, {
            scope: scopeParam(page.scope),
            q: page.query || null,
          })}
        />
      ) : null}
      <div className="relative overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
          <caption className="sr-only">
            {page.scope === "all" ? "All projects" : "Your projects"}, newest first
          </caption>
          <TableHead
            className="bg-slate-50 dark:bg-slate-900"
            cellClassName="px-4 py-3"
            columns={["Name", "Site type", "Status", "Your role", "Created"]}
          />
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {projects.map((project) => (
              <tr key={project.id} className="hover:bg-slate-50 dark:hover:bg-slate-900">
                <th scope="row" className="px-4 py-3 text-left font-medium">
                  <Link
                    to={`/sites/${project.studioId}`}
                    prefetch="intent"
                    className="text-brand hover:underline"
                  >
                    {project.name}
                  </Link>
                </th>
                <td className="px-4 py-3">{SITE_TYPE_LABEL[project.siteType]}</td>
                <td className="px-4 py-3">
                  <ProjectStatus project={project} />
                </td>
                <td className="px-4 py-3">{ROLE_LABEL[project.role]}</td>
                <td className="px-4 py-3">
                  <LocalDate value={project.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div ref={sentinel} className="flex min-h-10 items-center justify-center">
        {nextCursor ? (
          // A link, so it works without JavaScript (renders the next page); with JavaScript it
          // appends the next page in place.
          <LoadMoreLink
            to={listUrl(location.pathname, {
              scope: scopeParam(page.scope),
              q: page.query || null,
              cursor: nextCursor,
            })}
            loading={loading}
            onLoad={loadMore}
            loadingLabel="Loading more projects"
          >
            Load more
          </LoadMoreLink>
        ) : null}
      </div>
    </div>
  );
}
