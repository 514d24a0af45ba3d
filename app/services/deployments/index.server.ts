/** What other areas, routes and components may use of deployments on the server. */
export * from "./deployments.server";
export * from "./test-runs.server";
export * from "./website.server";
