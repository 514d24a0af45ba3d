/** What other areas, routes and components may use of studio (also in the browser). */
export * from "./studio.schema";
