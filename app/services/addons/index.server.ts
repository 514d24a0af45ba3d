/** What other areas, routes and components may use of addons on the server. */
export * from "./addons.server";
