/** What other areas, routes and components may use of notifications (also in the browser). */
export * from "./schema";
