import { addonValueSchema } from "~/services/addons";
import { addonRoute } from "~/web/addon-api.server";

/** PUT /api/app/activate-cstudio {studioId, value 'true'|'false', ...}: Ecommerce on or off (app/web/addon-api.server.ts has the answers). */
const api = addonRoute("ecommerce", addonValueSchema, (input) => ({
  studioId: input.studioId,
  enabled: input.value === "true",
}));

export const loader = api.loader;
export const action = api.action;
