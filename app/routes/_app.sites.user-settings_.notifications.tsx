import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  NOTIFICATION_INTENT,
  NotificationSettingsForm,
} from "~/components/notifications/notification-settings";
import { SubpageHeader } from "~/components/user-settings/subpage-header";
import { NOTIFICATION_MESSAGES as M, notificationSettingsSchema } from "~/services/notifications";
import {
  getNotificationSettings,
  saveNotificationSettings,
} from "~/services/notifications/index.server";
import { dispatchIntent } from "~/web/intents.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Notifications | User Settings | StackShift" }];

const PAGE = "/sites/user-settings/notifications";

/**
 * /sites/user-settings/notifications: which project events are mailed to the signed-in person,
 * by their role in the project, how often, and a choice per project over that
 * (docs/decisions/049-personal-notifications.md).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { settings: await getNotificationSettings(user), email: user.email };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return dispatchIntent(
    request,
    {
      [NOTIFICATION_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: notificationSettingsSchema });
        if (submission.status !== "success") return reply({ result: submission.reply() }, 400);
        await saveNotificationSettings(user, submission.value);
        return redirectWithToast(PAGE, { type: "success", title: M.saved });
      },
    },
    { maxBytes: 64 * 1024 },
  );
}

export default function NotificationsPage() {
  const { settings, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <article className="space-y-8">
      <SubpageHeader title="Notifications">
        E-mails to {email} about your projects: failed deploys, domains, people. Every mail has a
        link that turns off the mails of its project.
      </SubpageHeader>
      <NotificationSettingsForm
        byRole={settings.byRole}
        digest={settings.digest}
        projects={settings.projects}
        lastResult={
          actionData && "result" in actionData && actionData.form === NOTIFICATION_INTENT
            ? actionData.result
            : null
        }
      />
    </article>
  );
}
