import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";
import { AuthCard } from "~/components/auth-card";
import { Button } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { signupSchema } from "~/services/accounts";
import { NotEligibleError, signUp } from "~/services/accounts/index.server";
import { ServiceError, InvalidError } from "~/services/core";
import { rememberedAddressProof } from "~/web/address-proof.server";
import { honeypotInputProps, isSpam } from "~/utils/honeypot.server";
import { formReply, readForm } from "~/web/http.server";
import { createUserSession, getOptionalUser, safeRedirect } from "~/web/session.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Sign up | StackShift" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  if (await getOptionalUser(request)) throw redirect(redirectTo);
  // Approval and invitation e-mails link to /signup?email=...: start with that address. Their
  // `proof` shows the person reads that mailbox, so no confirmation mail is needed.
  const email = (url.searchParams.get("email") ?? "").trim().slice(0, 254);
  const proof = (url.searchParams.get("proof") ?? "").slice(0, 100);
  return { email, redirectTo, proof, honeypot: honeypotInputProps() };
}

/** Where a signup that needs its address confirmed goes: the 'Confirm your email' page. */
const verifyPage = (email: string) => `/auth/verify?email=${encodeURIComponent(email)}`;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: signupSchema });
  if (submission.status !== "success") {
    return formReply(
      { result: submission.reply({ hideFields: ["password"] }), notEligible: false },
      400,
    );
  }
  // A robot filled the honeypot: the usual 'confirm your email' page, and no account or mail.
  if (isSpam(formData)) return redirect(verifyPage(submission.value.email));
  const redirectTo = safeRedirect(formData.get("redirectTo"));
  const typed = formData.get("proof");
  const proof =
    (typeof typed === "string" && typed) ||
    (await rememberedAddressProof(request, submission.value.email));
  try {
    const result = await signUp(submission.value, {
      proof,
      redirectTo,
      clientIp: context.clientIp ?? "unknown",
    });
    if (result.kind === "created") return createUserSession(request, result.user, redirectTo);
    return redirect(verifyPage(result.email));
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    // Eligibility, duplicates and limits are about the address: say so beside the Email field.
    const fieldErrors =
      error instanceof InvalidError && Object.keys(error.fieldErrors).length > 0
        ? error.fieldErrors
        : { email: [error.message] };
    return formReply(
      {
        result: submission.reply({ fieldErrors, hideFields: ["password"] }),
        notEligible: error instanceof NotEligibleError,
      },
      error,
    );
  }
}

export default function Signup() {
  const { email, redirectTo, proof, honeypot } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useIsPending({ state: "submitting" });
  const [form, fields] = useForm({
    id: "signup",
    lastResult: actionData?.result,
    defaultValue: { email },
    constraint: getZodConstraint(signupSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signupSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <AuthCard title="Sign up for StackShift">
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormError message={form.errors?.[0]} />
        <HoneypotProvider {...honeypot}>
          <HoneypotInputs />
        </HoneypotProvider>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {proof ? <input type="hidden" name="proof" value={proof} /> : null}
        <Field label="Name" autoComplete="name" field={fields.name} />
        <div>
          <Field label="Email" autoComplete="email" field={fields.email} type="email" />
          {actionData?.notEligible ? (
            <p className="mt-1 text-sm">
              <Link to="/request-access" className="text-brand underline">
                Request access
              </Link>{" "}
              with this email; we will email you once it is approved.
            </p>
          ) : null}
        </div>
        <Field
          label="Password"
          autoComplete="new-password"
          hint="At least 8 characters"
          field={fields.password}
          type="password"
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Signing up..." : "Sign up"}
        </Button>
      </Form>
      <p className="mt-6 text-center text-sm">
        Already have an account?{" "}
        <Link
          to={
            redirectTo === "/"
              ? "/auth/login"
              : `/auth/login?redirectTo=${encodeURIComponent(redirectTo)}`
          }
          className="text-brand underline"
        >
          Log in
        </Link>
      </p>
      <p className="mt-2 text-center text-sm">
        No access yet?{" "}
        <Link to="/request-access" className="text-brand underline">
          Request access
        </Link>
      </p>
    </AuthCard>
  );
}
