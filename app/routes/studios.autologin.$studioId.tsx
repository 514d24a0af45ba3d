import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { LaunchError, RecapSplash } from "~/components/studio/recap-splash";
import { DomainError } from "~/services/errors";
import { splashSchema } from "~/services/studio.schema";
import { finishLaunch, resolveLaunch, StudioProviderError } from "~/services/studio.server";
import { readForm, statusOf } from "~/utils/http.server";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = () => [
  { title: "StackShift Studio" },
  { name: "robots", content: "noindex" },
];

// The URL carries a launch token: keep it out of caches (the app-wide Referrer-Policy already
// keeps it from other origins).
export const headers = () => ({ "Cache-Control": "no-store" });

function failed(error: unknown) {
  if (!(error instanceof DomainError)) throw error;
  const status = error instanceof StudioProviderError ? 502 : statusOf(error);
  return data({ status: "error" as const }, { status });
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
  const form = await readForm(request, 4 * 1024);
  const choice = splashSchema.safeParse({ hideSplash: form.get("hideSplash") ?? undefined });
  try {
    const { studioUrl } = await finishLaunch(
      user,
      params.studioId ?? "",
      choice.success && choice.data.hideSplash,
    );
    return redirect(studioUrl);
  } catch (error) {
    return failed(error);
  }
}

export default function StudioAutologin() {
  const view = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  if (view.status !== "splash" || result?.status === "error") return <LaunchError />;
  return <RecapSplash projectName={view.projectName} label={view.label} busy={busy} />;
}

export function ErrorBoundary() {
  return <LaunchError />;
}
