import type { ActionFunctionArgs } from "@remix-run/node";
import { addonPut } from "~/components/addons/addon-api.server";
import { addonActionSchema } from "~/services/addons.schema";
import { methodNotAllowed } from "~/web/api.server";

export const loader = () => methodNotAllowed("PUT");

/** PUT /api/app/studios/social-media {studioId, action enable|disable}: Social Media on or off (app/components/addons/addon-api.server.ts has the answers). */
export const action = ({ request }: ActionFunctionArgs) =>
  addonPut(request, "socialMedia", addonActionSchema, (input) => ({
    studioId: input.studioId,
    enabled: input.action === "enable",
  }));
