import type { User } from "~/services/accounts/index.server";
import { ConflictError, ServiceError, UpstreamError } from "~/services/core";
import { InvalidLinkStateError } from "~/services/integrations/index.server";
import { completeStripeConnect } from "~/services/integrations/index.server";
import { completeInstagramLink } from "~/services/integrations/index.server";
import type { OAuthVendor } from "~/services/integrations";

/**
 * How an exchange ended: linked; conflict (the account is linked already); refused (the state
 * is not open for this user, session and project); retry (the vendor could not be reached: the
 * code is still unspent); failed (the vendor refused the code, or the right to link is gone).
 */
export type OAuthOutcome = "linked" | "conflict" | "refused" | "retry" | "failed";

export async function completeOAuth(
  vendor: OAuthVendor,
  user: User,
  sessionId: string,
  input: { code: string; state: string },
): Promise<{ outcome: OAuthOutcome; studioId?: string }> {
  try {
    const done =
      vendor === "instagram"
        ? await completeInstagramLink(user, sessionId, input)
        : await completeStripeConnect(user, sessionId, input);
    return { outcome: "linked", studioId: done.studioId };
  } catch (error) {
    if (error instanceof ConflictError) return { outcome: "conflict" };
    if (error instanceof InvalidLinkStateError) return { outcome: "refused" };
    if (error instanceof UpstreamError && error.retryable) return { outcome: "retry" };
    if (error instanceof ServiceError) return { outcome: "failed" };
    throw error;
  }
}
