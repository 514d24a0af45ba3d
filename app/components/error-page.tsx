import { isRouteErrorResponse, Link } from "@remix-run/react";

export const SUPPORT_EMAIL = "support@stackshift.app";

/**
 * The one error screen. 404s say so; everything else is 'Oops! Something went
 * wrong...' with no internals shown.
 */
export function ErrorPage({ error }: { error: unknown }) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 404) {
    return (
      <main className="mx-auto max-w-xl p-10 text-center">
        <h1 className="text-2xl font-bold">Page not found</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-300">
          We couldn&apos;t find what you were looking for.
        </p>
        <Link to="/" className="mt-6 inline-block text-brand underline">
          Go to your projects
        </Link>
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-xl p-10 text-center">
      <h1 className="text-2xl font-bold">Oops! Something went wrong...</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">
        Please refresh the page. If the problem persists, contact support at{" "}
        <a className="text-brand underline" href={`mailto:${SUPPORT_EMAIL}`}>
          {SUPPORT_EMAIL}
        </a>
        .
      </p>
      {status === 403 ? <p className="mt-2 text-sm">You do not have access to this page.</p> : null}
    </main>
  );
}
