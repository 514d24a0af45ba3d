import type { ActionFunctionArgs } from "@remix-run/node";
import { addonPut } from "~/components/addons/addon-api.server";
import { chromaticActionSchema } from "~/services/addons.schema";
import { methodNotAllowed } from "~/web/api.server";

export const loader = () => methodNotAllowed("PUT");

/** PUT /api/app/chromatic {studioId, action enable|disable, chromaticProjectToken when setting up}: Visual Tests on or off (app/components/addons/addon-api.server.ts has the answers). */
export const action = ({ request }: ActionFunctionArgs) =>
  addonPut(request, "visualTests", chromaticActionSchema, (input) => ({
    studioId: input.studioId,
    enabled: input.action === "enable",
    token: input.chromaticProjectToken,
  }));
