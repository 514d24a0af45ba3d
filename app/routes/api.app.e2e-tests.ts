import { addonActionSchema } from "~/services/addons";
import { addonRoute } from "~/web/addon-api.server";

/** PUT /api/app/e2e-tests {studioId, action enable|disable}: End To End Tests on or off (app/web/addon-api.server.ts has the answers). */
const api = addonRoute("endToEndTests", addonActionSchema, (input) => ({
  studioId: input.studioId,
  enabled: input.action === "enable",
}));

export const loader = api.loader;
export const action = api.action;
