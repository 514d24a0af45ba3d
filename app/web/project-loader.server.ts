import type { User } from "~/services/accounts/index.server";
import { getProjectInvitation, type ProjectInvitationView } from "~/services/members/index.server";
import { ProjectNotFoundError } from "~/services/permissions/index.server";
import type { VersionedPage } from "~/services/projects/index.server";
import { getProject, getProjectWithDigest, type Project } from "~/services/projects/index.server";
import { notFound } from "~/utils/responses.server";
import { requireUser } from "~/web/session.server";
import { throwAsPage } from "~/web/second-factor.server";

/**
 * The permission check every project page starts with: a session (else login), then the
 * project for its owner and accepted members; a project that requires a second factor the
 * person lacks is a 403 page saying so, with the link to set one up (decision 042). Everyone else, platform admins included, gets 404
 * (getProject's rule), so project ids cannot be probed.
 */
export async function requireProjectMember(
  request: Request,
  studioId: string | undefined,
): Promise<{ user: User; project: Project }> {
  const user = await requireUser(request);
  try {
    return { user, project: await getProject(user, studioId ?? "") };
  } catch (error) {
    // Only a hidden or missing project is a 404; anything else (the database down) is an error.
    if (error instanceof ProjectNotFoundError) notFound();
    // A project that requires a second factor the person lacks: the page says so (decision 042).
    throwAsPage(error);
  }
}

/**
 * `requireProjectMember` with the data digest of one of the project's pages read in the same
 * statement as the project (getProjectWithDigest): the pages' version check.
 */
export async function requireProjectMemberWithDigest(
  request: Request,
  studioId: string | undefined,
  page: VersionedPage = "dashboard",
): Promise<{ user: User; project: Project; digest: string | null }> {
  const user = await requireUser(request);
  try {
    return { user, ...(await getProjectWithDigest(user, studioId ?? "", page)) };
  } catch (error) {
    if (error instanceof ProjectNotFoundError) notFound();
    throwAsPage(error);
  }
}

/**
 * The dashboard's check: like `requireProjectMember`, but the project's invitee (not accepted
 * yet, matched by account or e-mail) gets the invitation card instead of 404.
 * Everyone else with no relation to the project still gets 404.
 */
export async function requireProjectMemberOrInvitee(
  request: Request,
  studioId: string | undefined,
): Promise<
  | { user: User; project: Project; invitation: null }
  | { user: User; invitation: ProjectInvitationView }
> {
  const user = await requireUser(request);
  try {
    return { user, project: await getProject(user, studioId ?? ""), invitation: null };
  } catch (error) {
    if (!(error instanceof ProjectNotFoundError)) throwAsPage(error);
    const invitation = await getProjectInvitation(user, studioId ?? "");
    if (invitation) return { user, invitation };
    notFound();
  }
}
