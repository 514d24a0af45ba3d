import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useCallback } from "react";
import { LoadMoreLink, OlderPagesNote, useMorePages } from "~/components/lists/more-pages";
import { listUrl, SearchBox } from "~/components/lists/search-box";
import { InvalidError } from "~/services/core";
import {
  configurePath,
  INTEGRATION_PAGE_SIZE,
  INTEGRATION_SEARCH_DEBOUNCE_MS,
  integrationBySlug,
  integrationLogo,
  LOAD_MORE_MIN_RESULTS,
} from "~/services/integrations";
import { listProjects } from "~/services/projects/index.server";
import { SITE_TYPE_LABEL } from "~/services/projects";
import { notFound } from "~/utils/responses.server";
import { listParams } from "~/web/list-query";
import { requireUser } from "~/web/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.integration.name} | Integrations | StackShift` : "StackShift" },
];

/**
 * /sites/integrations/{payments | social-accounts}: the user's projects to configure the
 * integration on (platform admins: every project, as support), searchable and keyset-paginated.
 * Unknown integrations are 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const integration = integrationBySlug(params.integrationId);
  if (!integration) notFound();
  const url = new URL(request.url);
  const { query, cursor } = listParams(url.searchParams);
  try {
    const page = await listProjects(user, {
      query,
      cursor,
      limit: INTEGRATION_PAGE_SIZE,
      scope: user.isAdmin ? "all" : "mine",
    });
    return {
      integration,
      query,
      cursor,
      nextCursor: page.nextCursor,
      data: page.data.map((p) => ({
        id: p.id,
        name: p.name,
        siteType: p.siteType,
        configure: configurePath(integration, p.studioId, user.isAdmin ? user.id : null),
      })),
    };
  } catch (error) {
    // A mangled 'Load More' link: start from the newest projects rather than fail.
    if (error instanceof InvalidError && cursor) {
      url.searchParams.delete("cursor");
      throw redirect(`${url.pathname}${url.search}`);
    }
    throw error;
  }
}

type Page = ReturnType<typeof useLoaderData<typeof loader>>;

export default function IntegrationProjects() {
  const page = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="integration-heading" className="space-y-6">
      <div>
        <Link to="/sites/integrations" className="text-sm text-brand hover:underline">
          Integrations
        </Link>
        <div className="mt-1 flex items-center gap-3">
          {/* Decorative: the name is beside it. */}
          <img
            src={integrationLogo(page.integration.slug)}
            alt=""
            width={48}
            height={48}
            className="h-12 w-12 shrink-0"
          />
          <h1 id="integration-heading" className="text-2xl font-semibold">
            {page.integration.name}
          </h1>
        </div>
        <p className="mt-1 text-slate-600 dark:text-slate-300">{page.integration.text}</p>
      </div>
      <SearchBox
        id="integration-search"
        query={page.query}
        label="Find StackShift to configure"
        placeholder="Find StackShift to configure"
        debounceMs={INTEGRATION_SEARCH_DEBOUNCE_MS}
      />
      {/* A new search or start point is a new list: appended pages start over. */}
      <ProjectsToConfigure key={`${page.query}\n${page.cursor ?? ""}`} page={page} />
    </section>
  );
}

function ProjectsToConfigure({ page }: { page: Page }) {
  const location = useLocation();
  const urlFor = useCallback(
    (cursor: string) => listUrl(location.pathname, { q: page.query || null, cursor }),
    [location.pathname, page.query],
  );
  const { items, nextCursor, loading, loadMore } = useMorePages<Page["data"][number], Page>(
    page,
    urlFor,
    (next) => next.query === page.query,
  );
  if (items.length === 0) {
    return (
      <p className="py-12 text-center text-slate-600 dark:text-slate-300">
        {page.query
          ? "Sorry, we couldn't find what you're looking for!"
          : "No projects to configure yet. Create a project first."}
      </p>
    );
  }
  return (
    <div className="space-y-4">
      {page.cursor ? (
        <OlderPagesNote newest={listUrl(location.pathname, { q: page.query || null })} />
      ) : null}
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {items.map((project) => (
          <li key={project.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
            <span className="flex-1 font-medium">{project.name}</span>
            <span className="text-sm text-slate-600 dark:text-slate-300">
              {SITE_TYPE_LABEL[project.siteType]}
            </span>
            <Link
              to={project.configure}
              className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
            >
              Configure<span className="sr-only"> {project.name}</span>
            </Link>
          </li>
        ))}
      </ul>
      {nextCursor && items.length >= LOAD_MORE_MIN_RESULTS ? (
        <div className="flex justify-center">
          <LoadMoreLink
            to={listUrl(location.pathname, { q: page.query || null, cursor: nextCursor })}
            loading={loading}
            onLoad={loadMore}
            loadingLabel="Loading more projects"
          >
            Load More
          </LoadMoreLink>
        </div>
      ) : null}
    </div>
  );
}
