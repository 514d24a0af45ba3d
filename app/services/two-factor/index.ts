/** What other areas, routes and components may use of two-factor (also in the browser). */
export * from "./passkeys.schema";
export * from "./schema";
