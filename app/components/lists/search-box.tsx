import { Form, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";

/** Every search input waits for a 1500 ms pause in typing, except the integrations search. */
export const SEARCH_DEBOUNCE_MS = 1500;

/** `base?key=value...` with the null values left out. */
export function listUrl(base: string, params: Record<string, string | null | undefined>) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value != null) search.set(key, value);
  const text = search.toString();
  return text ? `${base}?${text}` : base;
}

/**
 * A list's search: a GET form (`?q=`, so it works without JavaScript), lowercased as typed, and
 * with JavaScript sent by itself `debounceMs` after the last keystroke. `keep` holds the other
 * parameters the list's address keeps (its scope); a new search starts from the first page.
 */
export function SearchBox({
  id,
  query,
  label,
  placeholder,
  debounceMs = SEARCH_DEBOUNCE_MS,
  keep = {},
  action,
}: {
  id: string;
  query: string;
  label: string;
  placeholder: string;
  debounceMs?: number;
  keep?: Record<string, string | null>;
  /** Where the search goes, when not this page's own address (an index route's `?index`). */
  action?: string;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const [value, setValue] = useState(query);

  // What was typed before the scripts ran (React keeps it in the box when it hydrates, but the
  // keystrokes went to no handler): take it up, so it is searched like text typed afterwards.
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const typed = input.current?.value;
    if (typed != null && typed !== query) setValue(typed.toLowerCase());
    // Once, on hydration: later changes arrive through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Back/forward to another search shows that search in the box.
  const shown = useRef(query);
  useEffect(() => {
    if (shown.current !== query) setValue(query);
    shown.current = query;
  }, [query]);

  // Compared with the URL, not the server's normalised query, so a search is sent once.
  const searched = (new URLSearchParams(location.search).get("q") ?? "").trim();
  const keepKey = JSON.stringify(keep);
  const target = action ?? location.pathname;
  useEffect(() => {
    if (value.trim() === searched) return;
    const timer = setTimeout(() => {
      navigate(listUrl(target, { ...JSON.parse(keepKey), q: value.trim() || null }), {
        replace: true,
        preventScrollReset: true,
      });
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [value, searched, navigate, target, keepKey, debounceMs]);

  return (
    <Form method="get" action={action} role="search" className="flex max-w-xl gap-2">
      {Object.entries(keep).map(([name, kept]) =>
        kept == null ? null : <input key={name} type="hidden" name={name} value={kept} />,
      )}
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        ref={input}
        id={id}
        type="search"
        name="q"
        value={value}
        onChange={(event) => setValue(event.currentTarget.value.toLowerCase())}
        placeholder={placeholder}
        autoComplete="off"
        maxLength={200}
        className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand focus:outline-none focus:ring-1 focus:ring-brand dark:border-slate-700 dark:bg-slate-900"
      />
      <Button type="submit" variant="secondary">
        Search
      </Button>
    </Form>
  );
}
