/** What other areas, routes and components may use of core (also in the browser). */
export * from "./errors";
