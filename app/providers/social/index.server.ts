import { env, type Env } from "~/utils/env.server";
import { instrumentProvider } from "~/utils/metrics.server";
import { createInstagram } from "./instagram.server";
import { createLocalSocial } from "./local.server";
import type { SocialProvider } from "./types";

export type { SocialProfile, SocialProvider, SocialToken } from "./types";

const cache = new WeakMap<Env, SocialProvider>();

/** Instagram when PROVIDERS=live (its app id and secret from the environment), else local. */
export function socialProvider(): SocialProvider {
  const current = env();
  let provider = cache.get(current);
  if (!provider) {
    // Measured per method (metrics.server.ts); the stand-in is labelled mode="local".
    provider = instrumentProvider(
      current.PROVIDERS === "live"
        ? createInstagram({
            clientId: current.INSTAGRAM_CLIENT_ID ?? "",
            clientSecret: current.INSTAGRAM_CLIENT_SECRET ?? "",
            authorizeUrl: current.INSTAGRAM_AUTHORIZE_URL,
            apiUrl: current.INSTAGRAM_API_URL.replace(/\/+$/, ""),
            graphUrl: current.INSTAGRAM_GRAPH_URL.replace(/\/+$/, ""),
          })
        : createLocalSocial(),
      { provider: "instagram", mode: current.PROVIDERS },
    );
    cache.set(current, provider);
  }
  return provider;
}

/** Where Instagram sends the browser back: registered with the app. */
export const instagramRedirectUri = () => `${env().APP_URL}/oauth/instagram/callback`;
