/** What other areas, routes and components may use of api on the server. */
export * from "./openapi.server";
