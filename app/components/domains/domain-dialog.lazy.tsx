import { lazyPart } from "~/utils/page-load";

/**
 * The domain dialog, loaded when it opens: its form brings conform and zod, which the dashboard
 * does not need until then (docs/performance.md). The server renders it in place when the URL
 * asks for it (`?domain=edit`), so it works without JavaScript.
 */
export const LazyDomainDialog = lazyPart("domain-dialog", () =>
  import("./domain-dialog").then((m) => m.DomainDialog),
);
