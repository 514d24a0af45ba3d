// First: schemas made by the imports below parse without eval (zod-config.ts).
import "~/utils/zod-config";
import { useEffect } from "react";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useTheme } from "~/components/shell/theme-toggle";
import { Toaster } from "~/components/ui/toaster";
import { RouteError } from "~/components/route-error";
import { getOptionalUser } from "~/web/session.server";
import { getTheme } from "~/utils/theme.server";
import { readToast } from "~/utils/toast.server";
import { requestIdOf } from "~/utils/request-id.server";
import { savedTimeZone, timeZoneOffset } from "~/utils/time-zone.server";
import { DEFAULT_TIME_ZONE } from "~/utils/dates";
import { useTimeZoneCookie } from "~/utils/time-zone";
import { useNonce } from "~/utils/nonce";
import { useHydrated } from "~/utils/page-load";
import styles from "./tailwind.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "StackShift" }];

export { documentShouldRevalidate as shouldRevalidate } from "~/components/shell/shell-helpers";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [user, theme, { toasts, setCookie }] = await Promise.all([
    getOptionalUser(request),
    getTheme(request),
    readToast(request),
  ]);
  const saved = savedTimeZone(request);
  return data(
    {
      user,
      theme,
      toasts,
      timeZone: saved ?? DEFAULT_TIME_ZONE,
      // Lets the page skip asking the browser for its zone while it agrees (time-zone.ts).
      savedZoneOffset: saved ? timeZoneOffset(saved) : null,
      // requestId: the error pages quote it when this request's render fails.
      requestId: requestIdOf(context),
    },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

function Document({ children, theme }: { children: React.ReactNode; theme: string }) {
  const nonce = useNonce();
  const hydrated = useHydrated();
  useEffect(() => {
    // The page is interactive, its no-JavaScript versions replaced: `data-hydrated` on <html>
    // (the browser tests wait for it after loading a page; the scripts load after the first
    // paint, decision 036). The mark dates it in a performance trace: `npm run bench` counts the
    // long tasks after it.
    if (!hydrated) return;
    document.documentElement.setAttribute("data-hydrated", "");
    performance.mark("stackshift:hydrated");
  }, [hydrated]);
  return (
    <html lang="en" className={theme === "dark" ? "dark" : ""}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toasts, timeZone, savedZoneOffset } = useLoaderData<typeof loader>();
  // Dates show in the browser's zone from the next page on (UTC until it is known).
  useTimeZoneCookie(timeZone, savedZoneOffset);
  // The cookie's mode, or the one a toggle is switching to (optimistic: no wait, no reload).
  const theme = useTheme();
  return (
    <Document theme={theme}>
      <Outlet />
      <Toaster flashed={toasts} />
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <Document theme={root?.theme ?? "light"}>
      <main id="main" className="mx-auto max-w-7xl p-4 wide:p-8">
        <RouteError error={error} />
      </main>
    </Document>
  );
}
