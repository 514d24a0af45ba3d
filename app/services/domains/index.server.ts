/** What other areas, routes and components may use of domains on the server. */
export * from "./domain-jobs.server";
export * from "./domain-list.server";
export * from "./domains.server";
