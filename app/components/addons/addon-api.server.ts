import type { z } from "zod";
import type { AddonKey } from "~/services/addon-catalog";
import { setAddon } from "~/services/addons.server";
import { methodNotAllowed } from "~/web/api.server";
import { handleApi, parseInput, readJson } from "~/web/http.server";
import { requireApiUser } from "~/web/session.server";

/**
 * The add-on routes of the JSON API in one shape: PUT only (else 405), a signed-in caller, the
 * route's body schema, then setAddon. 200 `{ok, addon, enabled, changed}`; 400 bad body or token,
 * 401 anonymous, 403 not an admin, 404 project hidden, 409 below the add-on's schema version.
 */
export function addonPut<T extends z.ZodType>(
  request: Request,
  addon: AddonKey,
  schema: T,
  read: (input: z.output<T>) => { studioId: string; enabled: boolean; token?: string },
) {
  if (request.method.toUpperCase() !== "PUT") return Promise.resolve(methodNotAllowed("PUT"));
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const input = read(parseInput(schema, await readJson(request, 16 * 1024)));
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
  });
}
