/** What other areas, routes and components may use of platform (also in the browser). */
export * from "./access-requests.schema";
