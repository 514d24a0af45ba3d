import type { ActionFunctionArgs } from "@remix-run/node";
import { addonPut } from "~/components/addons/addon-api.server";
import { addonActionSchema } from "~/services/addons.schema";
import { methodNotAllowed } from "~/web/api.server";

export const loader = () => methodNotAllowed("PUT");

/** PUT /api/app/newsletter {studioId, action enable|disable}: AI Newsletter on or off (app/components/addons/addon-api.server.ts has the answers). */
export const action = ({ request }: ActionFunctionArgs) =>
  addonPut(request, "aiNewsletter", addonActionSchema, (input) => ({
    studioId: input.studioId,
    enabled: input.action === "enable",
  }));
