import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard, UnusableLink } from "~/components/auth-card";
import { Button } from "~/components/ui/button";
import { FormError } from "~/components/ui/field";
import { ServiceError } from "~/services/core";
import { confirmNotificationAddress, pendingConfirmation } from "~/services/forms/index.server";
import { formReply, readForm } from "~/web/http.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Form notifications | StackShift" }];

/**
 * The link mailed to a new notification address of a form. It only shows which project and form
 * want to mail the address; its POST confirms (docs/decisions/024-a-link-only-shows.md, 028).
 * Signed in or not: the mailbox is the proof. It works once, for 7 days.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const pending = await pendingConfirmation(params.token ?? "");
  return data(
    { pending, confirmed: null as string | null },
    { status: pending ? 200 : 400, headers: { "Referrer-Policy": "no-referrer" } },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  await readForm(request, 1024);
  try {
    const { email } = await confirmNotificationAddress(params.token ?? "");
    return { confirmed: email, result: null };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formReply(
      { confirmed: null, result: { status: "error" as const, error: { "": [error.message] } } },
      error,
    );
  }
}

export default function ConfirmFormNotifications() {
  const { pending } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useIsPending({ state: "submitting" });
  if (actionData?.confirmed) {
    return (
      <AuthCard title="Form notifications confirmed">
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          {actionData.confirmed} now gets a mail about each new submission of the form. To stop
          them, ask the project&apos;s admins to remove the address.
        </p>
      </AuthCard>
    );
  }
  if (!pending) {
    return (
      <UnusableLink
        title="This link cannot be used"
        message="This link is invalid, expired or already used (it works once, for 7 days). Ask the project's admins to send a new one."
        links={[{ to: "/", label: "StackShift" }]}
      />
    );
  }
  return (
    <AuthCard title="Confirm form notifications">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        The project <strong>{pending.projectName}</strong> wants to mail each new submission of its
        website&apos;s <strong>{pending.formName}</strong> form to <strong>{pending.email}</strong>.
        Nothing is sent to this address unless you confirm.
      </p>
      <Form method="post" className="mt-4 space-y-4">
        <FormError message={actionData?.result?.error?.[""]?.[0]} />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Confirming..." : "Confirm these mails"}
        </Button>
      </Form>
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
        Not for you? Close this page: nothing is sent.
      </p>
    </AuthCard>
  );
}
