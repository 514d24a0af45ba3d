import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard, UnusableLink } from "~/components/auth-card";
import { Button } from "~/components/ui/button";
import { FormError } from "~/components/ui/field";
import { ServiceError } from "~/services/core";
import { USER_SETTINGS_MESSAGES } from "~/services/accounts";
import { confirmEmailChange, pendingEmailChange } from "~/services/accounts/index.server";
import { formReply, readForm } from "~/web/http.server";
import { getOptionalUser, getSession } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Confirm your new e-mail | StackShift" }];

type View =
  | { state: "invalid" }
  | { state: "signedOut"; newEmail: string; login: string }
  | { state: "otherAccount"; newEmail: string; viewerEmail: string }
  | { state: "confirm"; newEmail: string; currentEmail: string };

/**
 * The link mailed to a new e-mail address only shows this page (a GET or HEAD changes nothing).
 * The change applies on its POST, from a browser signed in to the account that asked
 * (docs/decisions/024-a-link-only-shows.md); anyone else is told to log in as that account.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const token = params.token ?? "";
  const [change, user] = await Promise.all([pendingEmailChange(token), getOptionalUser(request)]);
  const url = new URL(request.url);
  let view: View;
  if (!change) view = { state: "invalid" };
  else if (!user) {
    view = {
      state: "signedOut",
      newEmail: change.newEmail,
      login: `/auth/login?redirectTo=${encodeURIComponent(url.pathname)}`,
    };
  } else if (user.id !== change.userId) {
    view = { state: "otherAccount", newEmail: change.newEmail, viewerEmail: user.email };
  } else view = { state: "confirm", newEmail: change.newEmail, currentEmail: user.email };
  return data(view, {
    status: view.state === "invalid" ? 400 : 200,
    headers: { "Referrer-Policy": "no-referrer" },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await readForm(request, 1024);
  const user = await getOptionalUser(request);
  const refused = (message: string) =>
    formReply({ result: { status: "error" as const, error: { "": [message] } } }, 403);
  if (!user) return refused("Log in as the account that asked for this change first.");
  const session = await getSession(request);
  try {
    const { email } = await confirmEmailChange(params.token ?? "", user, session.id ?? "");
    return await redirectWithToast("/sites/user-settings", {
      type: "success",
      title: USER_SETTINGS_MESSAGES.emailChanged,
      description: `Your StackShift e-mail address is now ${email}. Your other sessions were signed out.`,
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formReply(
      { result: { status: "error" as const, error: { "": [error.message] } } },
      error,
    );
  }
}

export default function ConfirmEmailChange() {
  const view = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useIsPending({ state: "submitting" });
  const failure = actionData?.result.error?.[""]?.[0];
  if (view.state === "invalid") {
    return (
      <UnusableLink
        title="This confirmation link cannot be used"
        message="This confirmation link is invalid or has expired. Ask for a new one in your settings."
        links={[{ to: "/sites/user-settings", label: "Your settings" }]}
      />
    );
  }
  if (view.state === "signedOut") {
    return (
      <AuthCard title="Confirm your new e-mail">
        <p className="text-sm text-slate-700 dark:text-slate-300">
          To make <strong>{view.newEmail}</strong> the address of your StackShift account, log in to
          that account in this browser first.
        </p>
        <p className="mt-6 text-sm">
          <Link to={view.login} className="text-brand underline">
            Log in
          </Link>
        </p>
      </AuthCard>
    );
  }
  if (view.state === "otherAccount") {
    return (
      <AuthCard title="Confirm your new e-mail">
        <p role="alert" className="text-sm text-slate-700 dark:text-slate-300">
          This link belongs to another StackShift account than {view.viewerEmail}, the one signed in
          here. Log out and log in to the account that asked for the change.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Confirm your new e-mail">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Make <strong>{view.newEmail}</strong> the e-mail address of your StackShift account instead
        of {view.currentEmail}? Your other sessions are signed out, and {view.currentEmail} gets a
        notice with a link that undoes the change for 7 days.
      </p>
      <Form method="post" className="mt-4 space-y-4">
        <FormError message={failure} />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Confirming..." : "Confirm new e-mail"}
        </Button>
      </Form>
    </AuthCard>
  );
}
