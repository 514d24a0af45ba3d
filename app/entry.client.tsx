// First: schemas made by the imports below parse without eval (zod-config.ts).
import "~/utils/zod-config";
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { DEFAULT_TIME_ZONE, prepareDateFormatters } from "~/utils/dates";
import { loadServerRenderedParts } from "~/utils/page-load";

/** The time zone the server rendered the page's dates in (the root loader's). */
function renderedTimeZone(): string {
  const context = (
    window as { __remixContext?: { state?: { loaderData?: Record<string, unknown> } } }
  ).__remixContext;
  const root = context?.state?.loaderData?.root as { timeZone?: unknown } | undefined;
  return typeof root?.timeZone === "string" ? root.timeZone : DEFAULT_TIME_ZONE;
}

/** Ends the current task: what follows starts a new one (no single task over 50 ms). */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// The route modules are loaded by now (Remix imports them before this entry); the separately
// loaded parts the server rendered are awaited so they hydrate with their page (lazy-part.tsx).
// Evaluating the modules, building the date formatters and hydrating are separate tasks.
void loadServerRenderedParts().then(async () => {
  await nextTask();
  prepareDateFormatters(renderedTimeZone());
  await nextTask();
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
});
