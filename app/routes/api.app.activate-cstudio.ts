import type { ActionFunctionArgs } from "@remix-run/node";
import { addonPut } from "~/components/addons/addon-api.server";
import { addonValueSchema } from "~/services/addons.schema";
import { methodNotAllowed } from "~/web/api.server";

export const loader = () => methodNotAllowed("PUT");

/** PUT /api/app/activate-cstudio {studioId, value 'true'|'false', ...}: Ecommerce on or off (app/components/addons/addon-api.server.ts has the answers). */
export const action = ({ request }: ActionFunctionArgs) =>
  addonPut(request, "ecommerce", addonValueSchema, (input) => ({
    studioId: input.studioId,
    enabled: input.value === "true",
  }));
