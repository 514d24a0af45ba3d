import { useFetchers, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * A ref that holds true while a form is under way (a navigation, or any fetcher not idle), for
 * the timers that refresh a page. A refresh started while a fetcher's action runs makes React
 * Router drop that action's redirect (the newer load takes precedence), and the load it keeps
 * was sent before the action's flash cookie existed: the action's toast ('Invitation sent to
 * ...!') never showed. Timers skip a tick instead.
 */
export function useFormsInFlight() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  const ref = useRef(busy);
  useEffect(() => {
    ref.current = busy;
  });
  return ref;
}
