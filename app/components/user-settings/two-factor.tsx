import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { CopyButton } from "~/components/ui/copy-button";
import { Field, FormError } from "~/components/ui/field";
import { enableTotpSchema } from "~/services/two-factor";
import { useFormReply } from "~/web/form-reply";
import { useIsPending } from "~/utils/use-is-pending";
import { LocalDate } from "~/components/local-date";

export const TWO_FACTOR_INTENTS = {
  startApp: "totp-start",
  cancelApp: "totp-cancel",
  enableApp: "totp-enable",
  disableApp: "totp-disable",
  newCodes: "recovery-codes-new",
} as const;
const I = TWO_FACTOR_INTENTS;

const SECTION = "max-w-2xl space-y-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800";

/** A form posting one intent of the page, with nothing to type. */
function IntentButton({
  intent,
  label,
  variant = "secondary",
}: {
  intent: string;
  label: string;
  variant?: "primary" | "secondary" | "danger";
}) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" variant={variant}>
        {label}
      </Button>
    </Form>
  );
}

export function AuthenticatorAppSection({
  totp,
  setup,
}: {
  totp: { since: string } | null;
  setup: { qrSvg: string; key: string } | null;
}) {
  return (
    <section id="authenticator-app" aria-labelledby="app-heading" className={SECTION}>
      <h2 id="app-heading" className="text-lg font-semibold">
        Authenticator app
      </h2>
      {totp ? (
        <>
          <p className="text-sm">
            On since <LocalDate value={totp.since} />. Signing in with your password asks for a code
            from the app.
          </p>
          <IntentButton
            intent={I.disableApp}
            label="Turn off the authenticator app"
            variant="danger"
          />
        </>
      ) : setup ? (
        <AppSetup setup={setup} />
      ) : (
        <>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Use an app such as 1Password, Google Authenticator, Microsoft Authenticator or Aegis: it
            shows a new 6-digit code every 30 seconds.
          </p>
          <IntentButton intent={I.startApp} label="Set up an authenticator app" variant="primary" />
        </>
      )}
    </section>
  );
}

function AppSetup({ setup }: { setup: { qrSvg: string; key: string } }) {
  const busy = useIsPending({ intent: I.enableApp });
  const [form, fields] = useForm({
    id: I.enableApp,
    lastResult: useFormReply(I.enableApp),
    constraint: getZodConstraint(enableTotpSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: enableTotpSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-3 pl-5 text-sm">
        <li>
          Scan this QR code with your authenticator app.
          <div
            role="img"
            aria-label="QR code for your authenticator app"
            className="mt-2 h-48 w-48 rounded bg-white p-1 [&>svg]:h-full [&>svg]:w-full"
            // The SVG is made on the server by the qrcode package from the otpauth address.
            dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
          />
        </li>
        <li>
          Or type this key into the app (time-based):{" "}
          <code className="font-mono" aria-label="Set-up key">
            {setup.key}
          </code>{" "}
          <CopyButton value={setup.key.replace(/ /g, "")} label="the set-up key" />
        </li>
        <li>Type the 6-digit code the app shows for StackShift.</li>
      </ol>
      <Form method="post" preventScrollReset className="space-y-3" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={I.enableApp} />
        <FormError errors={form.errors} />
        <Field
          label="Code from the app"
          field={fields.code}
          autoComplete="one-time-code"
          inputMode="numeric"
          spellCheck={false}
        />
        <div className="flex gap-2">
          <Button type="submit" disabled={busy}>
            {busy ? "Checking..." : "Turn on"}
          </Button>
        </div>
      </Form>
      <IntentButton intent={I.cancelApp} label="Cancel the set-up" />
    </div>
  );
}

export function RecoveryCodesSection({
  left,
  hasFactor,
}: {
  left: number | null;
  hasFactor: boolean;
}) {
  return (
    <section aria-labelledby="recovery-heading" className={SECTION}>
      <h2 id="recovery-heading" className="text-lg font-semibold">
        Recovery codes
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Each code signs you in once when your phone or passkey is not at hand.{" "}
        {left === null ? "You get ten when you set up your first factor." : `${left} of 10 unused.`}
      </p>
      {hasFactor ? <IntentButton intent={I.newCodes} label="Make new recovery codes" /> : null}
    </section>
  );
}

/** The ten codes, in the one answer that shows them. */
export function NewRecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section
      aria-labelledby="new-codes-heading"
      className="max-w-2xl space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950"
    >
      <h2 id="new-codes-heading" className="text-lg font-semibold">
        Your recovery codes
      </h2>
      <p className="text-sm">
        Save them now in your password manager or print them: they are shown only this once. Each
        works once; any earlier codes no longer work.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <CopyButton value={codes.join("\n")} label="the recovery codes" />
    </section>
  );
}
