/** What other areas, routes and components may use of accounts on the server. */
export * from "./account-tokens.server";
export * from "./accounts.server";
export * from "./address-proof.server";
export * from "./api-tokens.server";
export * from "./sessions.server";
export * from "./sign-in-links.server";
export * from "./unproven-accounts-command.server";
export * from "./user-settings.server";
