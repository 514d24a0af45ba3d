import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireDeploymentPage } from "~/web/deployment-page.server";
import { PermanentError } from "~/components/deployments/permanent-error";

export const meta: MetaFunction = () => [{ title: "Deployment Error | StackShift" }];

/**
 * /sites/{studioId}/deployment-error: the permanent 'Deployment Error' (3 failed retries, handled
 * manually). A project that is merely failed goes to the retry page, any other to its dashboard.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { status } = await requireDeploymentPage(request, params.studioId, "deployment-error");
  return {
    view: { studioId: status.studioId, name: status.name, retries: status.deployRetryCount },
  };
}

export default function DeploymentErrorPage() {
  const { view } = useLoaderData<typeof loader>();
  return <PermanentError view={view} />;
}
