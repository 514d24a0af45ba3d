/** What other areas, routes and components may use of events (also in the browser). */
export * from "./catalog";
