/**
 * A Stripe stand-in for the payments contract tests: `GET /v1/products` (active, limit,
 * starting_after) and `GET /v1/prices` (product, active, limit) answering Stripe's list object
 * `{object: "list", url, has_more, data}`, newest first. Products and prices are clones of
 * Stripe's own fixture objects (stripe-mock's fixtures) with new ids and names, so their shapes
 * are the API's. Bearer auth with one valid key; anything else gets Stripe's 401 body. Every
 * request's Stripe-Version header is recorded, and every list item served is kept so a test can
 * check it against the required fields of Stripe's OpenAPI schemas.
 */
import { startStandInServer, type FailureRule, type Recorded, type Reply } from "./hosting-server";

/** Stripe's fixture product (stripe-mock fixtures3, `resources.product`). */
const PRODUCT_FIXTURE = {
  active: true,
  created: 1234567890,
  default_price: "price_1PgafmB7WZ01zgkW02Hf9z6c",
  description: "Comfortable gray cotton t-shirt",
  id: "prod_QXg1hqf4jFNsqG",
  images: [],
  livemode: false,
  marketing_features: [],
  metadata: {},
  name: "T-shirt",
  object: "product",
  package_dimensions: {
    height: 1221029593,
    length: 1106363674,
    weight: 791592328,
    width: 113126854,
  },
  shippable: null,
  statement_descriptor: null,
  tax_code: null,
  unit_label: null,
  updated: 1234567890,
  url: null,
  type: "good",
};

/** Stripe's fixture price (stripe-mock fixtures3, `resources.price`). */
const PRICE_FIXTURE = {
  active: true,
  billing_scheme: "per_unit",
  created: 1234567890,
  currency: "usd",
  custom_unit_amount: { maximum: null, minimum: null, preset: null },
  id: "price_1PgafmB7WZ01zgkW6dKueIc5",
  livemode: false,
  lookup_key: null,
  metadata: {},
  nickname: null,
  object: "price",
  product: "prod_QXg1hqf4jFNsqG",
  recurring: {
    interval: "month",
    interval_count: 1,
    meter: null,
    usage_type: "licensed",
    trial_period_days: null,
  },
  tax_behavior: "unspecified",
  tiers_mode: null,
  transform_quantity: { divide_by: 1592560163, round: "down" },
  type: "recurring",
  unit_amount: 2000,
  unit_amount_decimal: "2000",
};

/** `required` of Stripe's OpenAPI schemas (components.schemas.product / price, the list object). */
export const REQUIRED_FIELDS = {
  product: [
    "active",
    "created",
    "id",
    "images",
    "livemode",
    "metadata",
    "name",
    "object",
    "updated",
  ],
  price: [
    "active",
    "billing_scheme",
    "created",
    "currency",
    "id",
    "livemode",
    "metadata",
    "object",
    "product",
    "type",
  ],
  list: ["data", "has_more", "object", "url"],
} as const;

/** The required fields `item` lacks (an empty list when it has them all). */
export function missingRequiredFields(kind: keyof typeof REQUIRED_FIELDS, item: unknown): string[] {
  const record = (item ?? {}) as Record<string, unknown>;
  return REQUIRED_FIELDS[kind].filter((field) => !(field in record));
}

export type StripeProduct = Omit<typeof PRODUCT_FIXTURE, "default_price"> & {
  default_price: string | null;
};
export type StripePrice = Omit<
  typeof PRICE_FIXTURE,
  "recurring" | "unit_amount" | "unit_amount_decimal"
> & {
  recurring: typeof PRICE_FIXTURE.recurring | null;
  unit_amount: number | null;
  unit_amount_decimal: string | null;
};

export type ProductSeed = {
  name: string;
  active?: boolean;
  /** null: a product without a price. */
  price?: {
    type: "one_time" | "recurring";
    unit_amount: number | null;
    active?: boolean;
  } | null;
};

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;

export async function startStripeStandIn() {
  const secretKey = "sk_test_standin0123456789";
  const products: StripeProduct[] = [];
  const prices: StripePrice[] = [];
  const served: { kind: "product" | "price"; item: unknown }[] = [];
  const listBodies: unknown[] = [];
  let seq = 0;

  const error = (status: number, message: string) => ({
    error: {
      type: status >= 500 ? "api_error" : "invalid_request_error",
      message,
      ...(status === 429 ? { code: "rate_limit" } : {}),
    },
  });

  /**
   * Stripe's list paging over `all` (newest first): the items `keep` accepts after the
   * `starting_after` object, which may be one `keep` refuses (Stripe pages over the whole list),
   * `limit` of them (1 to 100, default 10).
   */
  function list<T extends { id: string; created: number }>(
    all: T[],
    keep: (item: T) => boolean,
    query: URLSearchParams,
    kind: "product" | "price",
  ): Reply {
    const limit = Number(query.get("limit") ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      return { status: 400, body: error(400, "Invalid integer: limit must be between 1 and 100") };
    }
    const sorted = [...all].sort((a, b) => b.created - a.created || b.id.localeCompare(a.id));
    const after = query.get("starting_after");
    const at = after ? sorted.findIndex((item) => item.id === after) : -1;
    if (after && at < 0) return { status: 400, body: error(400, `No such ${kind}: '${after}'`) };
    const matching = sorted.slice(at + 1).filter(keep);
    const data = matching.slice(0, limit);
    for (const item of data) served.push({ kind, item });
    const body = { object: "list", url: `/v1/${kind}s`, has_more: matching.length > limit, data };
    listBodies.push(body);
    return { status: 200, body };
  }

  /** The `active` query parameter: "true", "false" or absent (both). */
  const isActive = (query: URLSearchParams) => {
    const active = query.get("active");
    return (item: { active: boolean }) => active === null || item.active === (active === "true");
  };

  /** Stripe Connect codes not exchanged yet -> the account they connect. */
  const connectCodes = new Map<string, string>();
  const connectTokens: string[] = [];

  function handle(request: Recorded): Reply {
    if (request.method === "POST" && request.path === "/oauth/token") {
      // Stripe Connect's exchange: the platform's secret key, a form body, OAuth's error shape.
      if (request.headers.authorization !== `Bearer ${secretKey}`) {
        return {
          status: 401,
          body: { error: "invalid_client", error_description: "No such api key" },
        };
      }
      const form = new URLSearchParams(typeof request.body === "string" ? request.body : "");
      const code = form.get("code") ?? "";
      const account = connectCodes.get(code);
      if (!account || form.get("grant_type") !== "authorization_code") {
        return {
          status: 400,
          body: {
            error: "invalid_grant",
            error_description: `Authorization code does not exist: ${code}`,
          },
        };
      }
      connectCodes.delete(code);
      const accessToken = `sk_test_connect${account.slice(5)}${connectTokens.length}`;
      connectTokens.push(accessToken);
      return {
        status: 200,
        body: {
          access_token: accessToken,
          livemode: false,
          refresh_token: `rt_${account.slice(5)}`,
          token_type: "bearer",
          stripe_publishable_key: `pk_test_connect${account.slice(5)}`,
          stripe_user_id: account,
          scope: "read_write",
        },
      };
    }
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      return { status: 401, body: error(401, "Invalid API Key provided: sk_test_****1234") };
    }
    if (request.method === "GET" && request.path === "/v1/products") {
      return list(products, isActive(request.query), request.query, "product");
    }
    if (request.method === "GET" && request.path === "/v1/prices") {
      const product = request.query.get("product");
      const active = isActive(request.query);
      const keep = (price: StripePrice) => active(price) && (!product || price.product === product);
      return list(prices, keep, request.query, "price");
    }
    return {
      status: 404,
      body: error(404, `Unrecognized request URL (${request.method}: ${request.path}).`),
    };
  }

  const server = await startStandInServer({ handle, errorBody: error });
  return {
    ...server,
    secretKey,
    /** A Stripe Connect code for `account` (acct_...), as Stripe's authorize page returns. */
    issueConnectCode(account: string) {
      const code = `ac_${account.slice(5)}${connectCodes.size}${Date.now()}`;
      connectCodes.set(code, account);
      return code;
    },
    /** The access tokens Connect exchanges have handed out. */
    connectTokens,
    /** Every list item served so far, with its object type. */
    served,
    /** Every list object served so far. */
    listBodies,
    /** The Stripe-Version header of each request, in order. */
    versions: () => server.requests.map((r) => r.headers["stripe-version"]),
    /**
     * Adds products (each with at most one price), the first the newest, all newer than those
     * added before; returns them as Stripe serves them.
     */
    addProducts(seeds: ProductSeed[]): StripeProduct[] {
      const base = 1_767_225_600 + seq * 3600;
      return seeds.map((seed, i) => {
        const n = ++seq;
        const created = base + (seeds.length - i) * 60;
        const id = `prod_StandIn${String(n).padStart(4, "0")}`;
        let priceId: string | null = null;
        if (seed.price) {
          priceId = `price_StandIn${String(n).padStart(4, "0")}`;
          const recurring = seed.price.type === "recurring";
          prices.push({
            ...structuredClone(PRICE_FIXTURE),
            id: priceId,
            product: id,
            created,
            active: seed.price.active ?? true,
            type: seed.price.type,
            recurring: recurring ? structuredClone(PRICE_FIXTURE.recurring) : null,
            unit_amount: seed.price.unit_amount,
            unit_amount_decimal:
              seed.price.unit_amount === null ? null : String(seed.price.unit_amount),
          });
        }
        const product: StripeProduct = {
          ...structuredClone(PRODUCT_FIXTURE),
          id,
          name: seed.name,
          description: `${seed.name} (stand-in)`,
          active: seed.active ?? true,
          created,
          updated: created + 30,
          default_price: priceId,
        };
        products.push(product);
        return product;
      });
    },
    fail: (rule: FailureRule) => server.fail(rule),
  };
}
