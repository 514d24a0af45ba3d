import { env, type Env } from "~/utils/env.server";
import { instrumentProvider } from "~/utils/metrics.server";
import { createLocalNewsletter } from "./local.server";
import { createResendNewsletter } from "./resend.server";
import type { NewsletterProvider } from "./types";

export type {
  NewsletterProvider,
  SenderDnsRecord,
  SenderDomain,
  SenderDomainStatus,
} from "./types";

const cache = new WeakMap<Env, NewsletterProvider>();

/** Resend when PROVIDERS=live (RESEND_API_KEY, at RESEND_BASE_URL when set), else local. */
export function newsletterProvider(): NewsletterProvider {
  const current = env();
  let provider = cache.get(current);
  if (!provider) {
    // Measured per method (metrics.server.ts); the stand-in is labelled mode="local".
    provider = instrumentProvider(
      current.PROVIDERS === "live"
        ? createResendNewsletter({
            apiKey: current.RESEND_API_KEY,
            baseUrl: current.RESEND_BASE_URL,
          })
        : createLocalNewsletter(),
      { provider: "resend", mode: current.PROVIDERS },
    );
    cache.set(current, provider);
  }
  return provider;
}
