import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { WebhooksPage } from "~/components/webhooks/webhooks-page";
import { WEBHOOK_INTENTS as I } from "~/components/webhooks/intents";
import { projectTitle, useProject } from "~/components/project-dashboard/project-frame";
import { ForbiddenError, InvalidError } from "~/services/core";
import { deliveryIdSchema, webhookIdSchema, webhookInputSchema } from "~/services/webhooks";
import {
  addWebhook,
  enableWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  removeWebhook,
} from "~/services/webhooks/index.server";
import { dispatchIntent, formFailure } from "~/web/intents.server";
import { requireRecentProof, stashedForm } from "~/web/proof.server";
import { requireProjectMember } from "~/web/project-loader.server";
import { requireUser } from "~/web/session.server";
import { notFound } from "~/utils/responses.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ matches }) => projectTitle(matches, "Webhooks");

const pageOf = (studioId: string) => `/sites/${encodeURIComponent(studioId)}/webhooks`;

/**
 * /sites/{studioId}/webhooks: the project's outgoing webhooks and their delivery logs, for the
 * owner and admins (`webhooks.manage`). Other members get 404, as people outside the project do:
 * the page is not theirs to know about. docs/decisions/047-project-events-and-webhooks.md.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, project } = await requireProjectMember(request, params.studioId);
  try {
    const hooks = await listWebhooks(user, project.studioId);
    const [deliveries, typed] = await Promise.all([
      Promise.all(hooks.map((hook) => listDeliveries(user, project.studioId, hook.id))),
      // What the add form had typed before /auth/confirm asked for a proof.
      stashedForm(request, I.add),
    ]);
    return {
      webhooks: hooks.map((hook, i) => ({ ...hook, deliveries: deliveries[i] })),
      typed,
    };
  } catch (error) {
    if (error instanceof ForbiddenError) notFound();
    throw error;
  }
}

/**
 * Add (the answer, not a redirect, carries the secret: shown this once), Remove, Switch on and
 * Redeliver. Bad input is said beside its field; a refusal is a toast.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const studioId = params.studioId ?? "";
  const page = pageOf(studioId);
  return dispatchIntent(
    request,
    {
      [I.add]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: webhookInputSchema });
        if (submission.status !== "success") {
          return reply({ result: submission.reply(), created: null }, 400);
        }
        // A webhook outlives the session that adds it: a recent proof first (decision 039).
        await requireRecentProof(request, user, { formData });
        try {
          const created = await addWebhook(user, studioId, submission.value);
          // Shown in this answer only: a reload or a later visit never shows it again.
          return reply({
            result: submission.reply({ resetForm: true }),
            created: { url: created.url, secret: created.secret },
          });
        } catch (caught) {
          const error = formFailure(caught);
          const fieldErrors = error instanceof InvalidError ? error.fieldErrors : {};
          const errors = Object.keys(fieldErrors).length
            ? { fieldErrors }
            : { formErrors: [error.message] };
          return reply({ result: submission.reply(errors), created: null }, error);
        }
      },
      [I.remove]: async ({ formData }) => {
        const submission = parseWithZod(formData, { schema: webhookIdSchema });
        if (submission.status !== "success") {
          return redirectWithToast(page, { type: "error", title: "Choose a webhook" });
        }
        try {
          await removeWebhook(user, studioId, submission.value.webhookId);
          return redirectWithToast(page, { type: "success", title: "Webhook removed" });
        } catch (caught) {
          return redirectWithToast(page, { type: "error", title: formFailure(caught).message });
        }
      },
      [I.enable]: async ({ formData }) => {
        const submission = parseWithZod(formData, { schema: webhookIdSchema });
        if (submission.status !== "success") {
          return redirectWithToast(page, { type: "error", title: "Choose a webhook" });
        }
        // Switching one on again starts the flow to its address anew: the same proof as adding.
        await requireRecentProof(request, user, { formData });
        try {
          await enableWebhook(user, studioId, submission.value.webhookId);
          return redirectWithToast(page, { type: "success", title: "Webhook switched on" });
        } catch (caught) {
          return redirectWithToast(page, { type: "error", title: formFailure(caught).message });
        }
      },
      [I.redeliver]: async ({ formData }) => {
        const submission = parseWithZod(formData, { schema: deliveryIdSchema });
        if (submission.status !== "success") {
          return redirectWithToast(page, { type: "error", title: "Choose a delivery" });
        }
        try {
          await redeliver(user, studioId, submission.value.deliveryId);
          return redirectWithToast(page, {
            type: "success",
            title: "Redelivery queued",
            description: "It is sent again with the same webhook-id; its log updates here.",
          });
        } catch (caught) {
          return redirectWithToast(page, { type: "error", title: formFailure(caught).message });
        }
      },
    },
    { maxBytes: 8 * 1024 },
  );
}

export default function WebhooksRoute() {
  const { webhooks, typed } = useLoaderData<typeof loader>();
  const project = useProject();
  const actionData = useActionData<typeof action>();
  const created =
    actionData && "created" in actionData && actionData.created ? actionData.created : null;
  return <WebhooksPage project={project} webhooks={webhooks} created={created} typed={typed} />;
}
