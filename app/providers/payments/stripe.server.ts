import { LRUCache } from "lru-cache";
import Stripe from "stripe";
import { ProviderError } from "../errors";
import { httpProviderError } from "../hosting/vendor-errors.server";
import type { PaymentProduct, PaymentsProvider } from "./types";

export type StripeApiOptions = { host?: string; port?: number; protocol?: "http" | "https" };

/** Stripe Connect: the platform's own secret key and client id, and the authorization page. */
export type StripeConnectOptions = {
  platformSecretKey?: string;
  clientId?: string;
  authorizeUrl: string;
};

/** Stripe's answer to a refused key; its own message quotes part of the key, so it is not kept. */
const INVALID_KEY_MESSAGE = "Invalid API Key provided";

/**
 * Stripe through the `stripe` SDK, one client per (secret key, API version): each account's key
 * pins the API version its project chose. No SDK retries: the dialog reports a failure at once
 * and jobs retry ProviderErrors marked retryable themselves.
 */
export function createStripePayments(
  options: StripeApiOptions = {},
  connect: StripeConnectOptions = { authorizeUrl: "https://connect.stripe.com/oauth/authorize" },
): PaymentsProvider {
  const clients = new LRUCache<string, Stripe>({ max: 20 });

  function client(secretKey: string, apiVersion: string): Stripe {
    const cacheKey = `${apiVersion}\n${secretKey}`;
    let stripe = clients.get(cacheKey);
    if (!stripe) {
      stripe = new Stripe(secretKey, {
        // The SDK types only its newest version; the account's chosen one is sent as given.
        apiVersion: (apiVersion.trim() || undefined) as Stripe.LatestApiVersion | undefined,
        host: options.host,
        port: options.port,
        protocol: options.protocol,
        maxNetworkRetries: 0,
        timeout: 10_000,
      });
      clients.set(cacheKey, stripe);
    }
    return stripe;
  }

  /** Runs `call` with the key's client; every failure leaves as a ProviderError without the key. */
  async function withClient<T>(
    secretKey: string,
    apiVersion: string,
    call: (stripe: Stripe) => Promise<T>,
  ): Promise<T> {
    // A blank key makes the SDK throw, and a key with spaces or control characters cannot be a
    // header value: neither is worth a request.
    if (!/^[\x21-\x7e]+$/.test(secretKey)) throw invalidKey();
    try {
      return await call(client(secretKey, apiVersion));
    } catch (error) {
      throw asProviderError(error, secretKey);
    }
  }

  return {
    async checkSecretKey(secretKey, apiVersion) {
      await withClient(secretKey, apiVersion, (stripe) => stripe.products.list({ limit: 1 }));
    },

    async listProducts(secretKey, apiVersion, { active, limit, startingAfter }) {
      return withClient(secretKey, apiVersion, async (stripe) => {
        const page = await stripe.products.list({
          active,
          limit,
          ...(startingAfter ? { starting_after: startingAfter } : {}),
        });
        // One prices.list per product (a page holds at most a few dozen): Stripe lists prices by
        // product, and a product's default_price may be unset or of the other state.
        const products = await Promise.all(
          page.data.map(async (product): Promise<PaymentProduct> => {
            const prices = await stripe.prices.list({ product: product.id, active, limit: 1 });
            const price = prices.data[0];
            return {
              id: product.id,
              name: product.name,
              active: product.active,
              created: product.created,
              updated: product.updated,
              price: price
                ? {
                    // The SDK allows for types added later; anything not recurring is paid once.
                    type: price.type === "recurring" ? "recurring" : "one_time",
                    unit_amount: price.unit_amount ?? null,
                    product: product.id,
                  }
                : null,
            };
          }),
        );
        return { products, hasMore: page.has_more };
      });
    },

    async listPrices(secretKey, apiVersion, { active, limit, startingAfter, product }) {
      return withClient(secretKey, apiVersion, async (stripe) => {
        const page = await stripe.prices.list({
          active,
          limit,
          ...(startingAfter ? { starting_after: startingAfter } : {}),
          ...(product ? { product } : {}),
          expand: ["data.product"],
        });
        return {
          prices: page.data.map((price) => {
            const owner = price.product;
            const expanded = typeof owner === "object" && owner !== null && "name" in owner;
            return {
              id: price.id,
              product: typeof owner === "string" ? owner : owner.id,
              productName: expanded ? owner.name : null,
              active: price.active,
              type: price.type === "recurring" ? ("recurring" as const) : ("one_time" as const),
              unit_amount: price.unit_amount ?? null,
              currency: price.currency,
              created: price.created,
            };
          }),
          hasMore: page.has_more,
        };
      });
    },

    connectAuthorizeUrl({ state, redirectUri }) {
      if (!connect.clientId || !connect.platformSecretKey) throw connectNotConfigured();
      const url = new URL(connect.authorizeUrl);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("client_id", connect.clientId);
      url.searchParams.set("scope", "read_write");
      url.searchParams.set("redirect_uri", redirectUri);
      url.searchParams.set("state", state);
      return url.toString();
    },

    async connectAccount(code) {
      const platformKey = connect.platformSecretKey;
      if (!platformKey) throw connectNotConfigured();
      // The SDK sends OAuth calls to connect.stripe.com, or to the configured host (a stand-in).
      return withClient(platformKey, "", async (stripe) => {
        const token = await stripe.oauth.token({ grant_type: "authorization_code", code });
        if (!token.stripe_user_id || !token.access_token || !token.stripe_publishable_key) {
          throw new ProviderError("Stripe sent an incomplete Connect answer", {
            provider: "stripe",
            status: 502,
          });
        }
        return {
          accountId: token.stripe_user_id,
          accountName: null,
          publishableKey: token.stripe_publishable_key,
          accessToken: token.access_token,
        };
      });
    },
  };
}

function connectNotConfigured() {
  return new ProviderError("Stripe Connect is not configured on this server", {
    provider: "stripe",
    status: 503,
    code: "not_configured",
  });
}

/** The adapter's options for a Stripe API base URL (a stand-in or proxy); {} for none. */
export function stripeApiOptions(url: string | undefined): StripeApiOptions {
  if (!url) return {};
  const parsed = new URL(url);
  const protocol = parsed.protocol === "http:" ? "http" : "https";
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : protocol === "http" ? 80 : 443,
    protocol,
  };
}

function invalidKey() {
  return new ProviderError(INVALID_KEY_MESSAGE, {
    provider: "stripe",
    status: 401,
    code: "unauthorized",
  });
}

type StripeFailure = {
  type?: string;
  statusCode?: number;
  message?: string;
  headers?: Record<string, string | undefined>;
};

function asProviderError(error: unknown, secretKey: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const failure = (error ?? {}) as StripeFailure;
  const message = redact(String(failure.message ?? error), secretKey);
  if (failure.type === "StripeAuthenticationError" || failure.statusCode === 401) {
    return invalidKey();
  }
  if (typeof failure.statusCode === "number" && failure.statusCode >= 400) {
    return httpProviderError("stripe", failure.statusCode, {
      message,
      retryAfter: failure.headers?.["retry-after"],
    });
  }
  // No HTTP answer (StripeConnectionError: network, timeout): retryable.
  return new ProviderError(`Stripe could not be reached: ${message}`, {
    provider: "stripe",
    code: "unreachable",
  });
}

/** Stripe quotes keys in some messages (masked or not); none of it reaches logs or pages. */
function redact(message: string, secretKey: string): string {
  const withoutKey = secretKey ? message.split(secretKey).join("[redacted]") : message;
  return withoutKey.replace(/\b(sk|rk)_(test|live)_[A-Za-z0-9*]+/g, "[redacted]");
}
