/**
 * Where a second factor is required (docs/decisions/042-second-factor-required.md):
 * - platform admins, when REQUIRE_ADMIN_SECOND_FACTOR is on (by default on a public https
 *   address): /admin, /admin/tokens and support access to projects wait for one;
 * - the members of a project whose owner requires it (projects.require_two_factor): the
 *   project's pages and its API wait for one.
 * A second factor is one of ours (User.hasSecondFactor) or, for this session, a single sign-on
 * whose ID token says the identity provider asked for one (User.ssoSecondFactor, read from `amr`
 * and `acr` in app/web/oidc.server.ts). Not exported through ./index.ts on purpose: only the
 * authorization path and the HTTP edge ask.
 */
import type { User } from "~/services/accounts/index.server";
import { ForbiddenError } from "~/services/core";
import { env } from "~/utils/env.server";

/** Where to set one up. */
export const SECOND_FACTOR_SETUP_PATH = "/sites/user-settings/two-factor";

export type SecondFactorReason = "platform-admin" | "project";

/** Refused until the person sets up a second factor; the pages show why and where. */
export class SecondFactorRequiredError extends ForbiddenError {
  constructor(readonly reason: SecondFactorReason) {
    super(
      reason === "platform-admin"
        ? `Platform admins need a second factor on this server: set one up in User Settings (${SECOND_FACTOR_SETUP_PATH}) before using the admin pages or opening customers' projects.`
        : `This project's owner requires a second factor of its members: set one up in User Settings (${SECOND_FACTOR_SETUP_PATH}) to open it.`,
    );
    this.name = "SecondFactorRequiredError";
  }
}

/** The person signed in with a second factor of ours, or this session's single sign-on used one. */
export function hasSecondFactorNow(user: User): boolean {
  return Boolean(user.hasSecondFactor || user.ssoSecondFactor);
}

/** A platform admin who must set one up before the admin pages and support access. */
export function adminNeedsSecondFactor(user: User | null | undefined): boolean {
  return Boolean(user?.isAdmin && env().requireAdminSecondFactor && !hasSecondFactorNow(user));
}

export function assertAdminSecondFactor(user: User): void {
  if (adminNeedsSecondFactor(user)) throw new SecondFactorRequiredError("platform-admin");
}
