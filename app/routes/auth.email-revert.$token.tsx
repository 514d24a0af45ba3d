import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard, UnusableLink } from "~/components/auth-card";
import { Button } from "~/components/ui/button";
import { FormError } from "~/components/ui/field";
import { revokedTokensText } from "~/services/accounts";
import { ServiceError } from "~/services/core";
import { pendingRevert, revertEmailChange } from "~/services/accounts/index.server";
import { formReply, readForm } from "~/web/http.server";
import { endSession } from "~/web/session.server";
import { toastHeader } from "~/utils/toast.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Undo an e-mail change | StackShift" }];

/**
 * The link in the notice mailed to the old address when an account's e-mail changes. It only
 * shows this page; its POST restores the old address and signs out every session of the account
 * (docs/decisions/024-a-link-only-shows.md). It works once, for 7 days, signed in or not: the old
 * mailbox is the proof.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const change = await pendingRevert(params.token ?? "");
  return data(change ?? { oldEmail: null, newEmail: null }, {
    status: change ? 200 : 400,
    headers: { "Referrer-Policy": "no-referrer" },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await readForm(request, 1024);
  try {
    const { email, ended } = await revertEmailChange(params.token ?? "");
    // Every session of the account ended; this browser's cookie goes too.
    const { setCookie } = await endSession(request);
    const headers = new Headers();
    headers.append("Set-Cookie", setCookie);
    headers.append(
      "Set-Cookie",
      await toastHeader({
        type: "success",
        title: "Your e-mail address is restored",
        description: [
          `${email} is your StackShift address again and every session was signed out.`,
          revokedTokensText(ended.tokens),
          "Your password no longer works: choose a new one here, then make new API tokens in User Settings if you need them.",
        ]
          .filter(Boolean)
          .join(" "),
        duration: 20_000,
      }),
    );
    return redirect("/auth/forgot", { headers });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formReply(
      { result: { status: "error" as const, error: { "": [error.message] } } },
      error,
    );
  }
}

export default function RevertEmailChange() {
  const { oldEmail, newEmail } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useIsPending({ state: "submitting" });
  if (!oldEmail) {
    return (
      <UnusableLink
        title="This link cannot be used"
        message="This link is invalid or has expired (it works once, for 7 days). Contact support if your account was taken over."
        links={[{ to: "/auth/login", label: "Log in" }]}
      />
    );
  }
  return (
    <AuthCard title="Undo the e-mail change">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        The address of your StackShift account was changed from <strong>{oldEmail}</strong> to{" "}
        {newEmail}. If you did not do this, restore {oldEmail}: every session of the account is
        signed out, its API tokens are revoked and its password stops working (whoever changed the
        address may know it). You then choose a new password with Forgot password.
      </p>
      <Form method="post" className="mt-4 space-y-4">
        <FormError message={actionData?.result.error?.[""]?.[0]} />
        <Button type="submit" variant="danger" className="w-full" disabled={busy}>
          {busy ? "Restoring..." : `Restore ${oldEmail}`}
        </Button>
      </Form>
    </AuthCard>
  );
}
