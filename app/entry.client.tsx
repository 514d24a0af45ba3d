// First: schemas made by the imports below parse without eval (zod-config.ts).
import "~/utils/zod-config";
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { loadServerRenderedParts } from "~/utils/page-load";

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
