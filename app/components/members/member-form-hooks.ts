import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { urlWith } from "~/components/shell/shell-helpers";

/** The page the section is on, without `?confirm=`: where every form comes back to. */
export function usePageWithoutConfirm() {
  const location = useLocation();
  return urlWith(location.pathname, location.search, { confirm: null });
}

/** Tracks a fetcher's submission; `onDone(refused)` runs when it settles. */
export function useSettled(
  fetcher: { state: string; data: unknown },
  onDone: (refused: boolean) => void,
) {
  const pending = useRef<{ data: unknown } | null>(null);
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (fetcher.state !== "idle") {
      pending.current ??= { data: fetcher.data };
      return;
    }
    if (!pending.current) return;
    const refused = fetcher.data !== pending.current.data;
    pending.current = null;
    done.current(refused);
  }, [fetcher.state, fetcher.data]);
}
