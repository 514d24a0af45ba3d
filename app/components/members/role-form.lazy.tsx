import { lazyPart } from "~/utils/page-load";

/**
 * A member row's role form, loaded on its own with the invite form: conform and zod (about 39 KB
 * gzip) come only to the people who manage members, for whom the server renders these forms.
 */
export const LazyRoleForm = lazyPart("role-form", () =>
  import("./role-form").then((m) => m.RoleForm),
);
