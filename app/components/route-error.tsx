import { isRouteErrorResponse, Link, useLocation, useRouteLoaderData } from "@remix-run/react";
import { SecondFactorRequiredPage, secondFactorRefusalOf } from "./auth/second-factor-required";

/** Where the error screens (and the deployment and authorization pages) send people for help. */
export const SUPPORT_EMAIL = "support@stackshift.app";

/** The status a route error answers with: a thrown response's own, 500 for anything else. */
export function errorStatus(error: unknown) {
  return isRouteErrorResponse(error) ? error.status : 500;
}

export function isNotFound(error: unknown) {
  return errorStatus(error) === 404;
}

/**
 * The id of the request that failed, as its log line has it: the body of the 500 a page's loader
 * or action answered (server/route-errors.mjs), or, for a server render that failed (Remix shows
 * it as "Unexpected Server Error"), the id of the request the root loader ran in, the same one.
 * An error of the browser's own has no server log line, so no id.
 */
export function failedRequestId(error: unknown, rootRequestId: string | null | undefined) {
  if (isRouteErrorResponse(error)) {
    const data: unknown = error.data;
    if (data && typeof data === "object" && "requestId" in data) {
      const id = (data as { requestId: unknown }).requestId;
      if (typeof id === "string" && id) return id;
    }
    return null;
  }
  if (error instanceof Error && error.message === "Unexpected Server Error") {
    return rootRequestId || null;
  }
  return null;
}

const buttonClass =
  "inline-flex items-center rounded-md px-4 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-brand";

/**
 * The one error screen: what a page shows in place of its content when it fails. The root's
 * boundary shows it alone; the signed-in shell's and the project pages' boundaries keep the top
 * bar and the project navigation around it. A 404 says 'Not found'; anything else is 'Oops!
 * Something went wrong...', which says to refresh and contact support, with the request id to
 * quote, a retry that loads the same address again (a plain link, so it works without JavaScript
 * and really asks the server again) and a way back to the project list.
 */
export function RouteError({ error }: { error: unknown }) {
  const location = useLocation();
  const root = useRouteLoaderData<{ requestId?: string | null }>("root");
  const status = errorStatus(error);
  // A second factor required and missing: what to do, with the link (decision 042).
  const refusal =
    status === 403 && isRouteErrorResponse(error) ? secondFactorRefusalOf(error.data) : null;
  if (refusal) return <SecondFactorRequiredPage {...refusal} />;
  if (status === 404) {
    return (
      <section aria-labelledby="route-error-title" className="mx-auto max-w-xl py-10 text-center">
        <h1 id="route-error-title" className="text-2xl font-bold">
          Not found
        </h1>
        <p className="mt-2 text-slate-600 dark:text-slate-300">
          This page does not exist, or it is not shared with you.
        </p>
        <Link
          to="/sites"
          className={`${buttonClass} mt-6 bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900`}
        >
          Back to projects
        </Link>
      </section>
    );
  }
  const requestId = failedRequestId(error, root?.requestId);
  return (
    <section aria-labelledby="route-error-title" className="mx-auto max-w-xl py-10 text-center">
      <h1 id="route-error-title" className="text-2xl font-bold">
        Oops! Something went wrong...
      </h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">
        {status === 403
          ? "You do not have access to this page."
          : "Please refresh the page. If the problem persists, contact support at "}
        {status === 403 ? null : (
          <>
            <a className="text-brand underline" href={`mailto:${SUPPORT_EMAIL}`}>
              {SUPPORT_EMAIL}
            </a>
            {requestId ? " and quote the request id below." : "."}
          </>
        )}
      </p>
      {requestId ? (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
          Request id: <code className="select-all font-mono">{requestId}</code>
        </p>
      ) : null}
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {/* A plain link: a full load of the same address, with or without JavaScript. */}
        <a
          href={`${location.pathname}${location.search}`}
          className={`${buttonClass} bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900`}
        >
          Try again
        </a>
        <Link
          to="/sites"
          className={`${buttonClass} border border-slate-300 text-slate-700 dark:border-slate-700 dark:text-slate-200`}
        >
          Back to projects
        </Link>
      </div>
    </section>
  );
}
