/** What other areas, routes and components may use of webhooks (also in the browser). */
export * from "./schema";
