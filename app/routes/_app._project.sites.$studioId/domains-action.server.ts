import { parseWithZod } from "@conform-to/zod/v4";
import { DOMAIN_TOASTS, domainFormSchema } from "~/services/domains";
import { changeDomain } from "~/services/domains/index.server";
import { ServiceError, InvalidError, NotFoundError } from "~/services/core";
import { formReply } from "~/web/http.server";
import { notFound } from "~/utils/responses.server";
import type { User } from "~/services/accounts/index.server";
import { safeRedirect } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

import { DOMAIN_INTENT } from "~/components/domains/domain-dialog";

export { DOMAIN_INTENT };

/** Back to the dashboard, without the `?domain=` that opened the dialog. */
function backTo(redirectTo: FormDataEntryValue | null, studioId: string) {
  const url = new URL(safeRedirect(redirectTo, `/sites/${studioId}`), "http://local");
  url.searchParams.delete("domain");
  url.searchParams.delete("provider");
  return `${url.pathname}${url.search}`;
}

/**
 * The Domain Settings dialog's submit on /sites/{studioId} (a fetcher, or a plain post without
 * JavaScript): update when a domain is typed, revert when cleared. Success goes back to the
 * dashboard with 'Custom domain set successfully!' or '... reverted successfully!'; a domain the
 * rules or the provider refuse keeps the dialog open with the message beside the field; anything
 * else is 'Oops. Unable to add domain.' with 'Please try again...'.
 */
export async function domainsAction(user: User, studioId: string, formData: FormData) {
  const back = backTo(formData.get("redirectTo"), studioId);
  const submission = parseWithZod(formData, { schema: domainFormSchema });
  if (submission.status !== "success") {
    return formReply({ intent: DOMAIN_INTENT, result: submission.reply() }, 400);
  }
  const { domain, provider, action } = submission.value;
  try {
    const change = await changeDomain(user, {
      studioId,
      provider,
      domain: action === "revert" ? "" : domain,
    });
    return redirectWithToast(back, {
      type: "success",
      title: change.action === "update" ? DOMAIN_TOASTS.set : DOMAIN_TOASTS.reverted,
    });
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof InvalidError && Object.keys(error.fieldErrors).length > 0) {
      return formReply(
        { intent: DOMAIN_INTENT, result: submission.reply({ fieldErrors: error.fieldErrors }) },
        error,
      );
    }
    if (!(error instanceof ServiceError)) throw error;
    return redirectWithToast(back, {
      type: "error",
      title: DOMAIN_TOASTS.failed,
      description: DOMAIN_TOASTS.failedDescription,
    });
  }
}
