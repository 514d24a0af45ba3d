import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** False during server render and before hydration; true once JavaScript runs. */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
