import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard, UnusableLink } from "~/components/auth-card";
import { Button } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { confirmSignupSchema } from "~/services/accounts";
import { confirmEmail, pendingConfirmation } from "~/services/accounts/index.server";
import { ServiceError, InvalidError, RateLimitedError } from "~/services/core";
import { formReply, readForm } from "~/web/http.server";
import { createUserSession } from "~/web/session.server";
import { toastHeader } from "~/utils/toast.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Confirm your email | StackShift" }];

/**
 * The confirmation link of a signup only shows this page (mail scanners open every link; a GET or
 * HEAD changes nothing). The account is created by the page's POST, with the password chosen at
 * signup typed again (docs/decisions/024-a-link-only-shows.md). It works once, within 24 hours.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const pending = await pendingConfirmation(params.token ?? "");
  return data(
    { email: pending?.email ?? null },
    { status: pending ? 200 : 400, headers: { "Referrer-Policy": "no-referrer" } },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request, 4 * 1024), {
    schema: confirmSignupSchema,
  });
  if (submission.status !== "success") {
    return formReply(
      { result: submission.reply({ hideFields: ["password"] }), invalid: false, message: null },
      400,
    );
  }
  try {
    const { user, redirectTo } = await confirmEmail(
      params.token ?? "",
      submission.value.password,
      context.clientIp ?? "unknown",
    );
    const response = await createUserSession(request, user, redirectTo);
    response.headers.append(
      "Set-Cookie",
      await toastHeader({
        type: "success",
        title: "Your email is confirmed",
        description: "Welcome to StackShift.",
      }),
    );
    return response;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const fieldErrors =
      error instanceof InvalidError && Object.keys(error.fieldErrors).length > 0
        ? error.fieldErrors
        : undefined;
    return formReply(
      {
        result: submission.reply({
          ...(fieldErrors ? { fieldErrors } : { formErrors: [error.message] }),
          hideFields: ["password"],
        }),
        // The link itself cannot be used (spent, expired, unknown, or the account exists).
        invalid: !fieldErrors && !(error instanceof RateLimitedError),
        message: error.message,
      },
      error,
    );
  }
}

function Unusable({ message }: { message: string }) {
  return (
    <UnusableLink
      title="This confirmation link cannot be used"
      message={message}
      links={[
        { to: "/auth/login", label: "Log in" },
        { to: "/signup", label: "Sign up" },
      ]}
    />
  );
}

export default function ConfirmEmail() {
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useIsPending({ state: "submitting" });
  const [form, fields] = useForm({
    id: "verify",
    lastResult: actionData?.result,
    constraint: getZodConstraint(confirmSignupSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: confirmSignupSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  if (actionData && "invalid" in actionData && actionData.invalid) {
    return <Unusable message={actionData.message ?? ""} />;
  }
  if (!email) {
    return <Unusable message="This confirmation link is invalid or has expired. Sign up again." />;
  }
  return (
    <AuthCard title="Confirm your email">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        To finish creating the StackShift account for <strong>{email}</strong>, type the password
        you chose when you signed up.
      </p>
      <Form method="post" className="mt-4 space-y-4" {...getFormProps(form)}>
        <FormError message={form.errors?.[0]} />
        <input type="hidden" name="username" value={email} autoComplete="username" />
        <Field
          label="Password"
          autoComplete="current-password"
          field={fields.password}
          type="password"
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Confirming..." : "Confirm email"}
        </Button>
      </Form>
      <p className="mt-6 text-sm text-slate-600 dark:text-slate-300">
        Did not sign up, or forgot the password?{" "}
        <Link to={`/signup?email=${encodeURIComponent(email)}`} className="text-brand underline">
          Sign up
        </Link>{" "}
        with a password of your own, and open the link of that new mail.
      </p>
    </AuthCard>
  );
}
