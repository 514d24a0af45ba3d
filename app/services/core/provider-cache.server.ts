/**
 * Reads from the hosting providers, cached in this process with stale-while-revalidate
 * (@epic-web/cachified over an LRU). Every dashboard view and its 30 s refresh reads the site and
 * its deployment list; uncached, a hundred people watching one project would spend a vendor's
 * API rate limit in minutes. A settled answer is fresh for PROVIDER_FRESH_MS, one with a build
 * under way for PROVIDER_BUSY_FRESH_MS (people watch those); for PROVIDER_STALE_MS after that it
 * is still answered at once while one refresh runs (concurrent misses share one call).
 * Our own changes (deploy, retry) forget the site's entries so their effect shows at once; other
 * server processes see it within the fresh window. Failures are never cached and never retried
 * here: a vendor 429 reaches the page with its Retry-After.
 */
import { cachified, totalTtl, type Cache, type CacheEntry } from "@epic-web/cachified";
import { LRUCache } from "lru-cache";

export const PROVIDER_FRESH_MS = 15_000;
export const PROVIDER_BUSY_FRESH_MS = 2_000;
export const PROVIDER_STALE_MS = 45_000;

const entries = new LRUCache<string, CacheEntry>({ max: 5_000 });

const cache: Cache = {
  get: (key) => entries.get(key),
  set: (key, value) => {
    const ttl = totalTtl(value?.metadata);
    entries.set(key, value, {
      ttl: ttl === Infinity ? undefined : ttl,
      start: value?.metadata?.createdTime,
    });
  },
  delete: (key) => {
    entries.delete(key);
  },
};

let reads = 0;

/** How many reads reached a provider since the process started (the benchmark reports it). */
export function providerReads(): number {
  return reads;
}

const siteKey = (provider: string, siteId: string) => `${provider}:${siteId}:`;

/** What a cached read did: its value, how many provider calls it took, whether it can change soon. */
export type ProviderRead<T> = { value: T; calls: number; settled: boolean };

/** `read()` through the cache, under a key made of the provider, the site and `what`. */
export function cachedProviderRead<T>(
  provider: string,
  siteId: string,
  what: string,
  read: () => Promise<ProviderRead<T>>,
): Promise<T> {
  return cachified({
    key: `${siteKey(provider, siteId)}${what}`,
    cache,
    ttl: PROVIDER_FRESH_MS,
    staleWhileRevalidate: PROVIDER_STALE_MS,
    getFreshValue: async (context) => {
      const result = await read();
      reads += result.calls;
      if (!result.settled) context.metadata.ttl = PROVIDER_BUSY_FRESH_MS;
      return result.value;
    },
  });
}

/** Forgets every cached read of one site: after we deploy or retry it. */
export function forgetSite(provider: string, siteId: string) {
  const prefix = siteKey(provider, siteId);
  for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key);
}
