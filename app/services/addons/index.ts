/** What other areas, routes and components may use of addons (also in the browser). */
export * from "./addon-catalog";
export * from "./addons.schema";
