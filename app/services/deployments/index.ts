/** What other areas, routes and components may use of deployments (also in the browser). */
export * from "./deployments.schema";
