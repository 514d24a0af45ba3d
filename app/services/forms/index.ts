/** What other areas, routes and components may use of forms (also in the browser). */
export * from "./forms.schema";
