import { startTransition, useEffect, useState } from "react";
import { useHydrated } from "./hydrated";

/**
 * Code a page needs only once it is interactive, loaded after hydration instead of with the page
 * (docs/runs/performance-journal.md, "what the first load holds"). Until it is there, a component renders what
 * it renders without JavaScript (a <details> disclosure, a native title), so neither the server's
 * HTML nor hydration depend on it. A load that fails leaves that version; the next mount retries.
 */
export function afterHydration<T>(load: () => Promise<T>): () => T | null {
  let loaded: T | null = null;
  let loading: Promise<T | null> | null = null;
  const start = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      () => {
        loading = null;
        return null;
      },
    ));

  return function useAfterHydration() {
    const hydrated = useHydrated();
    const [value, setValue] = useState<T | null>(loaded);
    useEffect(() => {
      if (value) return;
      let mounted = true;
      void start().then((module) => {
        // A transition: swapping in the loaded version (Radix's menus, popovers, tooltips,
        // toasts at once) renders in slices instead of one long task after hydration.
        if (mounted && module) startTransition(() => setValue(() => module));
      });
      return () => {
        mounted = false;
      };
    }, [value]);
    // During hydration the first render must be the server's, loaded or not.
    return hydrated ? value : null;
  };
}
