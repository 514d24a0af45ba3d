/** What other areas, routes and components may use of integrations on the server. */
export * from "./oauth-links.server";
export * from "./payments.server";
export * from "./social-accounts.server";
