import { env, type Env } from "~/utils/env.server";
import { instrumentProvider } from "~/utils/metrics.server";
import { createLocalContentStudio } from "./local.server";
import { createSanityContentStudio } from "./sanity.server";
import type { ContentStudioProvider } from "./types";

export type { ContentStudioProvider } from "./types";

// One adapter per parsed environment: tests that change PROVIDERS call resetEnv() and get a new one.
const cache = new WeakMap<Env, ContentStudioProvider>();

/** The content studio of this instance: the local stand-in, or Sanity when PROVIDERS=live. */
export function contentStudioProvider(): ContentStudioProvider {
  const current = env();
  let provider = cache.get(current);
  if (!provider) {
    const live = current.PROVIDERS === "live";
    // Measured per method (metrics.server.ts); the stand-in is labelled mode="local".
    provider = instrumentProvider(live ? sanityFromEnv(current) : createLocalContentStudio(), {
      provider: "sanity",
      mode: live ? "live" : "local",
    });
    cache.set(current, provider);
  }
  return provider;
}

function sanityFromEnv(current: Env) {
  if (!current.SANITY_AUTH_TOKEN) {
    throw new Error("PROVIDERS=live needs SANITY_AUTH_TOKEN for the content studio (Sanity)");
  }
  return createSanityContentStudio({
    token: current.SANITY_AUTH_TOKEN,
    organizationId: current.SANITY_ORGANIZATION_ID,
    baseUrl: current.SANITY_API_URL,
    studioHost: current.SANITY_STUDIO_HOST,
  });
}
