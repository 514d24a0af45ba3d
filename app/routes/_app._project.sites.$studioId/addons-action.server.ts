import { parseWithZod } from "@conform-to/zod/v4";
import type { User } from "~/services/accounts/index.server";
import { ADDONS, addonToasts, isAddonKey } from "~/services/addons";
import { addonFormSchema } from "~/services/addons";
import { setAddon } from "~/services/addons/index.server";
import { ServiceError, InvalidError, NotFoundError } from "~/services/core";
import { formReply } from "~/web/http.server";
import { notFound } from "~/utils/responses.server";
import { safeRedirect } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

import { ADDON_INTENT } from "~/components/addons/addon-dialog";

export { ADDON_INTENT };

function backTo(redirectTo: FormDataEntryValue | null, studioId: string) {
  const url = new URL(safeRedirect(redirectTo, `/sites/${studioId}`), "http://local");
  url.searchParams.delete("addon");
  return `${url.pathname}${url.search}`;
}

/**
 * The add-on confirmation's submit on /sites/{studioId}: switches the add-on and goes back with
 * '{Add-on} enabled for {project}.' (or disabled). A bad Visual Tests token keeps the dialog open
 * with its message and 'Invalid token format'; any other refusal is 'Oops. Failed to
 * update {Add-on} for {project}.' (Visual Tests with the server's words as description).
 */
export async function addonsAction(
  user: User,
  studioId: string,
  projectName: string,
  formData: FormData,
) {
  const back = backTo(formData.get("redirectTo"), studioId);
  const asked = formData.get("addon");
  const failureName = isAddonKey(asked) ? ADDONS[asked].failureName : "the add-on";
  const submission = parseWithZod(formData, { schema: addonFormSchema });
  // A refused token keeps the dialog open; it shows 'Invalid token format' above the field.
  if (submission.status !== "success") {
    return formReply({ intent: ADDON_INTENT, result: submission.reply() }, 400);
  }
  const { addon, enabled, chromaticProjectToken } = submission.value;
  try {
    const change = await setAddon(user, {
      studioId,
      addon,
      enabled: enabled === "true",
      chromaticProjectToken,
    });
    const toast = change.enabled ? addonToasts.enabled : addonToasts.disabled;
    return redirectWithToast(back, {
      type: "success",
      title: toast(ADDONS[addon].label, change.name),
    });
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof InvalidError && error.fieldErrors.chromaticProjectToken) {
      return formReply(
        { intent: ADDON_INTENT, result: submission.reply({ fieldErrors: error.fieldErrors }) },
        400,
      );
    }
    if (!(error instanceof ServiceError)) throw error;
    return redirectWithToast(back, {
      type: "error",
      title: addonToasts.failed(failureName, projectName),
      description: addon === "visualTests" ? error.message : undefined,
    });
  }
}
