import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PermanentError } from "~/components/deployments/permanent-error";
import { NotFoundError } from "~/services/errors";
import { getDeploymentStatus } from "~/services/deployments.server";
import { notFound } from "~/utils/responses.server";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = () => [{ title: "Deployment Error | StackShift" }];

const sitePath = (studioId: string) => `/sites/${encodeURIComponent(studioId)}`;

/**
 * /sites/{studioId}/deployment-error: the permanent 'Deployment Error' (3 failed retries, handled
 * manually). A project that is merely failed goes to the retry page, any other to its dashboard.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  let status;
  try {
    status = await getDeploymentStatus(user, params.studioId ?? "");
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  if (!status.permanent) {
    throw redirect(
      status.failed ? `${sitePath(status.studioId)}/failed-deployment` : sitePath(status.studioId),
    );
  }
  return {
    view: { studioId: status.studioId, name: status.name, retries: status.deployRetryCount },
  };
}

export default function DeploymentErrorPage() {
  const { view } = useLoaderData<typeof loader>();
  return <PermanentError view={view} />;
}
