import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { Button } from "~/components/ui/button";
import { FormError } from "~/components/ui/field";
import { forgotSchema } from "~/services/accounts";
import { resendConfirmation } from "~/services/accounts/index.server";
import { RateLimitedError } from "~/services/core";
import { consume } from "~/services/core/index.server";
import { formErrorOf } from "~/utils/form-errors";
import { formReply, readForm } from "~/web/http.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Confirm your email | StackShift" }];

/** The page after "Sign up" when the address still has to be confirmed (docs/configuration.md). */
export async function loader({ request }: LoaderFunctionArgs) {
  const email = (new URL(request.url).searchParams.get("email") ?? "").trim().slice(0, 254);
  return { email };
}

/** Resend: a fresh link for the newest waiting signup of the address; the same answer for any. */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request, 4 * 1024), { schema: forgotSchema });
  if (submission.status !== "success") {
    return formReply(
      {
        result: submission.reply({ formErrors: ["Enter a valid email address"] }),
        resent: false,
        email: null,
      },
      400,
    );
  }
  const { email } = submission.value;
  try {
    await consume("signupAddress", context.clientIp ?? "unknown");
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    return formReply(
      { result: submission.reply({ formErrors: [error.message] }), resent: false, email },
      error,
    );
  }
  await resendConfirmation(email);
  return formReply({ result: submission.reply(), resent: true, email });
}

export default function CheckYourEmail() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const email = actionData?.email ?? loaded.email;
  const busy = useIsPending({ state: "submitting" });
  return (
    <AuthCard title="Confirm your email">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        We sent a link to <strong>{email || "your email address"}</strong>. Open it within 24 hours
        to finish creating your StackShift account; until then you cannot log in.
      </p>
      {actionData?.resent ? (
        <p
          role="status"
          className="mt-4 rounded-md bg-green-50 p-3 text-sm text-green-800 dark:bg-green-950 dark:text-green-200"
        >
          If a signup is waiting for {email || "this address"}, we sent a new link. Only the newest
          link works.
        </p>
      ) : null}
      {email ? (
        <Form method="post" className="mt-4 space-y-2">
          <FormError message={formErrorOf(actionData?.result)} />
          <input type="hidden" name="email" value={email} />
          <Button type="submit" variant="secondary" className="w-full" disabled={busy}>
            {busy ? "Sending..." : "Resend"}
          </Button>
        </Form>
      ) : null}
      <p className="mt-6 text-center text-sm">
        Wrong address?{" "}
        <Link to="/signup" className="text-brand underline">
          Sign up again
        </Link>{" "}
        ·{" "}
        <Link to="/auth/login" className="text-brand underline">
          Log in
        </Link>
      </p>
    </AuthCard>
  );
}
