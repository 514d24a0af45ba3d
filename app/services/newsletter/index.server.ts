/** What other areas, routes and components may use of newsletter on the server. */
export * from "./newsletter-domains.server";
export * from "./newsletter-templates.server";
export * from "./newsletter.server";
