/** What other areas, routes and components may use of projects (also in the browser). */
export * from "./project-name";
export * from "./project-settings.schema";
export * from "./project-status";
export * from "./projects.schema";
export * from "./site-types";
