/**
 * The hosting registry: PROVIDERS=local (default) gives the built-in stand-ins of local.server.ts,
 * PROVIDERS=live the vendor adapters with the NETLIFY_* / VERCEL_* credentials.
 */
import { env, type Env } from "~/utils/env.server";
import { instrumentProvider } from "~/utils/metrics.server";
import { ProviderError } from "../errors";
import { createLocalHosting } from "./local.server";
import { localSitePage } from "./local/page.server";
import { createNetlifyHosting } from "./netlify.server";
import type { HostingProvider, HostingProviderName } from "./types";
import { createVercelHosting } from "./vercel.server";

export type { HostingProvider, HostingProviderName } from "./types";
/** What the local stand-in's public website shows (app/routes/local.sites.$siteId.tsx). */
export { localSitePage };

function missing(name: HostingProviderName, variable: string) {
  // Permanent until the operator sets it: not retryable.
  return new ProviderError(`${variable} is required for ${name} when PROVIDERS=live`, {
    provider: name,
    status: 401,
    code: "missing_credentials",
  });
}

function build(name: HostingProviderName, config: Env): HostingProvider {
  if (config.PROVIDERS === "local") return createLocalHosting(name);
  if (name === "netlify") {
    if (!config.NETLIFY_AUTH_TOKEN) throw missing(name, "NETLIFY_AUTH_TOKEN");
    return createNetlifyHosting({
      token: config.NETLIFY_AUTH_TOKEN,
      baseUrl: config.NETLIFY_API_URL,
      accountSlug: config.NETLIFY_ACCOUNT_SLUG,
    });
  }
  if (!config.VERCEL_TOKEN) throw missing(name, "VERCEL_TOKEN");
  return createVercelHosting({
    token: config.VERCEL_TOKEN,
    teamId: config.VERCEL_TEAM_ID,
    baseUrl: config.VERCEL_API_URL,
  });
}

// One client per provider and parsed environment (tests that call resetEnv() get fresh ones).
const cache = new WeakMap<Env, Map<HostingProviderName, HostingProvider>>();

export function hostingProvider(name: HostingProviderName): HostingProvider {
  const config = env();
  let byName = cache.get(config);
  if (!byName) {
    byName = new Map();
    cache.set(config, byName);
  }
  let provider = byName.get(name);
  if (!provider) {
    // Measured per method (metrics.server.ts); the stand-ins are labelled mode="local".
    provider = instrumentProvider(build(name, config), { provider: name, mode: config.PROVIDERS });
    byName.set(name, provider);
  }
  return provider;
}
