import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";
import { AuthCard } from "~/components/auth-card";
import { Button } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { forgotSchema } from "~/services/accounts";
import { queuePasswordReset } from "~/services/accounts/index.server";
import { RateLimitedError } from "~/services/core";
import { consume } from "~/services/core/index.server";
import { honeypotInputProps, isSpam } from "~/utils/honeypot.server";
import { formReply, readForm } from "~/web/http.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Forgot password | StackShift" }];

const SENT_MESSAGE =
  "If an account exists for that email, we've sent a link to reset the password.";

export const loader = () => ({ honeypot: honeypotInputProps() });

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: forgotSchema });
  if (submission.status !== "success") {
    return formReply({ result: submission.reply(), sent: false }, 400);
  }
  const sent = () => formReply({ result: submission.reply({ resetForm: true }), sent: true });
  // A robot filled the honeypot: the usual answer, and no mail.
  if (isSpam(formData)) return sent();
  try {
    await consume("forgotAddress", context.clientIp ?? "unknown");
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    return formReply(
      { result: submission.reply({ formErrors: [error.message] }), sent: false },
      error,
    );
  }
  // The same answer, in the same time, whether or not the account exists: the lookup, the
  // per-address mail limit and the mail itself run in the password-reset job.
  await queuePasswordReset(submission.value.email);
  return sent();
}

export default function Forgot() {
  const { honeypot } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useIsPending({ state: "submitting" });
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult: actionData?.result,
    constraint: getZodConstraint(forgotSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <AuthCard title="Forgot your password?">
      {actionData?.sent ? (
        <p
          role="status"
          className="mb-4 rounded-md bg-green-50 p-3 text-sm text-green-800 dark:bg-green-950 dark:text-green-200"
        >
          {SENT_MESSAGE}
        </p>
      ) : (
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">
          Enter the email of your account and we will send you a link to choose a new password.
        </p>
      )}
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormError message={form.errors?.[0]} />
        <HoneypotProvider {...honeypot}>
          <HoneypotInputs />
        </HoneypotProvider>
        <Field label="Email" autoComplete="email" field={fields.email} type="email" />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Sending..." : "Send reset link"}
        </Button>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link to="/auth/login" className="text-brand underline">
          Back to log in
        </Link>
      </p>
    </AuthCard>
  );
}
