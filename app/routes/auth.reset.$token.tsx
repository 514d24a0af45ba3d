import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useParams } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { Button } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { resetSchema } from "~/services/accounts";
import { resetPassword, resetTokenIsValid } from "~/services/accounts/index.server";
import { revokedTokensText } from "~/services/accounts";
import { InvalidError } from "~/services/core";
import { formReply, readForm } from "~/web/http.server";
import { afterFirstStep } from "~/web/sign-in.server";
import { toastHeader } from "~/utils/toast.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Choose a new password | StackShift" }];

// Tokens are 43 characters of base64url; anything else cannot be one of ours.
const plausible = (token: string | undefined): token is string =>
  Boolean(token) && token!.length <= 200;

export async function loader({ params }: LoaderFunctionArgs) {
  const valid = plausible(params.token) && (await resetTokenIsValid(params.token));
  return data({ valid }, { status: valid ? 200 : 400 });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const formData = await readForm(request);
  // The token comes from the URL, never from the form.
  formData.set("token", params.token ?? "");
  const submission = parseWithZod(formData, { schema: resetSchema });
  const hide = ["password", "confirmPassword"];
  if (submission.status !== "success") {
    const invalidToken = Boolean(submission.error?.token);
    return formReply(
      { result: submission.reply({ hideFields: hide }), invalid: invalidToken },
      400,
    );
  }
  try {
    const { user, ended } = await resetPassword(submission.value.token, submission.value.password);
    // A fresh session on a fresh id; every older session of the account has just ended and its
    // API tokens were revoked: the settings page says how many and offers to make new ones. The
    // mailbox and a new password are one factor: an account with a second factor is asked for it.
    const redirectTo =
      ended.tokens > 0 ? `/sites/user-settings?tokensRevoked=${ended.tokens}#api-tokens` : "/";
    const response = await afterFirstStep(request, user, {
      method: "password",
      redirectTo,
      mailboxProved: true,
    });
    response.headers.append(
      "Set-Cookie",
      await toastHeader({
        type: "success",
        title: "Your password has been reset",
        description: [
          user.hasSecondFactor
            ? "Enter your second factor to finish signing in. Every other session was signed out."
            : "You are now logged in. Every other session was signed out.",
          revokedTokensText(ended.tokens),
        ]
          .filter(Boolean)
          .join(" "),
      }),
    );
    return response;
  } catch (error) {
    if (!(error instanceof InvalidError)) throw error;
    return formReply(
      {
        result: submission.reply({ formErrors: [error.message], hideFields: hide }),
        invalid: true,
      },
      error,
    );
  }
}

function InvalidLink() {
  return (
    <AuthCard title="This reset link is invalid or has expired">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        A reset link works once, for one hour. Request a new one and use the newest email.
      </p>
      <p className="mt-6 text-center text-sm">
        <Link to="/auth/forgot" className="text-brand underline">
          Request a new reset link
        </Link>
      </p>
    </AuthCard>
  );
}

export default function ResetPassword() {
  const { valid } = useLoaderData<typeof loader>();
  const token = useParams().token ?? "";
  const actionData = useActionData<typeof action>();
  const busy = useIsPending({ state: "submitting" });
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult: actionData?.result,
    constraint: getZodConstraint(resetSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  if (!valid || actionData?.invalid) return <InvalidLink />;
  return (
    <AuthCard title="Choose a new password">
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormError message={form.errors?.[0]} />
        {/* For the client-side check of the shared schema; the action reads the URL's token. */}
        <input type="hidden" name="token" value={token} />
        <Field
          label="New password"
          autoComplete="new-password"
          hint="At least 8 characters"
          field={fields.password}
          type="password"
        />
        <Field
          label="Confirm password"
          autoComplete="new-password"
          field={fields.confirmPassword}
          type="password"
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Saving..." : "Reset password"}
        </Button>
      </Form>
    </AuthCard>
  );
}
