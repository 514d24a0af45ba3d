/** What other areas, routes and components may use of analytics (also in the browser). */
export * from "./analytics.schema";
