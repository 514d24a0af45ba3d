import { useFetchers, useFormAction, useNavigation } from "@remix-run/react";

type Submission = {
  state: "idle" | "submitting" | "loading";
  formAction?: string;
  formMethod?: string;
  formData?: FormData;
};

export type IsPendingOptions = {
  /** Where the form posts; by default the action of the route this component renders in. */
  formAction?: string;
  /** Only a submission whose `intent` (the submit button's `name="intent"`) is this one. */
  intent?: string;
  /** Only a submission that also carries these fields with these values. */
  fields?: Record<string, string>;
  /**
   * "non-idle" (default): from the submit until the next page shows, so a redirect's page load
   * still counts; "submitting": only while the request is under way.
   */
  state?: "submitting" | "non-idle";
  /** Count the forms that post through a fetcher too (by default only navigations count). */
  fetchers?: boolean;
};

/** Paths compared without the query: `?index` and the page's own search do not matter. */
const pathOf = (action: string) => new URL(action, "http://local").pathname;

/**
 * True while the form for this action (and intent) is being submitted: the one pending check of
 * the app's forms (the button says 'Saving...' and is disabled), instead of reading
 * useNavigation() in each component. Only state-changing submissions count, never a GET form
 * (search) or a page load.
 */
export function useIsPending({
  formAction,
  intent,
  fields,
  state = "non-idle",
  fetchers = false,
}: IsPendingOptions = {}) {
  const ownAction = useFormAction();
  const navigation = useNavigation();
  const allFetchers = useFetchers();
  const target = pathOf(formAction ?? ownAction);
  const matches = (sub: Submission) =>
    (state === "non-idle" ? sub.state !== "idle" : sub.state === state) &&
    sub.formMethod !== undefined &&
    sub.formMethod.toUpperCase() !== "GET" &&
    sub.formAction !== undefined &&
    pathOf(sub.formAction) === target &&
    (intent === undefined || sub.formData?.get("intent") === intent) &&
    Object.entries(fields ?? {}).every(([name, value]) => sub.formData?.get(name) === value);
  return matches(navigation) || (fetchers && allFetchers.some(matches));
}
