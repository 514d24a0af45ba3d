/** What other areas, routes and components may use of integrations (also in the browser). */
export * from "./integration-catalog";
export * from "./oauth-texts";
export * from "./payment-rules";
export * from "./payments.schema";
export * from "./social-accounts-rules";
export * from "./social-accounts.schema";
