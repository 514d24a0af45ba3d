/** What other areas, routes and components may use of support-desk (also in the browser). */
export * from "./support-time";
export * from "./support.schema";
export * from "./types";
