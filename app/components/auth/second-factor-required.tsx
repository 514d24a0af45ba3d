import { Link } from "@remix-run/react";

/**
 * Where a second factor is required and missing (docs/decisions/042-second-factor-required.md):
 * the banner on every page of a platform admin without one, and the page shown instead of
 * /admin, support access or a project that requires one.
 */
export function SecondFactorBanner({ setupPath }: { setupPath: string }) {
  return (
    <div
      role="status"
      className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="mx-auto max-w-7xl">
        Platform admins need a second factor on this server. Until you set one up, the admin pages
        and customers&apos; projects stay closed.{" "}
        <Link to={setupPath} className="font-medium underline">
          Set up two-factor authentication
        </Link>
      </p>
    </div>
  );
}

/** The data of the 403 a page answers (app/web/second-factor.server.ts), if that is what it is. */
export function secondFactorRefusalOf(
  data: unknown,
): { reason: string; message: string; setupPath: string } | null {
  if (!data || typeof data !== "object") return null;
  const d = data as Record<string, unknown>;
  if (typeof d.secondFactorRequired !== "string" || typeof d.message !== "string") return null;
  const setupPath =
    typeof d.setupPath === "string" && d.setupPath.startsWith("/")
      ? d.setupPath
      : "/sites/user-settings/two-factor";
  return { reason: d.secondFactorRequired, message: d.message, setupPath };
}

export function SecondFactorRequiredPage({
  reason,
  message,
  setupPath,
}: {
  reason: string;
  message: string;
  setupPath: string;
}) {
  return (
    <section aria-labelledby="second-factor-title" className="mx-auto max-w-xl py-10 text-center">
      <h1 id="second-factor-title" className="text-2xl font-bold">
        {reason === "project"
          ? "This project requires a second factor"
          : "Set up a second factor first"}
      </h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">{message}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link
          to={setupPath}
          className="inline-flex items-center rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand dark:bg-slate-100 dark:text-slate-900"
        >
          Set up two-factor authentication
        </Link>
        <Link
          to="/sites"
          className="inline-flex items-center rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand dark:border-slate-700 dark:text-slate-200"
        >
          Back to projects
        </Link>
      </div>
    </section>
  );
}
