/**
 * Payments: the Stripe accounts a project's forms take payments with. The dashboard checks a
 * pasted secret key with a product-list call, and lists an account's products (active and
 * archived) with their prices. Stripe (`stripe` SDK) when PROVIDERS=live, a local catalogue
 * otherwise. Vendor refusals are ProviderError (401: the key is invalid).
 */

/**
 * A product with its first price, in Stripe's names (the specification's Payment product): seconds
 * since the epoch, amounts in cents, `product` the price's product id.
 */
export type PaymentProduct = {
  id: string;
  name: string;
  active: boolean;
  created: number;
  updated: number;
  /** null when the product has no price; `unit_amount` null when the customer chooses it. */
  price: { type: "one_time" | "recurring"; unit_amount: number | null; product: string } | null;
};

export type ProductPage = { products: PaymentProduct[]; hasMore: boolean };

/** A price with its product's id (`product`) and name (Stripe's fields, amounts in cents). */
export type PaymentPrice = {
  id: string;
  product: string;
  productName: string | null;
  active: boolean;
  type: "one_time" | "recurring";
  unit_amount: number | null;
  currency: string;
  created: number;
};

export type PricePage = { prices: PaymentPrice[]; hasMore: boolean };

/** A Stripe account connected through Stripe Connect (OAuth): its keys for this platform. */
export type ConnectedAccount = {
  accountId: string;
  /** A name to list it under (the local page asks for one; Stripe's answer has none). */
  accountName: string | null;
  publishableKey: string;
  /** Used like a secret key; stored encrypted. */
  accessToken: string;
};

export type PaymentsProvider = {
  /** Resolves when `secretKey` may read the account's products; ProviderError (401) otherwise. */
  checkSecretKey(secretKey: string, apiVersion: string): Promise<void>;
  /**
   * One page of products (`active` true: active, false: archived), newest first, after the
   * product `startingAfter`; each with its first price of the same state.
   */
  listProducts(
    secretKey: string,
    apiVersion: string,
    options: { active: boolean; limit: number; startingAfter?: string },
  ): Promise<ProductPage>;
  /** One page of prices (of one product when `product` is given), newest first. */
  listPrices(
    secretKey: string,
    apiVersion: string,
    options: { active: boolean; limit: number; startingAfter?: string; product?: string },
  ): Promise<PricePage>;
  /** Stripe Connect's authorization page (scope read_write) for `state`. */
  connectAuthorizeUrl(input: { state: string; redirectUri: string }): string;
  /** The code from the return page -> the connected account; ProviderError 400 when refused. */
  connectAccount(code: string, redirectUri: string): Promise<ConnectedAccount>;
};
