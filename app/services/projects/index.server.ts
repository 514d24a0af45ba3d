/** What other areas, routes and components may use of projects on the server. */
export * from "./external-deletions.server";
export * from "./project-data-version.server";
export * from "./project-deletion.server";
export * from "./project-entity.server";
export * from "./project-lookup.server";
export * from "./project-settings.server";
export * from "./projects.server";
export * from "./site-origins.server";
