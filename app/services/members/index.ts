/** What other areas, routes and components may use of members (also in the browser). */
export * from "./member-roles";
export * from "./members-api.schema";
export * from "./members.schema";
