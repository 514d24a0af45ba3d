import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireDeploymentPage } from "~/web/deployment-page.server";
import { FailedDeployment } from "~/components/deployments/failed-deployment";
import { ServiceError, NotFoundError } from "~/services/core";
import { MAX_DEPLOY_RETRIES, retryDeploymentSchema } from "~/services/deployments";
import { PermanentDeploymentError, retryDeployment } from "~/services/deployments/index.server";
import { formErrorOf } from "~/utils/form-errors";
import { formReply, readForm } from "~/web/http.server";
import { notFound } from "~/utils/responses.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Failed Deployment | StackShift" }];

const sitePath = (studioId: string) => `/sites/${encodeURIComponent(studioId)}`;

/**
 * /sites/{studioId}/failed-deployment, one of the deployment pages. Only a failed project shows
 * it: a permanent error goes to its own page, anything else back to the dashboard.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { status } = await requireDeploymentPage(request, params.studioId, "failed-deployment");
  return {
    view: {
      studioId: status.studioId,
      name: status.name,
      idempotencyKey: status.idempotencyKey,
      retriesLeft: status.retriesLeft,
      maxRetries: MAX_DEPLOY_RETRIES,
      lastError: status.lastError,
    },
  };
}

/**
 * 'Retry deploy': retries, then the project list with 'Retrying Deployment!'; a retry past the
 * limit goes to the permanent-error page instead.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request, 16 * 1024);
  const submission = parseWithZod(form, { schema: retryDeploymentSchema });
  if (submission.status !== "success") return formReply({ result: submission.reply() }, 400);
  try {
    await retryDeployment(user, submission.value);
  } catch (error) {
    if (error instanceof PermanentDeploymentError) {
      return redirectWithToast(`${sitePath(params.studioId ?? "")}/deployment-error`, {
        type: "error",
        title: "Deployment Error",
        description: error.message,
      });
    }
    if (error instanceof NotFoundError) notFound();
    if (error instanceof ServiceError) {
      return formReply({ result: submission.reply({ formErrors: [error.message] }) }, error);
    }
    throw error;
  }
  return redirectWithToast("/", {
    type: "success",
    title: "Retrying Deployment!",
    description: "StackShift deploying once again...",
  });
}

export default function FailedDeploymentPage() {
  const { view } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useIsPending();
  const error = formErrorOf(actionData?.result) ?? null;
  return <FailedDeployment view={view} busy={busy} error={error} />;
}
