import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { LaunchError, RecapSplash } from "~/components/studio/recap-splash";
import { ServiceError } from "~/services/core";
import { splashSchema } from "~/services/studio";
import { finishLaunch, resolveLaunch } from "~/services/studio/index.server";
import { formReply, readForm, statusOf } from "~/web/http.server";
import { requireUser } from "~/web/session.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [
  { title: "StackShift Studio" },
  { name: "robots", content: "noindex" },
];

// The URL carries a launch token: keep it out of caches (the app-wide Referrer-Policy already
// keeps it from other origins).
export const headers = () => ({ "Cache-Control": "no-store" });

function failed(error: unknown) {
  if (!(error instanceof ServiceError)) throw error;
  return data({ status: "error" as const }, { status: statusOf(error) });
}

/**
 * {studios route}/autologin/{studioId}?token=...: the new window 'Take me to Studio' opens. A
 * valid token shows the recap splash, or goes straight to the studio when the user chose not to
 * see it again; anything else is the 'Experience has encountered an error!' page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  try {
    const view = await resolveLaunch(token, params.studioId ?? "");
    if (!view.showSplash) return redirect(view.studioUrl);
    return {
      status: "splash" as const,
      projectName: view.projectName,
      label: view.label,
    };
  } catch (error) {
    return failed(error);
  }
}

/** The splash's 'Take me to Studio': saves the checkbox, then opens the studio. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request, 4 * 1024), { schema: splashSchema });
  try {
    const { studioUrl } = await finishLaunch(
      user,
      params.studioId ?? "",
      submission.status === "success" && submission.value.hideSplash,
    );
    return redirect(studioUrl);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    // The page shows its error screen; the message stays out of it, as the loader's does.
    return formReply({ result: submission.reply({ formErrors: [error.message] }) }, error);
  }
}

export default function StudioAutologin() {
  const view = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>()?.result.status === "error";
  const busy = useIsPending();
  if (view.status !== "splash" || refused) return <LaunchError />;
  return <RecapSplash projectName={view.projectName} label={view.label} busy={busy} />;
}

export function ErrorBoundary() {
  return <LaunchError />;
}
