import { lazyPart } from "~/utils/page-load";

/**
 * The Link account dialog, loaded when it opens: its form brings conform and zod. The server
 * renders it in place when the URL asks for it, so it works without JavaScript.
 */
export const LazyLinkAccountDialog = lazyPart("link-account-dialog", () =>
  import("./link-account-dialog").then((m) => m.LinkAccountDialog),
);
