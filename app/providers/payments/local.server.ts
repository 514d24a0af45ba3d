import { createHash } from "node:crypto";
import { env } from "~/utils/env.server";
import { ProviderError } from "../errors";
import { redeemLocalCode } from "../local-oauth.server";
import type { PaymentProduct, PaymentsProvider } from "./types";

type SeedPrice = { type: "one_time" | "recurring"; unit_amount: number | null };
type Seed = [id: string, name: string, price: SeedPrice | null, active?: false];

const recurring = (cents: number | null): SeedPrice => ({ type: "recurring", unit_amount: cents });
const oneTime = (cents: number | null): SeedPrice => ({ type: "one_time", unit_amount: cents });

/**
 * The catalogue every valid key sees, newest first: products under each recognised prefix,
 * a few under others (`legacy-`, Stripe's own `prod_`), archived ones, both price types, one
 * product without a price and one whose price has no fixed amount (pay what you want). Thirty
 * active products and eight archived ones, so the dashboard's pages have a next page.
 */
const SEEDS: Seed[] = [
  ["pricing-starter", "Starter plan", recurring(900)],
  ["ecommerce-tshirt", "Organic cotton T-shirt", oneTime(2500)],
  ["website-landing-page", "Landing page build", oneTime(49_900)],
  ["newsletter-weekly-digest", "Weekly digest", recurring(500)],
  ["pricing-legacy-basic", "Basic plan (2023)", recurring(700), false],
  ["pricing-professional", "Professional plan", recurring(2900)],
  ["ecommerce-hoodie", "Zip hoodie", oneTime(5900)],
  ["website-custom-quote", "Custom website (quoted)", null],
  ["legacy-consulting-hour", "Consulting hour", oneTime(15_000)],
  ["newsletter-monthly-insights", "Monthly insights", recurring(1200)],
  ["ecommerce-cap", "Embroidered cap", oneTime(1800), false],
  ["pricing-business", "Business plan", recurring(7900)],
  ["ecommerce-mug", "Enamel mug", oneTime(1500)],
  ["website-hosting-annual", "Managed hosting (yearly)", recurring(24_000)],
  ["prod_NWjs8kKbJWmuuc", "Gold membership", recurring(10_000)],
  ["newsletter-tip-jar", "Tip jar", oneTime(null)],
  ["website-domain-transfer", "Domain transfer", oneTime(2000), false],
  ["pricing-enterprise", "Enterprise plan", recurring(29_900)],
  ["ecommerce-sticker-pack", "Sticker pack", oneTime(600)],
  ["website-maintenance", "Website care plan", recurring(4900)],
  ["newsletter-premium-letters", "Premium letters", recurring(800)],
  ["legacy-setup-fee", "Setup fee", oneTime(9900), false],
  ["pricing-agency", "Agency plan", recurring(14_900)],
  ["ecommerce-gift-card", "Gift card", oneTime(5000)],
  ["website-five-page-site", "Five page website", oneTime(129_900)],
  ["newsletter-founders-club", "Founders club", recurring(25_000)],
  ["ecommerce-phone-case", "Phone case", oneTime(2200), false],
  ["pricing-basic", "Basic plan", recurring(1500)],
  ["ecommerce-poster", "Art print poster", oneTime(3500)],
  ["website-blog-setup", "Blog setup", oneTime(19_900)],
  ["prod_Ofg5kTnXzq8p2L", "Workshop ticket", oneTime(12_000), false],
  ["newsletter-sponsorship-slot", "Sponsorship slot", oneTime(40_000)],
  ["pricing-standard", "Standard plan", recurring(1900)],
  ["ecommerce-tote-bag", "Canvas tote bag", oneTime(2000)],
  ["website-seo-audit", "SEO audit", oneTime(29_900)],
  ["newsletter-daily-brief", "Daily brief", recurring(300), false],
  ["pricing-nonprofit", "Nonprofit plan", recurring(0)],
  ["website-starter-2019", "Starter website (2019)", oneTime(59_900), false],
];

/** 2026-01-15T12:00:00Z; each older product was created seven hours before the one above it. */
const NEWEST = 1_768_478_400;

export const LOCAL_CATALOGUE: readonly PaymentProduct[] = SEEDS.map(
  ([id, name, price, active], i) => {
    const created = NEWEST - i * 7 * 3600;
    return {
      id,
      name,
      active: active ?? true,
      created,
      updated: created + (i % 4) * 86_400,
      price: price && { ...price, product: id },
    };
  },
);

/** Stripe's own page-size bounds. */
const MAX_LIMIT = 100;

/**
 * Payments without Stripe: secret keys shaped like Stripe test keys (sk_test_ and at least eight
 * letters or digits) are valid unless they say "invalid"; one saying "ratelimited" is refused
 * with 429 as Stripe does when an account sends too many requests. 'Connect with Stripe' goes
 * through the dashboard's own authorization page (/local/oauth/stripe/authorize), which grants
 * the account id typed there; its keys are derived from that id, so connecting the same account
 * twice gives the same publishable key (and 'Stripe Account is already linked!').
 */
export function createLocalPayments(): PaymentsProvider {
  return {
    async checkSecretKey(secretKey) {
      authorize(secretKey);
    },

    async listProducts(secretKey, _apiVersion, { active, limit, startingAfter }) {
      authorize(secretKey);
      let from = 0;
      if (startingAfter) {
        // Like Stripe, the cursor may be any product of the account; the page is the products of
        // the requested state created after (older than) it.
        const at = LOCAL_CATALOGUE.findIndex((p) => p.id === startingAfter);
        if (at < 0) {
          throw new ProviderError(`No such product: '${startingAfter}'`, {
            provider: "stripe",
            status: 400,
            code: "bad_request",
          });
        }
        from = at + 1;
      }
      const size = Math.min(Math.max(Math.trunc(limit) || 1, 1), MAX_LIMIT);
      const matching = LOCAL_CATALOGUE.slice(from).filter((p) => p.active === active);
      return {
        products: matching.slice(0, size).map((p) => ({ ...p, price: p.price && { ...p.price } })),
        hasMore: matching.length > size,
      };
    },

    async listPrices(secretKey, _apiVersion, { active, limit, startingAfter, product }) {
      authorize(secretKey);
      const all = LOCAL_CATALOGUE.filter(
        (p) => p.price && p.active === active && (!product || p.id === product),
      ).map((p) => ({
        id: `price_${p.id.replace(/[^A-Za-z0-9]/g, "")}`,
        product: p.id,
        productName: p.name,
        active: p.active,
        type: p.price!.type,
        unit_amount: p.price!.unit_amount,
        currency: "usd",
        created: p.created,
      }));
      let from = 0;
      if (startingAfter) {
        const at = all.findIndex((price) => price.id === startingAfter);
        if (at < 0) {
          throw new ProviderError(`No such price: '${startingAfter}'`, {
            provider: "stripe",
            status: 400,
            code: "bad_request",
          });
        }
        from = at + 1;
      }
      const size = Math.min(Math.max(Math.trunc(limit) || 1, 1), MAX_LIMIT);
      return { prices: all.slice(from, from + size), hasMore: all.length > from + size };
    },

    connectAuthorizeUrl({ state, redirectUri }) {
      const url = new URL("/local/oauth/stripe/authorize", env().APP_URL);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("client_id", "ca_local");
      url.searchParams.set("scope", "read_write");
      url.searchParams.set("redirect_uri", redirectUri);
      url.searchParams.set("state", state);
      return url.toString();
    },

    async connectAccount(code, redirectUri) {
      const claims = redeemLocalCode("stripe", code);
      if (!claims?.accountId || claims.redirectUri !== redirectUri) {
        throw new ProviderError("Authorization code does not exist", {
          provider: "stripe",
          status: 400,
          code: "invalid_grant",
        });
      }
      const derived = (label: string) =>
        createHash("sha256").update(`${label}:${claims.accountId}`).digest("hex").slice(0, 24);
      return {
        accountId: claims.accountId,
        accountName: claims.accountName || null,
        publishableKey: `pk_test_${derived("pk")}`,
        accessToken: `sk_test_${derived(`sk:${code}`)}`,
      };
    },
  };
}

function authorize(secretKey: string) {
  if (!/^sk_test_[A-Za-z0-9]{8,}$/.test(secretKey) || /invalid/i.test(secretKey)) {
    throw new ProviderError("Invalid API Key provided", {
      provider: "stripe",
      status: 401,
      code: "unauthorized",
    });
  }
  if (/ratelimited/i.test(secretKey)) {
    throw new ProviderError("Too many requests hit the API too quickly", {
      provider: "stripe",
      status: 429,
      code: "rate_limited",
      retryAfterSeconds: 60,
    });
  }
}
