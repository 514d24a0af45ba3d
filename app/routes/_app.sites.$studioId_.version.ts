import type { LoaderFunctionArgs } from "@remix-run/node";
import { currentDashboardVersion } from "./_app._project.sites.$studioId/live-parts.server";
import { InvalidError } from "~/services/core";
import { isVersionedPage } from "~/services/projects/index.server";
import { apiError } from "~/web/http.server";
import { requireProjectMemberWithDigest } from "~/web/project-loader.server";
import { currentSectionVersion } from "~/web/section-version.server";

/**
 * GET /sites/{studioId}/version[?section=website|analytics|forms|newsletter|social-media|settings]:
 * the data version (ETag and body) of the project's dashboard, or of the named project page, for
 * the page's refresh (30 s on the dashboard, 60 s on the others) to ask whether anything changed
 * before it reloads the page's data. With `If-None-Match` of the current version the answer is
 * 304 and empty. The dashboard's other parameters (its Site Builds page) are the dashboard's.
 * The project pages' own rule: their owner, members and support; 404 for everyone else.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const page = url.searchParams.get("section") ?? "dashboard";
  if (!isVersionedPage(page)) {
    return apiError(new InvalidError("Unknown page", { section: ["Unknown page"] }));
  }
  const { user, project, digest } = await requireProjectMemberWithDigest(
    request,
    params.studioId,
    page,
  );
  const version =
    page === "dashboard"
      ? await currentDashboardVersion(user, project, digest, url)
      : await currentSectionVersion(user, project, page, digest);
  const etag = `"${version}"`;
  const headers = { ETag: etag, "Cache-Control": "private, no-cache" };
  if (request.headers.get("If-None-Match") === etag) {
    return new Response(null, { status: 304, headers });
  }
  return Response.json({ version }, { headers });
}
