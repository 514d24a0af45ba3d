import { env, type Env } from "~/utils/env.server";
import { instrumentProvider } from "~/utils/metrics.server";
import { createLocalPayments } from "./local.server";
import { createStripePayments, stripeApiOptions } from "./stripe.server";
import type { PaymentsProvider } from "./types";

export type { ConnectedAccount, PaymentProduct, PaymentsProvider, ProductPage } from "./types";

/** Where Stripe Connect sends the browser back: registered with the platform. */
export const stripeConnectRedirectUri = () => `${env().APP_URL}/oauth/stripe/callback`;
export { PRODUCT_PREFIXES, type ProductPrefix } from "./product-prefixes";

const cache = new WeakMap<Env, PaymentsProvider>();

/** Stripe when PROVIDERS=live (at STRIPE_API_URL when set), else the local catalogue. */
export function paymentsProvider(): PaymentsProvider {
  const current = env();
  let provider = cache.get(current);
  if (!provider) {
    // Measured per method (metrics.server.ts); the stand-in is labelled mode="local".
    provider = instrumentProvider(
      current.PROVIDERS === "live"
        ? createStripePayments(stripeApiOptions(current.STRIPE_API_URL), {
            platformSecretKey: current.STRIPE_SECRET_KEY,
            clientId: current.STRIPE_CONNECT_CLIENT_ID,
            authorizeUrl: current.STRIPE_CONNECT_AUTHORIZE_URL,
          })
        : createLocalPayments(),
      { provider: "stripe", mode: current.PROVIDERS },
    );
    cache.set(current, provider);
  }
  return provider;
}
