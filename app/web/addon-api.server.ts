import type { z } from "zod";
import type { AddonKey } from "~/services/addons";
import { setAddon } from "~/services/addons/index.server";
import { apiRoute, jsonBody, type ApiHandler } from "./api.server";

/**
 * The six add-on routes of the JSON API in one shape: PUT only (else 405), a signed-in caller,
 * the route's body schema, then setAddon. 200 `{ok, addon, enabled, changed}`; 400 bad body or
 * token, 401 anonymous, 403 not an admin, 404 project hidden, 409 below the add-on's schema
 * version. `others`: the route's other methods (the newsletter's GET of its settings).
 */
export function addonRoute<T extends z.ZodType>(
  addon: AddonKey,
  schema: T,
  read: (input: z.output<T>) => { studioId: string; enabled: boolean; token?: string },
  others: { GET?: ApiHandler } = {},
) {
  return apiRoute({
    ...others,
    PUT: async ({ request, user }) => {
      const input = read(await jsonBody(request, schema));
      const change = await setAddon(user, {
        studioId: input.studioId,
        addon,
        enabled: input.enabled,
        chromaticProjectToken: input.token,
      });
      return Response.json({
        ok: true,
        addon: change.addon,
        enabled: change.enabled,
        changed: change.changed,
      });
    },
  });
}
