/** What other areas, routes and components may use of platform on the server. */
export * from "./access-requests.server";
export * from "./health.server";
export * from "./key-rotation-command.server";
export * from "./key-rotation.server";
