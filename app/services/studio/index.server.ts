/** What other areas, routes and components may use of studio on the server. */
export * from "./studio-access.server";
export * from "./studio.server";
