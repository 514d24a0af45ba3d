// First: schemas made by the imports below parse without eval (zod-config.ts).
import "~/utils/zod-config";
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { loadServerRenderedParts } from "~/utils/page-load";

// A load that a newer navigation or submission cancels is not a failure, but when its answer was
// cut off mid-stream Remix's decoder (turbo-stream's `decode`) leaves two promises that reject
// with the abort and that nobody awaits: the browser reported them as uncaught errors.
window.addEventListener("unhandledrejection", (event) => {
  if (event.reason instanceof DOMException && event.reason.name === "AbortError") {
    event.preventDefault();
  }
});

// The route modules are loaded by now (Remix imports them before this entry); the separately
// loaded parts the server rendered are awaited so they hydrate with their page (lazy-part.tsx).
void loadServerRenderedParts().then(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
});
