/** What other areas, routes and components may use of accounts (also in the browser). */
export * from "./account-access";
export * from "./accounts.schema";
export * from "./email.schema";
export * from "./api-tokens.schema";
export * from "./mailboxes";
export * from "./proof.schema";
export * from "./user-settings.schema";
