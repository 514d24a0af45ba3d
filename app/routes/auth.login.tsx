import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { PasskeyButton } from "~/components/auth/passkey-button";
import { Button } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { loginSchema } from "~/services/accounts";
import { ServiceError } from "~/services/core";
import { EmailNotConfirmedError, verifyLogin } from "~/services/accounts/index.server";
import { formReply, readForm } from "~/web/http.server";
import { oidcEnabled } from "~/web/oidc.server";
import { getOptionalUser, safeRedirect } from "~/web/session.server";
import { afterFirstStep } from "~/web/sign-in.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Log in | StackShift" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getOptionalUser(request))
    throw redirect(safeRedirect(url.searchParams.get("redirectTo")));
  return { sso: oidcEnabled() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return formReply(
      { result: submission.reply({ hideFields: ["password"] }), unconfirmed: null },
      400,
    );
  }
  try {
    const user = await verifyLogin(submission.value, context.clientIp ?? "unknown");
    return afterFirstStep(request, user, {
      method: "password",
      redirectTo: safeRedirect(formData.get("redirectTo"), "/"),
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formReply(
      {
        result: submission.reply({ formErrors: [error.message], hideFields: ["password"] }),
        unconfirmed: error instanceof EmailNotConfirmedError ? error.email : null,
      },
      error,
    );
  }
}

export default function Login() {
  const { sso } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const busy = useIsPending({ state: "submitting" });
  const [form, fields] = useForm({
    id: "login",
    lastResult: actionData?.result,
    constraint: getZodConstraint(loginSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <AuthCard title="Log in to StackShift">
      {searchParams.get("sent") === "sign-in-link" ? (
        // Set by the ceiling per account (app/web/account-ceiling.server.ts): only words to show.
        <p role="status" className="mb-4 rounded-md bg-amber-50 p-3 text-sm dark:bg-amber-950">
          We emailed you a link to finish signing in. Open it within 15 minutes: this account has
          had many failed sign-ins lately, so a browser that has not signed in to it before needs
          the link as well as the password.
        </p>
      ) : null}
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormError message={form.errors?.[0]} />
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? "/"} />
        <Field label="Email" autoComplete="email" field={fields.email} type="email" />
        <Field
          label="Password"
          autoComplete="current-password"
          field={fields.password}
          type="password"
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Logging in..." : "Log in"}
        </Button>
      </Form>
      {actionData?.unconfirmed ? (
        <Form method="post" action="/auth/verify" className="mt-3">
          <input type="hidden" name="email" value={actionData.unconfirmed} />
          <Button type="submit" variant="secondary" className="w-full">
            Resend confirmation email
          </Button>
        </Form>
      ) : null}
      <PasskeyButton
        purpose="sign-in"
        redirectTo={searchParams.get("redirectTo") ?? "/"}
        className="mt-3"
      />
      {sso ? (
        <Form method="post" action="/auth/oidc" className="mt-3">
          <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? "/"} />
          <Button type="submit" variant="secondary" className="w-full">
            Continue with single sign-on
          </Button>
        </Form>
      ) : null}
      <div className="mt-6 flex justify-between text-sm">
        <Link to="/auth/forgot" className="text-brand underline">
          Forgot password?
        </Link>
        <Link to="/signup" className="text-brand underline">
          Sign up
        </Link>
      </div>
      <p className="mt-4 text-center text-sm">
        New to StackShift?{" "}
        <Link to="/request-access" className="text-brand underline">
          Request access
        </Link>
      </p>
    </AuthCard>
  );
}
