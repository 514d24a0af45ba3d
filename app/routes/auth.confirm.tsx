import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { PasskeyButton } from "~/components/auth/passkey-button";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { IntentForm } from "~/components/ui/intent-form";
import { useIntentForm } from "~/components/ui/use-intent-form";
import { checkCurrentPassword } from "~/services/accounts/index.server";
import { RateLimitedError, type ServiceError } from "~/services/core";
import {
  CONFIRM_INTENTS as I,
  confirmCodeSchema,
  confirmPasswordSchema,
} from "~/services/accounts";
import { checkSecondFactor, factorsOf } from "~/services/two-factor/index.server";
import { getAccount } from "~/services/accounts/index.server";
import { dispatchIntent, type IntentContext } from "~/web/intents.server";
import { oidcEnabled } from "~/web/oidc.server";
import { noteProof, proofMaxAgeMs } from "~/web/proof.server";
import { requireUser, safeRedirect } from "~/web/session.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Confirm it's you | StackShift" }];

/**
 * /auth/confirm?returnTo=...: a proof of holding the account before something irreversible
 * (app/web/proof.server.ts, docs/decisions/039-proof-before-the-irreversible.md). It offers
 * what the account has: its password, a code from the authenticator app or a recovery code, a
 * passkey, or single sign-on again for an account without a password. Wrong passwords and codes
 * count like failed logins. Done, it goes back to the page, whose form shows what was typed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [account, factors] = await Promise.all([getAccount(user), factorsOf(user.id)]);
  return {
    returnTo: safeRedirect(new URL(request.url).searchParams.get("returnTo"), "/"),
    email: user.email,
    hasPassword: !account.ssoOnly,
    hasSecondFactor: Boolean(user.hasSecondFactor),
    hasPasskey: factors.passkeys > 0,
    sso: oidcEnabled() && (account.ssoOnly || account.ssoLinked),
    minutes: Math.round(proofMaxAgeMs() / 60_000),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const clientIp = context.clientIp ?? "unknown";
  const done = async (formData: FormData) => {
    await noteProof(request);
    return redirect(safeRedirect(formData.get("returnTo"), "/"));
  };
  return dispatchIntent(
    request,
    {
      [I.password]: async ({ formData, reply }) => {
        const s = parseWithZod(formData, { schema: confirmPasswordSchema });
        if (s.status !== "success")
          return reply({ result: s.reply({ hideFields: ["password"] }) }, 400);
        await checkCurrentPassword(user.id, s.value.password, clientIp, "password");
        return done(formData);
      },
      [I.code]: async ({ formData, reply }) => {
        const s = parseWithZod(formData, { schema: confirmCodeSchema });
        if (s.status !== "success")
          return reply({ result: s.reply({ hideFields: ["code"] }) }, 400);
        await checkSecondFactor(user, s.value.code, clientIp);
        return done(formData);
      },
    },
    {
      maxBytes: 4 * 1024,
      // A wrong password or code, or too many: said beside its field; anything else above the form.
      onError: (error: ServiceError, { intent, reply }: IntentContext) => {
        const field = intent === I.code ? "code" : "password";
        let errors = "fieldErrors" in error ? (error.fieldErrors as Record<string, string[]>) : {};
        if (error instanceof RateLimitedError) errors = { [field]: [error.message] };
        if (Object.keys(errors).length === 0) errors = { "": [error.message] };
        return reply({ result: { status: "error", error: errors } }, error);
      },
    },
  );
}

export default function ConfirmItsYou() {
  const data = useLoaderData<typeof loader>();
  const [passwordForm, passwordFields] = useIntentForm(I.password, confirmPasswordSchema);
  const [codeForm, codeFields] = useIntentForm(I.code, confirmCodeSchema);
  const busy = useIsPending({ state: "submitting" });
  return (
    <AuthCard title="Confirm it's you">
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-300">
        This step cannot be undone, so we ask again that it is you, {data.email}. Once confirmed,
        you go back to where you were and press the button again; for the next {data.minutes}{" "}
        minutes nothing more is asked.
      </p>
      <div className="space-y-6">
        {data.hasPassword ? (
          <IntentForm form={passwordForm} className="space-y-4">
            <input type="hidden" name="returnTo" value={data.returnTo} />
            <Field
              label="Password"
              type="password"
              autoComplete="current-password"
              field={passwordFields.password}
            />
            <Button type="submit" className="w-full" disabled={busy}>
              Confirm with password
            </Button>
          </IntentForm>
        ) : null}
        {data.hasSecondFactor ? (
          <IntentForm form={codeForm} className="space-y-4">
            <input type="hidden" name="returnTo" value={data.returnTo} />
            <Field
              label="Code from your authenticator app, or a recovery code"
              autoComplete="one-time-code"
              inputMode="text"
              field={codeFields.code}
            />
            <Button
              type="submit"
              variant={data.hasPassword ? "secondary" : "primary"}
              className="w-full"
              disabled={busy}
            >
              Confirm with a code
            </Button>
          </IntentForm>
        ) : null}
        {data.hasPasskey ? (
          // Its resource route (/auth/passkey) sets the session's proof; then back to the page.
          <PasskeyButton purpose="proof" redirectTo={data.returnTo} className="w-full" />
        ) : null}
        {!data.hasPassword && !data.hasSecondFactor && !data.sso ? (
          <p className="text-sm">
            This account has no password, second factor or single sign-on to confirm with here. Sign
            out and sign in again, then come back within {data.minutes} minutes.
          </p>
        ) : null}
        {data.sso ? (
          <Form method="post" action="/auth/oidc">
            <input type="hidden" name="redirectTo" value={data.returnTo} />
            <Button
              type="submit"
              variant={data.hasPassword ? "secondary" : "primary"}
              className="w-full"
            >
              Sign in again with single sign-on
            </Button>
          </Form>
        ) : null}
      </div>
      <p className="mt-6 text-center text-sm">
        <Link to={data.returnTo} className="text-brand underline">
          Cancel
        </Link>
      </p>
    </AuthCard>
  );
}
