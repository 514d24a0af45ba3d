import { chromaticActionSchema } from "~/services/addons";
import { addonRoute } from "~/web/addon-api.server";

/** PUT /api/app/chromatic {studioId, action enable|disable, chromaticProjectToken when setting up}: Visual Tests on or off (app/web/addon-api.server.ts has the answers). */
const api = addonRoute("visualTests", chromaticActionSchema, (input) => ({
  studioId: input.studioId,
  enabled: input.action === "enable",
  token: input.chromaticProjectToken,
}));

export const loader = api.loader;
export const action = api.action;
