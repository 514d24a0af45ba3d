/**
 * The data version of a project navigation page (/sites/{section}/{studioId}), which the page's
 * loader hands its 60 s refresh and GET /sites/{id}/version?section= answers: the page's
 * database digest (project-data-version.server.ts), hashed with what the page reads from a
 * provider. Only the Website page reads one (its deployments, through the provider cache); the
 * others show rows only, all in their digest. The dashboard's own is in
 * app/routes/_app._project.sites.$studioId/live-parts.server.ts.
 */
import type { User } from "~/services/accounts/index.server";
import { dataVersion, type VersionedPage } from "~/services/projects/index.server";
import type { Project } from "~/services/projects/index.server";
import { getWebsite, type WebsiteView } from "~/services/deployments/index.server";

export type SectionPage = Exclude<VersionedPage, "dashboard">;

/** A page's version from its digest and, for the Website page, the view it shows. */
export function sectionVersion(digest: string | null, website: WebsiteView | null = null): string {
  return dataVersion(digest, website);
}

/** The version `page` shows now: what the version route answers. */
export async function currentSectionVersion(
  user: User,
  project: Project,
  page: SectionPage,
  digest: string | null,
): Promise<string> {
  const website = page === "website" ? await getWebsite(user, project.studioId) : null;
  return sectionVersion(digest, website);
}
