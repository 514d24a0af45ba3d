/** What other areas, routes and components may use of members on the server. */
export * from "./invitation-answers.server";
export * from "./member-invitations.server";
export * from "./member-studio-job.server";
export * from "./members.server";
