import { rollbackApiSchema } from "~/services/deployments";
import { rollBackEntity } from "~/services/deployments/index.server";
import { apiRoute, jsonBody } from "~/web/api.server";

/**
 * POST /api/app/rollback {studioId, deployId}: publishes an earlier ready deployment of the
 * project's site again (the Website page's Roll back). 200 with the deployment now published;
 * 400 bad body, 401 anonymous, 403 not a developer, admin or the owner, 404 project hidden or the
 * deployment not the site's, 409 the site not created yet or the deployment not publishable,
 * 502/503 the hosting provider.
 */
const api = apiRoute({
  POST: async ({ request, user }) => {
    const { studioId, deployId } = await jsonBody(request, rollbackApiSchema);
    return Response.json(await rollBackEntity(user, studioId, deployId));
  },
});

export const loader = api.loader;
export const action = api.action;
