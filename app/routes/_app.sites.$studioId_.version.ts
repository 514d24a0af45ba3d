import type { LoaderFunctionArgs } from "@remix-run/node";
import { currentDashboardVersion } from "./_app.sites.$studioId/live-parts.server";
import { requireProjectMemberWithDigest } from "~/web/project-loader.server";

/**
 * GET /sites/{studioId}/version: the dashboard's data version (ETag and body), for the page's
 * 30 s refresh to ask whether anything changed before it reloads every section. With
 * `If-None-Match` of the current version the answer is 304 and empty. The dashboard's own rule:
 * its owner, members and support; 404 for everyone else.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, project, digest } = await requireProjectMemberWithDigest(request, params.studioId);
  const version = await currentDashboardVersion(user, project, digest, new URL(request.url));
  const etag = `"${version}"`;
  const headers = { ETag: etag, "Cache-Control": "private, no-cache" };
  if (request.headers.get("If-None-Match") === etag) {
    return new Response(null, { status: 304, headers });
  }
  return Response.json({ version }, { headers });
}
