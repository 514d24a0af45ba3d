/** What other areas, routes and components may use of forms on the server. */
export * from "./form-intake.server";
export * from "./form-notifications.server";
export * from "./forms.server";
