import { addonActionSchema } from "~/services/addons.schema";
import { addonRoute } from "~/web/addon-api.server";

/** PUT /api/app/newsletter {studioId, action enable|disable}: AI Newsletter on or off (app/web/addon-api.server.ts has the answers). */
const api = addonRoute("aiNewsletter", addonActionSchema, (input) => ({
  studioId: input.studioId,
  enabled: input.action === "enable",
}));

export const loader = api.loader;
export const action = api.action;
