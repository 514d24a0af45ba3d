import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import type { User } from "~/services/accounts/index.server";
import { NotFoundError, ServiceError, UpstreamError } from "~/services/core";
import {
  linkSocialAccountSchema,
  SOCIAL_MESSAGES,
  unlinkSocialAccountSchema,
} from "~/services/integrations";
import { startInstagramLink, unlinkSocialAccount } from "~/services/integrations/index.server";
import { formReply } from "~/web/http.server";
import { notFound } from "~/utils/responses.server";
import { getSession } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { SOCIAL_LINK_INTENT, SOCIAL_UNLINK_INTENT } from "~/components/social/social-accounts";
import { formFailure } from "~/web/intents.server";

/** The `intent` values of the Social accounts card's forms. */
export const SOCIAL_INTENTS = [SOCIAL_LINK_INTENT, SOCIAL_UNLINK_INTENT] as const;

/**
 * The Social accounts card's forms. Connect answers with a redirect to Instagram's authorization
 * page (in the popup the form posted into, or in this tab without JavaScript); Unlink removes the
 * account and says so. A project hidden from the user stays a 404.
 */
export async function socialAction(
  request: Request,
  user: User,
  studioId: string,
  formData: FormData,
) {
  const card = `/sites/${encodeURIComponent(studioId)}`;
  if (formData.get("intent") === SOCIAL_LINK_INTENT) {
    const submission = parseWithZod(formData, { schema: linkSocialAccountSchema });
    if (submission.status !== "success") return formReply({ result: submission.reply() }, 400);
    const session = await getSession(request);
    try {
      return redirect(
        await startInstagramLink(user, studioId, {
          id: session.id ?? "",
          mode: submission.value.mode,
        }),
      );
    } catch (error) {
      if (error instanceof NotFoundError) notFound();
      if (!(error instanceof ServiceError)) throw error;
      return redirectWithToast(`${card}#social-accounts`, {
        type: "error",
        title: SOCIAL_MESSAGES.openFailed,
        // The provider's failure is the title; a refusal (limits, permissions) says why.
        description: error instanceof UpstreamError ? undefined : error.message,
      });
    }
  }
  const submission = parseWithZod(formData, { schema: unlinkSocialAccountSchema });
  try {
    if (submission.status !== "success") throw new NotFoundError("Unknown account");
    const removed = await unlinkSocialAccount(user, studioId, submission.value);
    return redirectWithToast(`${card}#social-accounts`, {
      type: "success",
      title: SOCIAL_MESSAGES.unlinked,
      description: `@${removed.userName} is no longer linked to this project.`,
    });
  } catch (caught) {
    formFailure(caught);
    return redirectWithToast(`${card}#social-accounts`, {
      type: "error",
      title: SOCIAL_MESSAGES.unlinkFailed,
    });
  }
}
