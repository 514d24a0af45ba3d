/** What other areas, routes and components may use of lifecycle on the server. */
export * from "./common.server";
export * from "./deploy.server";
export * from "./poll.server";
export * from "./provision.server";
export * from "./queue.server";
export * from "./sweep.server";
