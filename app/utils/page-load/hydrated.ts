import { startTransition, useEffect, useState } from "react";

/** Set by the first effect that runs in the browser: the first hydration has committed. */
let hydrationDone = false;

/**
 * False in the server's render and while the page hydrates, true once it is interactive: a
 * component renders its no-JavaScript version until then (as remix-utils' `useHydrated`).
 *
 * remix-utils flips it through `useSyncExternalStore`, which React re-renders synchronously:
 * on the dashboard that one render of everything reading it (the members section, its forms,
 * the shell) took up to 130 ms of one task right after hydration (Chrome traces at 4x CPU slowdown).
 * Here the flip is a transition, rendered in slices. A component first rendered after that
 * (a client-side navigation) starts at true, as with remix-utils: the hydration render is the
 * only one that renders the server's version.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(hydrationDone);
  useEffect(() => {
    hydrationDone = true;
    if (!hydrated) startTransition(() => setHydrated(true));
    // Once per mount: it never turns false again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return hydrated;
}
