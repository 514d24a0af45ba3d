import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { NotFoundError, ServiceError, UpstreamError } from "~/services/core";
import { projectInviteSchema } from "~/services/studio";
import { resendStudioInvite } from "~/services/studio/index.server";
import { readForm } from "~/web/http.server";
import { notFound } from "~/utils/responses.server";
import { requireUser, safeRedirect } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

const RESEND_FAILED = "Failed to resend sanity email!";

export function loader() {
  return redirect("/");
}

/** Back to the page the dialog was on, closed (without its `?dialog=`). */
function backTo(redirectTo: FormDataEntryValue | null, projectId: FormDataEntryValue | null) {
  const fallback =
    typeof projectId === "string" && /^[\w-]{1,100}$/.test(projectId) ? `/sites/${projectId}` : "/";
  const url = new URL(safeRedirect(redirectTo, fallback), "http://local");
  url.searchParams.delete("dialog");
  return `${url.pathname}${url.search}`;
}

/**
 * The Resend Invitation dialog's form (with or without JavaScript): resends the content
 * provider's invitation and goes back with 'Sanity Email Resent!' or 'Failed to resend sanity
 * email!'. The button stays, so a failure can simply be retried.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request, 16 * 1024);
  const back = backTo(form.get("redirectTo"), form.get("projectId"));
  const parsed = projectInviteSchema.safeParse({
    projectId: form.get("projectId") ?? undefined,
    email: form.get("email") ?? undefined,
  });
  if (!parsed.success) {
    return redirectWithToast(back, {
      type: "error",
      title: RESEND_FAILED,
      description: parsed.error.issues[0]?.message,
    });
  }
  try {
    const { outcome } = await resendStudioInvite(user, parsed.data.projectId, parsed.data.email);
    if (outcome === "accepted") {
      return redirectWithToast(back, {
        type: "info",
        title: "Invitation already accepted",
        description: "Your studio is active: use 'Take me to Studio'.",
      });
    }
    return redirectWithToast(back, { type: "success", title: "Sanity Email Resent!" });
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (!(error instanceof ServiceError)) throw error;
    return redirectWithToast(back, {
      type: "error",
      title: RESEND_FAILED,
      // The provider's failure says no more than the title; a refusal says why.
      description: error instanceof UpstreamError ? "Please try again." : error.message,
    });
  }
}
