/**
 * The browser's half of linking an Instagram account, for tests of the API's half: Connect on the
 * project's card (the owner's session), then Authorize on the local provider's page. Returns the
 * return address, whose query carries the code and the state that exchange_token needs.
 */
import { action as dashboardAction } from "~/routes/_app._project.sites.$studioId/route";
import { action as localAuthorizeAction } from "~/routes/local.oauth.$provider.authorize";
import { call, makeRequest } from "../helpers";
import { locationOf } from "../setup/matchers";

export async function authorizeInstagram(
  cookie: string,
  studioId: string,
  userName: string,
): Promise<URL> {
  const start = await call(
    dashboardAction,
    makeRequest(`/sites/${studioId}`, {
      cookie,
      form: { intent: "social-link", platform: "instagram", professional: "on", mode: "popup" },
    }),
    { studioId },
  );
  const authorize = new URL(locationOf(start)!);
  return new URL(
    locationOf(
      await call(
        localAuthorizeAction,
        makeRequest(authorize.pathname + authorize.search, {
          form: { decision: "authorize", userName },
        }),
        { provider: "instagram" },
      ),
    )!,
  );
}
