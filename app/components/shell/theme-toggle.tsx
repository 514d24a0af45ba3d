import { useFetcher, useFetchers, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useHydrated } from "~/utils/page-load";
import { otherTheme, type Theme } from "./shell-helpers";

export const THEME_ACTION = "/resources/theme";

/**
 * The colour mode to render: the cookie's value from the root loader, or, while a toggle is in
 * flight, the mode being switched to (optimistic, so the page changes at once).
 */
export function useTheme(): Theme {
  const root = useRouteLoaderData<{ theme?: Theme }>("root");
  const pending = useFetchers().find((f) => f.formAction === THEME_ACTION && f.formData);
  const optimistic = pending?.formData?.get("theme");
  if (optimistic === "dark" || optimistic === "light") return optimistic;
  return root?.theme === "dark" ? "dark" : "light";
}

/**
 * A form POST button: without JavaScript it posts with `redirectTo` and the action redirects back;
 * with JavaScript a fetcher posts without it, the action answers with data and the page stays.
 */
export function ThemeToggle() {
  const theme = useTheme();
  const fetcher = useFetcher({ key: "theme-toggle" });
  const hydrated = useHydrated();
  const location = useLocation();
  const next = otherTheme(theme);
  const label = next === "dark" ? "Switch to dark mode" : "Switch to light mode";
  return (
    <fetcher.Form method="post" action={THEME_ACTION}>
      <input type="hidden" name="theme" value={next} />
      {hydrated ? null : (
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      )}
      <button
        type="submit"
        aria-label={label}
        aria-pressed={theme === "dark"}
        title={label}
        className="inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
      >
        {theme === "dark" ? <MoonIcon /> : <SunIcon />}
      </button>
    </fetcher.Form>
  );
}

function SunIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" aria-hidden>
      <circle cx="12" cy="12" r="4" strokeWidth="2" />
      <path
        strokeWidth="2"
        strokeLinecap="round"
        d="M12 2v2m0 16v2M4.93 4.93l1.41 1.41m11.32 11.32 1.41 1.41M2 12h2m16 0h2M4.93 19.07l1.41-1.41m11.32-11.32 1.41-1.41"
      />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" aria-hidden>
      <path
        strokeWidth="2"
        strokeLinejoin="round"
        d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8Z"
      />
    </svg>
  );
}
