/** What other areas, routes and components may use of domains (also in the browser). */
export * from "./domain-names";
export * from "./domains.schema";
