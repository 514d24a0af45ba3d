import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard, UnusableLink } from "~/components/auth-card";
import { Button } from "~/components/ui/button";
import { FormError } from "~/components/ui/field";
import { ServiceError } from "~/services/core";
import { pendingUnsubscribe, unsubscribe } from "~/services/notifications/index.server";
import { UNUSABLE_UNSUBSCRIBE } from "~/services/notifications";
import { formReply, readForm } from "~/web/http.server";
import { env } from "~/utils/env.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Stop notification e-mails | StackShift" }];

/**
 * The unsubscribe link of notification mails (their text and their List-Unsubscribe header).
 * Opening it only shows what it turns off: mail scanners open every link, so a GET changes
 * nothing (docs/decisions/024-a-link-only-shows.md). Signed in or not: the token is the proof.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const pending = await pendingUnsubscribe(params.token ?? "");
  return data(
    { pending: pending ? { email: pending.email, projectName: pending.projectName } : null },
    { status: pending ? 200 : 400, headers: { "Referrer-Policy": "no-referrer" } },
  );
}

/** The body a mail program posts for RFC 8058's one-click unsubscribe. */
const isOneClick = (form: FormData) => form.get("List-Unsubscribe") === "One-Click";

/** The page's own form came from our origin (the server's CSRF rule, server/middleware.mjs). */
function fromOurPages(request: Request) {
  const origin = request.headers.get("origin");
  if (origin !== null) return env().APP_URL && origin === new URL(env().APP_URL!).origin;
  return request.headers.get("sec-fetch-site") === "same-origin";
}

/**
 * Turns the project's mails off for the link's person. Two callers: the button of this page,
 * and a mail program's one-click POST (RFC 8058: body `List-Unsubscribe=One-Click`, sent by the
 * mail provider's servers, with no cookie, no Origin and no CSRF token). The server's CSRF
 * check lets this path through for that (server/middleware.mjs); the page's own form is still
 * held to it here. Either way the token alone decides, no session is read, and the only thing
 * it can do is stop mails to its owner, so a forged POST can do nothing a link's holder cannot.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request, 1024);
  if (!isOneClick(form) && !fromOurPages(request)) {
    return formReply(
      {
        done: null,
        result: { status: "error" as const, error: { "": ["Cross-origin request refused"] } },
      },
      403,
    );
  }
  try {
    const done = await unsubscribe(params.token ?? "");
    return { done, result: null };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formReply(
      { done: null, result: { status: "error" as const, error: { "": [error.message] } } },
      error,
    );
  }
}

export default function Unsubscribe() {
  const { pending } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useIsPending({ state: "submitting" });
  if (actionData?.done) {
    return (
      <AuthCard title="Notification e-mails turned off">
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          {actionData.done.email} no longer gets notification e-mails about{" "}
          <strong>{actionData.done.projectName}</strong>. To get them again, choose what to mail for
          this project in{" "}
          <Link to="/sites/user-settings/notifications" className="text-brand underline">
            User Settings &gt; Notifications
          </Link>
          .
        </p>
      </AuthCard>
    );
  }
  if (!pending) {
    return (
      <UnusableLink
        title="This link cannot be used"
        message={UNUSABLE_UNSUBSCRIBE}
        links={[{ to: "/sites/user-settings/notifications", label: "Notification settings" }]}
      />
    );
  }
  return (
    <AuthCard title="Stop notification e-mails">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        This turns off every notification e-mail about the project{" "}
        <strong>{pending.projectName}</strong> to <strong>{pending.email}</strong>. Other
        projects&apos; e-mails and other StackShift mail (sign-in links, invitations) are not
        changed.
      </p>
      <Form method="post" className="mt-4 space-y-4">
        <FormError message={actionData?.result?.error?.[""]?.[0]} />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Turning off..." : `Stop e-mails about ${pending.projectName}`}
        </Button>
      </Form>
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
        Not what you want? Close this page: nothing changes.
      </p>
    </AuthCard>
  );
}
