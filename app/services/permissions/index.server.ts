/** What other areas, routes and components may use of permissions on the server. */
export * from "./permissions-sql.server";
export * from "./permissions.server";
