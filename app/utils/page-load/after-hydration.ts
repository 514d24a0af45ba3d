import { startTransition, useEffect, useState } from "react";
import { useHydrated } from "./hydrated";

/** The components waiting to swap in what they loaded, one per task (`inTurn`). */
const waiting: (() => void)[] = [];
let swapping = false;
/** Time for React to render and commit one swap before the next starts. */
const SWAP_GAP_MS = 16;

/**
 * Runs `swap` in a transition of its own, a frame after the one before: each component takes
 * over in its own render and commit, not all at once in one task right after hydration (on the
 * dashboard the menus, the picker and the toasts together were the longest task after it:
 * docs/runs/performance-journal.md, "2026-11-29").
 */
export function inTurn(swap: () => void) {
  waiting.push(swap);
  if (swapping) return;
  swapping = true;
  const next = () => {
    const first = waiting.shift();
    if (!first) {
      swapping = false;
      return;
    }
    startTransition(first);
    setTimeout(next, SWAP_GAP_MS);
  };
  setTimeout(next, 0);
}

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
        // In a transition of its own (inTurn): swapping in the loaded version renders in slices,
        // and not with every other component's swap.
        if (mounted && module) inTurn(() => mounted && setValue(() => module));
      });
      return () => {
        mounted = false;
      };
    }, [value]);
    // During hydration the first render must be the server's, loaded or not.
    return hydrated ? value : null;
  };
}
