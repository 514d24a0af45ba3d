/** What other areas, routes and components may use of core on the server. */
export * from "./keyset.server";
export * from "./mail.server";
export * from "./provider-cache.server";
export * from "./provider-failure.server";
export * from "./rate-limit.server";
