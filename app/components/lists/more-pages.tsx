import { Link, useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Spinner } from "~/components/ui/spinner";

/** One page of a keyset-paginated list, as a list page's loader answers it. */
export type ListPage<T> = { data: T[]; nextCursor: string | null; cursor: string | null };

/**
 * The pages after the first of a keyset list, fetched with JavaScript and appended (a list keyed
 * by its search starts over). `urlFor(cursor)` is the loader's address of the page after
 * `cursor`; `samePage` tells whether an answer belongs to this list (not to an older search).
 */
export function useMorePages<T extends { id: string }, P extends ListPage<T>>(
  page: P,
  urlFor: (cursor: string) => string,
  samePage: (next: P) => boolean,
) {
  const fetcher = useFetcher<P>();
  const [more, setMore] = useState<P[]>([]);
  const latestSame = useRef(samePage);
  useEffect(() => {
    latestSame.current = samePage;
  });

  // Each fetched page is kept by its cursor, so a revalidated page replaces itself.
  useEffect(() => {
    // The pages are JSON already (what useLoaderData gave the first one).
    const next = fetcher.data as P | undefined;
    if (!next?.cursor || !latestSame.current(next)) return;
    setMore((pages) => {
      const at = pages.findIndex((p) => p.cursor === next.cursor);
      if (at === -1) return [...pages, next];
      const copy = [...pages];
      copy[at] = next;
      return copy;
    });
  }, [fetcher.data]);

  const items = useMemo(() => {
    const seen = new Set<string>();
    return [page, ...more]
      .flatMap((p) => p.data)
      .filter((item) => !seen.has(item.id) && Boolean(seen.add(item.id)));
  }, [page, more]);
  const nextCursor = more.length ? more[more.length - 1].nextCursor : page.nextCursor;
  const loading = fetcher.state !== "idle";

  const loadMore = useCallback(() => {
    if (!nextCursor || fetcher.state !== "idle") return;
    if (more.some((p) => p.cursor === nextCursor)) return;
    fetcher.load(urlFor(nextCursor));
  }, [nextCursor, fetcher, more, urlFor]);

  return { items, nextCursor, loading, loadMore };
}

/**
 * 'Load more': a link to the next page, so it works without JavaScript; with JavaScript it
 * appends the next page in place (`onLoad`).
 */
export function LoadMoreLink({
  to,
  loading,
  onLoad,
  loadingLabel,
  children,
}: {
  to: string;
  loading: boolean;
  onLoad: () => void;
  loadingLabel: string;
  children: ReactNode;
}) {
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      aria-disabled={loading || undefined}
      onClick={(event) => {
        event.preventDefault();
        onLoad();
      }}
    >
      {loading ? <Spinner label={loadingLabel} className="h-4 w-4" /> : null}
      {children}
    </Link>
  );
}

/** Above a list that starts after the first page (a 'Load more' link without JavaScript). */
export function OlderPagesNote({ newest }: { newest: string }) {
  return (
    <p className="text-sm">
      Showing older projects.{" "}
      <Link to={newest} className="text-brand underline">
        Back to the newest projects
      </Link>
    </p>
  );
}
