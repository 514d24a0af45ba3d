/** What other areas, routes and components may use of newsletter (also in the browser). */
export * from "./newsletter-rules";
export * from "./newsletter-templates.schema";
export * from "./newsletter.schema";
