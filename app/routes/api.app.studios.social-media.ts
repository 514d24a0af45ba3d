import { addonActionSchema } from "~/services/addons";
import { addonRoute } from "~/web/addon-api.server";

/** PUT /api/app/studios/social-media {studioId, action enable|disable}: Social Media on or off (app/web/addon-api.server.ts has the answers). */
const api = addonRoute("socialMedia", addonActionSchema, (input) => ({
  studioId: input.studioId,
  enabled: input.action === "enable",
}));

export const loader = api.loader;
export const action = api.action;
