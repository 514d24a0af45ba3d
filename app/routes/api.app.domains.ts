import { domainApiSchema } from "~/services/domains";
import { changeDomain } from "~/services/domains/index.server";
import { apiRoute, jsonBody } from "~/web/api.server";

/**
 * PUT /api/app/domains {type, action: update|revert, domain, studioId} (schema version 3 and
 * later also `schemaVersion: 3` and `provider`): sets or reverts the custom domain of the
 * project's site. 200 `{ok, action, domain, changed}`; 400 bad body, an invalid domain or one
 * already used by another project (field errors); 401 anonymous; 403 not an admin; 404 project
 * hidden; 409 site not created yet.
 */
const api = apiRoute({
  PUT: async ({ request, user }) => {
    const input = await jsonBody(request, domainApiSchema);
    const result = await changeDomain(user, {
      studioId: input.studioId,
      provider: input.provider,
      domain: input.action === "revert" ? "" : input.domain,
    });
    return Response.json({ ok: true, ...result });
  },
});

export const loader = api.loader;
export const action = api.action;
