import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { NotFoundError } from "~/services/core";
import { integrationBySegment } from "~/services/integrations";
import { getProject } from "~/services/projects/index.server";
import { notFound } from "~/utils/responses.server";
import { requireUser } from "~/web/session.server";

/**
 * {studios route}/integrations/{integrationId}/{studioId}[/{adminUserId}]: Configure on an
 * integration's project list. With the local providers the dashboard serves it: the project's
 * Stripe accounts page, or its Active Integrations for social accounts. Who may view the project may configure; a trailing user id must be the
 * signed-in platform admin's own (anything else is 404, like a project they cannot see).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const integration = integrationBySegment(params.integrationId);
  if (!integration) notFound();
  if (params.adminUserId !== undefined && !(user.isAdmin && params.adminUserId === user.id)) {
    notFound();
  }
  try {
    const project = await getProject(user, params.studioId ?? "");
    // Stripe has its page per project; social accounts are listed on the dashboard.
    return redirect(
      integration.slug === "payments"
        ? `/sites/integrations/payments/${project.studioId}`
        : `/sites/${project.studioId}#social-accounts`,
    );
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}
