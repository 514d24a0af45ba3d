import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { PasskeyButton } from "~/components/auth/passkey-button";
import { Button } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { getUser } from "~/services/accounts/index.server";
import { ServiceError } from "~/services/core";
import { checkSecondFactor, factorsOf } from "~/services/two-factor/index.server";
import { codeSchema } from "~/services/two-factor";
import { formReply, readForm } from "~/web/http.server";
import { createUserSession } from "~/web/session.server";
import { pendingSignIn } from "~/web/sign-in.server";
import { toastHeader } from "~/utils/toast.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Two-factor sign-in | StackShift" }];

/** Without a password step waiting in this browser there is nothing to finish here. */
const BACK_TO_LOGIN = "/auth/login";

/**
 * /auth/two-factor: the second step of a password sign-in on an account with a second factor
 * (app/web/sign-in.server.ts). One field takes a code from the authenticator app or a recovery
 * code; it works without JavaScript. Passkeys need JavaScript, and the page says so.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const pending = await pendingSignIn(request);
  if (!pending) throw redirect(BACK_TO_LOGIN);
  const factors = await factorsOf(pending.userId);
  return { totp: Boolean(factors.totp), passkeys: factors.passkeys > 0 };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const pending = await pendingSignIn(request);
  if (!pending) throw redirect(BACK_TO_LOGIN);
  const formData = await readForm(request, 4 * 1024);
  const submission = parseWithZod(formData, { schema: codeSchema });
  if (submission.status !== "success") {
    return formReply({ result: submission.reply({ hideFields: ["code"] }) }, 400);
  }
  const user = await getUser(pending.userId);
  if (!user) throw redirect(BACK_TO_LOGIN);
  try {
    const used = await checkSecondFactor(
      user,
      submission.value.code,
      context.clientIp ?? "unknown",
    );
    // A fresh session on a fresh id: the waiting one (and its cookie) is replaced.
    const response = await createUserSession(request, user, pending.redirectTo);
    if (used.method === "recovery") {
      response.headers.append(
        "Set-Cookie",
        await toastHeader({
          type: used.left > 2 ? "success" : "error",
          title: "You signed in with a recovery code",
          description: `It cannot be used again: ${used.left} left. Make new ones in User Settings > Two-factor sign-in.`,
        }),
      );
    }
    return response;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formReply(
      {
        result: submission.reply({
          fieldErrors: { code: [error.message] },
          hideFields: ["code"],
        }),
      },
      error,
    );
  }
}

export default function TwoFactorStep() {
  const { totp, passkeys } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useIsPending({ state: "submitting" });
  const [form, fields] = useForm({
    id: "two-factor",
    lastResult: actionData?.result,
    constraint: getZodConstraint(codeSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: codeSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <AuthCard title="Two-factor sign-in">
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-300">
        {totp
          ? "Enter the 6-digit code your authenticator app shows for StackShift, or one of your recovery codes."
          : "Enter one of your recovery codes, or use your passkey."}
      </p>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormError message={form.errors?.[0]} />
        <Field
          label={totp ? "Authentication code or recovery code" : "Recovery code"}
          field={fields.code}
          autoComplete="one-time-code"
          autoFocus
          spellCheck={false}
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Checking..." : "Verify"}
        </Button>
      </Form>
      {passkeys ? <PasskeyButton purpose="second-factor" className="mt-4 w-full" /> : null}
      <p className="mt-6 text-center text-sm">
        <Link to={BACK_TO_LOGIN} className="text-brand underline">
          Cancel and log in again
        </Link>
      </p>
    </AuthCard>
  );
}
