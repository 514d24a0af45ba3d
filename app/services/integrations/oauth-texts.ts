/**
 * The words and destinations of the two authorization return pages (Instagram, Stripe Connect),
 * and the message each posts to the window that opened it.
 */
export type OAuthVendor = "instagram" | "stripe";

export const OAUTH_TEXTS = {
  instagram: {
    vendor: "Instagram",
    authorizing: "Authorizing Instagram account... Do not close this window!",
    success: "Completed Instagram authorization!",
    conflict:
      "Instagram Account is already linked! You can only link 1 account per unique username.",
    openerMessage: "OAuthComplete",
    back: (studioId: string) => `/sites/${encodeURIComponent(studioId)}#social-accounts`,
  },
  stripe: {
    vendor: "Stripe",
    authorizing: "Authorizing Stripe account... Do not close this window!",
    success: "Completed Stripe authorization!",
    conflict: "Stripe Account is already linked!",
    openerMessage: "StripeOAuthComplete",
    back: (studioId: string) => `/sites/integrations/payments/${encodeURIComponent(studioId)}`,
  },
} as const;

/** A state that is unknown, used, expired, or not this user's, session's or project's. */
export const INVALID_STATE_MESSAGE =
  "This authorization was not started here, or it has expired. Start linking again from the project.";

export const OAUTH_FAILED = "Oops. Unable to complete linking process!";
/** Attempts of the exchange before the page gives up (the provider was unreachable each time). */
export const OAUTH_MAX_ATTEMPTS = 10;
/** Seconds the page shows its outcome before it closes itself. */
export const OAUTH_CLOSE_SECONDS = 10;

export const isOAuthVendor = (value: string | undefined): value is OAuthVendor =>
  value === "instagram" || value === "stripe";
