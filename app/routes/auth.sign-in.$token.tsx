import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard, UnusableLink } from "~/components/auth-card";
import { Button } from "~/components/ui/button";
import { FormError } from "~/components/ui/field";
import { ServiceError } from "~/services/core";
import { pendingSignInLink, spendSignInLink } from "~/services/accounts/index.server";
import { formReply, readForm } from "~/web/http.server";
import { afterFirstStep } from "~/web/sign-in.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Finish signing in | StackShift" }];

/**
 * The link mailed when an account past its ceiling of failed passwords signs in with the right
 * one from a browser it never used (docs/decisions/041-a-ceiling-per-account.md). It only shows
 * this page; the page's POST signs this browser in, once, within 15 minutes.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const link = await pendingSignInLink(params.token ?? "");
  return data(link ?? { email: null }, {
    status: link ? 200 : 400,
    headers: { "Referrer-Policy": "no-referrer" },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await readForm(request, 1024);
  try {
    const { user, redirectTo } = await spendSignInLink(params.token ?? "");
    return afterFirstStep(request, user, { method: "link", redirectTo });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formReply(
      { result: { status: "error" as const, error: { "": [error.message] } } },
      error,
    );
  }
}

export default function FinishSignIn() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useIsPending({ state: "submitting" });
  if (!email) {
    return (
      <UnusableLink
        title="This link cannot be used"
        message="This sign-in link is invalid or has expired (it works once, for 15 minutes). Log in again to get a new one."
        links={[{ to: "/auth/login", label: "Log in" }]}
      />
    );
  }
  return (
    <AuthCard title="Finish signing in">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Sign this browser in to the StackShift account <strong>{email}</strong>. Do it only if you
        just typed your password on the login page.
      </p>
      <Form method="post" className="mt-4 space-y-4">
        <FormError message={actionData?.result.error?.[""]?.[0]} />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Signing in..." : "Sign in"}
        </Button>
      </Form>
    </AuthCard>
  );
}
