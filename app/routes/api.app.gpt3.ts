import { addonValueSchema } from "~/services/addons";
import { addonRoute } from "~/web/addon-api.server";

/** PUT /api/app/gpt3 {studioId, value 'true'|'false', ...}: GPT on or off (app/web/addon-api.server.ts has the answers). */
const api = addonRoute("gpt", addonValueSchema, (input) => ({
  studioId: input.studioId,
  enabled: input.value === "true",
}));

export const loader = api.loader;
export const action = api.action;
