import { addonActionSchema } from "~/services/addons";
import { getNewsletterSettingsEntity } from "~/services/newsletter/index.server";
import { newsletterQuerySchema } from "~/services/newsletter";
import { addonRoute } from "~/web/addon-api.server";
import { queryInput } from "~/web/api.server";

/**
 * GET /api/app/newsletter?studioId=: the Newsletter settings by the specification's names, with
 * savedTemplates (everyone who sees the project). PUT {studioId, action enable|disable}: AI
 * Newsletter on or off (app/web/addon-api.server.ts has the answers).
 */
const api = addonRoute(
  "aiNewsletter",
  addonActionSchema,
  (input) => ({ studioId: input.studioId, enabled: input.action === "enable" }),
  {
    GET: async ({ request, user }) => {
      const { studioId } = queryInput(request, newsletterQuerySchema, ["studioId"]);
      return Response.json(await getNewsletterSettingsEntity(user, studioId));
    },
  },
);

export const loader = api.loader;
export const action = api.action;
