import { lazyPart } from "~/utils/page-load";

/** The add-on confirmation, loaded when it opens (the Visual Tests token form brings zod). */
export const LazyAddonDialog = lazyPart("addon-dialog", () =>
  import("./addon-dialog").then((m) => m.AddonDialog),
);
