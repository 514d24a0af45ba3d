import { parseWithZod } from "@conform-to/zod/v4";
import { InvalidError, RateLimitedError } from "~/services/core";
import {
  changeRoleSchema,
  DUPLICATE_MEMBER_MESSAGE,
  inviteMemberSchema,
  MEMBER_TOASTS,
  removeMemberSchema,
  resendInvitationSchema,
} from "~/services/members";
import { changeMemberRole, leaveProject, removeMember } from "~/services/members/index.server";
import {
  DuplicateMemberError,
  inviteMember,
  resendInvitation,
} from "~/services/members/index.server";
import { formReply } from "~/web/http.server";
import { formFailure } from "~/web/intents.server";
import { requireRecentProof } from "~/web/proof.server";
import { safeRedirect } from "~/web/session.server";
import type { User } from "~/services/accounts/index.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { MemberIntent } from "~/components/members/member-intents";

/** Back to the dashboard the form was on, without the `?confirm=` that opened a confirmation. */
function backTo(redirectTo: FormDataEntryValue | null, studioId: string) {
  const url = new URL(safeRedirect(redirectTo, `/sites/${studioId}`), "http://local");
  url.searchParams.delete("confirm");
  return `${url.pathname}${url.search}`;
}

const FAILURE: Record<MemberIntent, string> = {
  "member-invite": MEMBER_TOASTS.addFailed,
  "member-resend": MEMBER_TOASTS.resendFailed,
  "member-remove": MEMBER_TOASTS.removeFailed,
  "member-leave": MEMBER_TOASTS.leaveFailed,
  "member-role": MEMBER_TOASTS.roleFailed,
};

/**
 * The Members section's forms on /sites/{studioId} (with fetchers, or plain posts without
 * JavaScript): invite, resend, revoke/remove, leave and role change. Each calls one service and
 * goes back with its toast (`MEMBER_TOASTS`); a refused invite re-renders the form with the
 * message beside the field.
 */

/**
 * Where "Confirm it's you" returns: the dashboard, told which form to fill again with what was
 * typed (the loader reads the kept form only when asked, so an ordinary load costs nothing).
 */
function refill(back: string, intent: string) {
  const url = new URL(back, "http://dashboard.invalid");
  url.searchParams.set("refill", intent);
  return url.pathname + url.search + url.hash;
}
export async function membersAction(
  user: User,
  studioId: string,
  intent: MemberIntent,
  formData: FormData,
  request: Request,
) {
  // The page's project is the one acted on, whatever the form says.
  formData.set("studioId", studioId);
  const back = backTo(formData.get("redirectTo"), studioId);
  const failed = (caught: unknown) => {
    const error = formFailure(caught);
    return redirectWithToast(back, {
      type: "error",
      title: FAILURE[intent],
      description: error.message,
    });
  };
  const invalid = (message: string | undefined) =>
    redirectWithToast(back, { type: "error", title: FAILURE[intent], description: message });

  if (intent === "member-invite") {
    const submission = parseWithZod(formData, { schema: inviteMemberSchema });
    if (submission.status !== "success") {
      return formReply({ result: submission.reply() }, 400);
    }
    // Making someone a project admin is irreversible enough to ask for a recent proof (decision 039).
    if (submission.value.role === "admin") {
      await requireRecentProof(request, user, { formData, returnTo: refill(back, intent) });
    }
    try {
      const { member } = await inviteMember(user, submission.value, { onExisting: "reject" });
      return redirectWithToast(back, { type: "success", title: MEMBER_TOASTS.sent(member.email) });
    } catch (error) {
      if (error instanceof DuplicateMemberError) {
        return formReply(
          { result: submission.reply({ fieldErrors: { email: [DUPLICATE_MEMBER_MESSAGE] } }) },
          409,
        );
      }
      // Past an invitation limit: what happened and when to retry, by the field (429 and
      // Retry-After, with or without JavaScript).
      if (error instanceof RateLimitedError) {
        return formReply(
          { result: submission.reply({ fieldErrors: { email: [error.message] } }) },
          error,
        );
      }
      // An address the form may not invite (support inviting a platform admin): by the field.
      if (error instanceof InvalidError && error.fieldErrors.email) {
        return formReply(
          { result: submission.reply({ fieldErrors: { email: error.fieldErrors.email } }) },
          400,
        );
      }
      return failed(error);
    }
  }

  if (intent === "member-resend") {
    const parsed = resendInvitationSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return invalid(parsed.error.issues[0]?.message);
    try {
      await resendInvitation(user, parsed.data);
      return redirectWithToast(back, { type: "success", title: MEMBER_TOASTS.resent });
    } catch (error) {
      return failed(error);
    }
  }

  if (intent === "member-remove") {
    const parsed = removeMemberSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return invalid(parsed.error.issues[0]?.message);
    try {
      const { outcome } = await removeMember(user, parsed.data);
      return redirectWithToast(back, {
        type: "success",
        title: outcome === "revoked" ? MEMBER_TOASTS.revoked : MEMBER_TOASTS.removed,
      });
    } catch (error) {
      return failed(error);
    }
  }

  if (intent === "member-leave") {
    try {
      await leaveProject(user, studioId);
      return redirectWithToast("/", { type: "success", title: MEMBER_TOASTS.left });
    } catch (error) {
      return failed(error);
    }
  }

  const parsed = changeRoleSchema.safeParse({ ...Object.fromEntries(formData), action: "role" });
  if (!parsed.success) return invalid(parsed.error.issues[0]?.message);
  if (parsed.data.role === "admin") {
    await requireRecentProof(request, user, { formData, returnTo: refill(back, intent) });
  }
  try {
    const result = await changeMemberRole(user, parsed.data);
    return redirectWithToast(back, {
      type: result.changed ? "success" : "info",
      title: result.changed ? MEMBER_TOASTS.roleChanged : "Role unchanged",
    });
  } catch (error) {
    return failed(error);
  }
}
