import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";
import { ConfirmRequestDialog } from "~/components/access-requests/confirm-request-dialog";
import { AuthCard } from "~/components/auth-card";
import { Button } from "~/components/ui/button";
import { Field, FormError, TextareaField } from "~/components/ui/field";
import { LIMITS, requestAccessSchema } from "~/services/platform";
import { submitAccessRequest } from "~/services/platform/index.server";
import { ServiceError } from "~/services/core";
import { isSpam, honeypotInputProps } from "~/utils/honeypot.server";
import { formReply, readForm } from "~/web/http.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Request access | StackShift" }];

export async function loader({ request }: LoaderFunctionArgs) {
  if (new URL(request.url).searchParams.get("sent") === "1") return { sent: true as const };
  // The form's honeypot (decision 012); the success page has no form.
  return { sent: false as const, honeypot: honeypotInputProps() };
}

const SENT = "/request-access?sent=1";

/**
 * Two steps over one form: intent=review validates and answers with the values to confirm (the
 * page then renders the confirm dialog), intent=confirm validates again and records the request,
 * intent=edit (Cancel without JavaScript) hands the values back to the form.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const submission = parseWithZod(formData, { schema: requestAccessSchema });
  if (intent !== "review" && intent !== "confirm" && intent !== "edit") {
    return formReply(
      { step: "form" as const, result: submission.reply({ formErrors: ["Unknown action"] }) },
      400,
    );
  }
  if (submission.status !== "success") {
    return formReply({ step: "form" as const, result: submission.reply() }, 400);
  }
  // A robot filled the honeypot: it sees the request sent, and nothing is recorded.
  if (isSpam(formData)) return redirect(SENT);
  if (intent === "edit") return formReply({ step: "form" as const, result: submission.reply() });
  if (intent === "review") {
    return formReply({
      step: "review" as const,
      result: submission.reply(),
      values: submission.value,
    });
  }
  try {
    await submitAccessRequest(submission.value, { clientIp: context.clientIp });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formReply(
      { step: "form" as const, result: submission.reply({ formErrors: [error.message] }) },
      error,
    );
  }
  // Post/redirect/get: a refresh of the success page cannot submit twice.
  return redirect(SENT);
}

export default function RequestAccess() {
  const page = useLoaderData<typeof loader>();
  if (page.sent) return <Sent />;
  return (
    <HoneypotProvider {...page.honeypot}>
      <RequestForm />
    </HoneypotProvider>
  );
}

function Sent() {
  return (
    <AuthCard title="Request sent!">
      <p role="status" className="text-sm text-slate-700 dark:text-slate-200">
        Thank you for your interest in StackShift. We received your request for access and sent a
        confirmation to your inbox. We will email you again once it has been reviewed.
      </p>
      <Link to="/auth/login" className="mt-6 inline-block text-sm text-brand underline">
        Back to log in
      </Link>
    </AuthCard>
  );
}

function RequestForm() {
  const actionData = useActionData<typeof action>();
  const reviewing = useIsPending({ intent: "review", state: "submitting" });
  const confirming = useIsPending({ intent: "confirm", state: "submitting" });
  // With JavaScript, Cancel closes the dialog of this particular answer without a round trip.
  const [closed, setClosed] = useState<unknown>(null);
  const review =
    actionData?.step === "review" && "values" in actionData && closed !== actionData
      ? actionData.values
      : null;

  const [form, fields] = useForm({
    id: "request-access",
    lastResult: actionData?.result,
    constraint: getZodConstraint(requestAccessSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: requestAccessSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <AuthCard title="Request access to StackShift" wide>
      <p className="-mt-3 mb-6 text-sm text-slate-600 dark:text-slate-300">
        Tell us about you and your company. We will email you once your request is approved.
      </p>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormError message={form.errors?.[0]} />
        <HoneypotInputs />
        <Field
          label="Name"
          autoComplete="name"
          maxLength={LIMITS.fullName}
          field={fields.fullName}
          required
        />
        <Field
          label="Business Email"
          autoComplete="email"
          maxLength={254}
          field={fields.businessEmail}
          type="email"
          required
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Telephone Number"
            autoComplete="tel"
            maxLength={LIMITS.telephoneNumber}
            field={fields.telephoneNumber}
            type="tel"
          />
          <Field
            label="Company"
            autoComplete="organization"
            maxLength={LIMITS.companyName}
            field={fields.companyName}
          />
          <Field
            label="Number of employees"
            inputMode="numeric"
            placeholder="e.g. 11-50"
            maxLength={LIMITS.numberOfEmployees}
            field={fields.numberOfEmployees}
          />
          <Field
            label="Website"
            autoComplete="url"
            placeholder="example.com"
            maxLength={LIMITS.websiteAddress}
            field={fields.websiteAddress}
          />
        </div>
        <TextareaField
          label="Additional Info"
          rows={4}
          maxLength={LIMITS.additionalInfo}
          field={fields.additionalInfo}
        />
        <Button type="submit" name="intent" value="review" className="w-full" disabled={reviewing}>
          Request Access
        </Button>
      </Form>
      <p className="mt-6 text-center text-sm">
        Already approved?{" "}
        <Link to="/signup" className="text-brand underline">
          Sign up
        </Link>{" "}
        or{" "}
        <Link to="/auth/login" className="text-brand underline">
          log in
        </Link>
      </p>
      {review ? (
        <ConfirmRequestDialog
          values={review}
          busy={confirming}
          onClose={() => setClosed(actionData)}
        />
      ) : null}
    </AuthCard>
  );
}
