import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { ServiceError } from "~/services/core";
import { studioLaunchSchema } from "~/services/studio";
import { prepareLaunch } from "~/services/studio/index.server";
import { apiError, parseInput, readForm } from "~/web/http.server";
import { requireApiUser, requireUser } from "~/web/session.server";

export function loader() {
  return redirect("/");
}

const wantsJson = (request: Request) =>
  (request.headers.get("Accept") ?? "").includes("application/json");

/**
 * 'Take me to Studio', and the Theme Preview and Dev Console launches (`target`). Without JavaScript the form targets a new window, and this answers it
 * with a redirect to the autologin page carrying a fresh launch token; a failure lands on that
 * page's error screen. With JavaScript (Accept: application/json) it answers `{url}` or a 4xx
 * JSON error, and the button opens the window itself.
 */
export async function action({ request }: ActionFunctionArgs) {
  const json = wantsJson(request);
  const user = json ? await requireApiUser(request) : await requireUser(request);
  const form = await readForm(request, 4 * 1024);
  try {
    const { studioId, target } = parseInput(studioLaunchSchema, {
      studioId: form.get("studioId") ?? undefined,
      target: form.get("target") || undefined,
    });
    const { url } = await prepareLaunch(user, studioId, target);
    return json ? Response.json({ url }) : redirect(url);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (json) return apiError(error);
    const studioId = form.get("studioId");
    const target = typeof studioId === "string" && /^[\w-]{1,100}$/.test(studioId) ? studioId : "-";
    return redirect(`/studios/autologin/${target}?error=launch`);
  }
}
