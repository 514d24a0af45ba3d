/**
 * The product ID prefixes the dashboard recognises: a product whose ID starts with `<prefix>-`
 * (pricing-, website-, ecommerce-, newsletter-). Accounts hold products with other IDs too
 * (Stripe's own `prod_...`), so callers filter on these.
 */
export const PRODUCT_PREFIXES = ["pricing", "website", "ecommerce", "newsletter"] as const;

export type ProductPrefix = (typeof PRODUCT_PREFIXES)[number];
