/** What other areas, routes and components may use of analytics on the server. */
export * from "./analytics.server";
