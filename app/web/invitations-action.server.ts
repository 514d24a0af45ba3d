import { ServiceError, NotFoundError } from "~/services/core";
import type { User } from "~/services/accounts/index.server";
import { MEMBER_TOASTS, projectInvitationSchema } from "~/services/members";
import { acceptProjectInvitation, declineProjectInvitation } from "~/services/members/index.server";
import { ProjectNotFoundError } from "~/services/permissions/index.server";
import { notFound } from "~/utils/responses.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { InvitationIntent } from "~/components/members/member-intents";

/** What /sites says for an invitation it cannot find, whether the project exists or not. */
const NO_LONGER_VALID =
  "This invitation is no longer valid: it was revoked, resent or already accepted";

/**
 * Accept and Decline of one's own invitation, plain form posts (with or without JavaScript).
 *
 * - On /sites (the pending invitations) the form names the project by its studioId. Accept
 *   lands on the project's dashboard, as the mailed card does; Decline comes back to /sites.
 *   Whatever fails comes back to /sites with the invitations' failure toast; an unknown project
 *   reads like a spent invitation, so ids cannot be probed.
 * - On the project's dashboard (its invitation card) the page's project is the one answered.
 *   Accept lands on the dashboard, Decline on / like the card's; someone the project is hidden
 *   from gets the page's own answer, 404.
 */
export async function invitationsAction(
  user: User,
  intent: InvitationIntent,
  formData: FormData,
  on: { page: "sites" } | { page: "dashboard"; studioId: string },
) {
  const back = on.page === "sites" ? "/sites" : `/sites/${on.studioId}`;
  const failed = (description: string | undefined) =>
    // Invitations have one failure toast (the card uses it for Ignore too).
    redirectWithToast(back, { type: "error", title: MEMBER_TOASTS.acceptFailed, description });

  const parsed = projectInvitationSchema.safeParse({
    studioId: on.page === "dashboard" ? on.studioId : formData.get("studioId"),
  });
  if (!parsed.success) return failed(parsed.error.issues[0]?.message);
  const { studioId } = parsed.data;

  try {
    if (intent === "invitation-accept") {
      const accepted = await acceptProjectInvitation(user, studioId);
      return redirectWithToast(`/sites/${accepted.studioId}`, {
        type: "success",
        title: MEMBER_TOASTS.accepted,
      });
    }
    const declined = await declineProjectInvitation(user, studioId);
    return redirectWithToast(on.page === "sites" ? "/sites" : "/", {
      type: "info",
      title: MEMBER_TOASTS.declined,
      description: `You declined the invitation to ${declined.projectName}.`,
    });
  } catch (error) {
    if (on.page === "dashboard" && error instanceof ProjectNotFoundError) {
      notFound();
    }
    if (!(error instanceof ServiceError)) throw error;
    return failed(error instanceof NotFoundError ? NO_LONGER_VALID : error.message);
  }
}
