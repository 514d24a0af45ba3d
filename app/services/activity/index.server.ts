/** What other areas, routes and components may use of activity on the server. */
export * from "./activity-log.server";
export * from "./activity.server";
export * from "./audit-log.server";
export * from "./support-access.server";
