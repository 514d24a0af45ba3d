import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FailedDeployment } from "~/components/deployments/failed-deployment";
import { DomainError, NotFoundError } from "~/services/errors";
import { MAX_DEPLOY_RETRIES, retryDeploymentSchema } from "~/services/deployments.schema";
import {
  getDeploymentStatus,
  PermanentDeploymentError,
  retryDeployment,
} from "~/services/deployments.server";
import { readForm, statusOf } from "~/utils/http.server";
import { requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Failed Deployment | StackShift" }];

const notFound = () => new Response("Not Found", { status: 404 });
const sitePath = (studioId: string) => `/sites/${encodeURIComponent(studioId)}`;

/**
 * /sites/{studioId}/failed-deployment (spec 2 "Deployment pages"). Only a failed project shows
 * it: a permanent error goes to its own page, anything else back to the dashboard.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  let status;
  try {
    status = await getDeploymentStatus(user, params.studioId ?? "");
  } catch (error) {
    if (error instanceof NotFoundError) throw notFound();
    throw error;
  }
  if (status.permanent) throw redirect(`${sitePath(status.studioId)}/deployment-error`);
  if (!status.failed) throw redirect(sitePath(status.studioId));
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

/** 'Retry deploy': retries, then the project list with the spec's toast (spec 4 and 8). */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request, 16 * 1024);
  const parsed = retryDeploymentSchema.safeParse({
    name: form.get("name") ?? undefined,
    idempotencyKey: form.get("idempotencyKey") ?? undefined,
  });
  if (!parsed.success) {
    return data({ error: parsed.error.issues[0]?.message ?? "Invalid input" }, { status: 400 });
  }
  try {
    await retryDeployment(user, parsed.data);
  } catch (error) {
    if (error instanceof PermanentDeploymentError) {
      return redirectWithToast(`${sitePath(params.studioId ?? "")}/deployment-error`, {
        type: "error",
        title: "Deployment Error",
        description: error.message,
      });
    }
    if (error instanceof NotFoundError) throw notFound();
    if (error instanceof DomainError) {
      return data({ error: error.message }, { status: statusOf(error) });
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
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  return <FailedDeployment view={view} busy={busy} error={actionData?.error ?? null} />;
}
