import { lazyPart } from "~/utils/page-load";

/**
 * The 'Create New' dialog, loaded when it opens: its form brings conform and zod (about 38 KB
 * gzip) that no other part of the project list or the shell needs (docs/performance.md). The
 * server renders it in place, so the no-JavaScript form is on the page as before.
 */
export const LazyCreateProjectDialog = lazyPart("create-project-dialog", () =>
  import("./create-project-dialog").then((m) => m.CreateProjectDialog),
);
