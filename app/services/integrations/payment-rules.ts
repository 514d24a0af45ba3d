/**
 * The Stripe account form's rules and words, without zod so the dialog can check as people type.
 */
export const DEFAULT_STRIPE_API_VERSION = "2020-08-27";

export const PAYMENT_MESSAGES = {
  added: "Stripe Secret Key Valid: Account Added",
  invalidKey: "Stripe Secret Key Invalid: Account Not Added",
  failedAdd: "Failed to add Stripe account!",
  removed: "Stripe account successfully removed from StackShift!",
  failedRemove: "Failed to remove Stripe account from StackShift",
  invalidApiVersion: "Invalid API Version",
  duplicate: "This Stripe account is already added to the project.",
  failedProducts: "Failed to fetch Stripe Account products",
  alreadyLinked: "Stripe Account is already linked!",
  connectFailed: "Stripe could not complete the connection. Try again in a moment.",
  connectUnavailable: "Connect with Stripe is not available right now.",
  removeWhich:
    "Several Stripe accounts of the project have this name: send account.stripePKey or account.id",
} as const;

/** A Stripe API version has exactly two hyphens (2020-08-27, 2024-06-20.acacia); blank is fine. */
export function apiVersionError(value: string): string | null {
  const version = value.trim();
  if (!version) return null;
  return version.split("-").length === 3 && version.length <= 40
    ? null
    : PAYMENT_MESSAGES.invalidApiVersion;
}

/** The last four characters of a key: all the dashboard ever shows of a secret key. */
export const lastFour = (key: string) => key.trim().slice(-4);
