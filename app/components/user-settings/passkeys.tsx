import { getFormProps } from "@conform-to/react";
import { Link, useLocation, useRevalidator, useSearchParams } from "@remix-run/react";
import { useId, useState, type FormEvent } from "react";
import {
  answerError,
  ceremonyError,
  loadWebAuthn,
  postJson,
} from "~/components/auth/passkey-client";
import { LocalDate } from "~/components/local-date";
import { Button, buttonClass } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { CopyButton } from "~/components/ui/copy-button";
import { Field } from "~/components/ui/field";
import { SectionCard } from "~/components/ui/section-card";
import { TableHead } from "~/components/ui/table-head";
import { useIntentForm } from "~/components/ui/use-intent-form";
import type { PasskeyView } from "~/services/two-factor/index.server";
import { PASSKEY_NAME_MAX, passkeyRenameSchema } from "~/services/two-factor";
import { useHydrated } from "~/utils/page-load";

/** Where the section's forms post (app/routes/resources.passkeys.ts). */
const ENDPOINT = "/resources/passkeys";
const RENAME = "passkey-rename";
const DELETE = "passkey-delete";

/** The section's props: passkeysOf(user) in the page's loader (app/services/two-factor). */
export type PasskeysSectionProps = { passkeys: PasskeyView[] };

/**
 * "Passkeys" in the account's settings, self-contained: the list (name, added, last used) with
 * Rename and Delete, which work without JavaScript (each a dialog opened by the address,
 * `?passkey-rename=<id>` / `?passkey-delete=<id>`, posting to /resources/passkeys and coming
 * back here), and "Add a passkey", which needs JavaScript (WebAuthn is a browser API). The
 * account's first factor comes with ten recovery codes, shown here once.
 */
export function PasskeysSection({ passkeys }: PasskeysSectionProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const renaming = passkeys.find((p) => p.id === searchParams.get(RENAME)) ?? null;
  const deleting = passkeys.find((p) => p.id === searchParams.get(DELETE)) ?? null;
  const withoutDialogs = new URLSearchParams(searchParams);
  withoutDialogs.delete(RENAME);
  withoutDialogs.delete(DELETE);
  const rest = withoutDialogs.toString();
  const back = location.pathname + (rest ? `?${rest}` : "");
  const close = () => setSearchParams(withoutDialogs, { replace: true, preventScrollReset: true });
  const href = (param: string, id: string) => {
    const next = new URLSearchParams(withoutDialogs);
    next.set(param, id);
    return `${location.pathname}?${next.toString()}`;
  };

  return (
    <SectionCard id="passkeys" title="Passkeys">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        A passkey signs you in with your device&apos;s fingerprint, face or PIN instead of your
        password, and serves as a second factor after it. It lives on your device or in your
        password manager; StackShift keeps only its public key.
      </p>
      {passkeys.length === 0 ? (
        <p className="text-sm">You have no passkeys yet.</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Your passkeys</caption>
            <TableHead
              columns={[
                "Name",
                "Added",
                "Last used",
                <span key="actions" className="sr-only">
                  Actions
                </span>,
              ]}
            />
            <tbody>
              {passkeys.map((p) => (
                <tr key={p.id} className="border-t border-slate-200 dark:border-slate-800">
                  <td className="py-2 pr-3">
                    {p.name}
                    {p.synced ? (
                      <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">
                        synced
                      </span>
                    ) : null}
                  </td>
                  <td className="py-2 pr-3">
                    <LocalDate value={p.createdAt} />
                  </td>
                  <td className="py-2 pr-3">
                    {p.lastUsedAt ? <LocalDate value={p.lastUsedAt} style="dateTime" /> : "Never"}
                  </td>
                  <td className="py-2">
                    <div className="flex justify-end gap-2">
                      <Link
                        to={href(RENAME, p.id)}
                        preventScrollReset
                        className={buttonClass("secondary", "px-3 py-1")}
                      >
                        Rename<span className="sr-only"> {p.name}</span>
                      </Link>
                      <Link
                        to={href(DELETE, p.id)}
                        preventScrollReset
                        className={buttonClass("secondary", "px-3 py-1")}
                      >
                        Delete<span className="sr-only"> {p.name}</span>
                      </Link>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <AddPasskey />
      {renaming ? (
        <RenameDialog key={renaming.id} passkey={renaming} back={back} onClose={close} />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          key={deleting.id}
          title={`Delete ${deleting.name}?`}
          description={
            passkeys.length === 1
              ? "You will no longer sign in with this passkey. If it is your account's last second factor, two-factor sign-in is turned off and your recovery codes are deleted."
              : "You will no longer sign in with this passkey. Remove it from the device too."
          }
          intent={DELETE}
          action={ENDPOINT}
          fields={{ passkeyId: deleting.id, redirectTo: back }}
          confirmLabel="Yes, delete it"
          busyLabel="Deleting..."
          back={back}
          onClose={close}
        />
      ) : null}
    </SectionCard>
  );
}

/** Rename: a conform form in the confirmation dialog, posting to /resources/passkeys. */
function RenameDialog({
  passkey,
  back,
  onClose,
}: {
  passkey: PasskeyView;
  back: string;
  onClose: () => void;
}) {
  const [form, fields] = useIntentForm(RENAME, passkeyRenameSchema, {
    defaultValue: { passkeyId: passkey.id, name: passkey.name },
  });
  return (
    <ConfirmDialog
      title={`Rename ${passkey.name}`}
      description="A name that tells you which device or password manager holds it."
      intent={RENAME}
      action={ENDPOINT}
      fields={{ passkeyId: passkey.id, redirectTo: back }}
      confirmLabel="Save"
      busyLabel="Saving..."
      danger={false}
      back={back}
      onClose={onClose}
      formProps={getFormProps(form)}
    >
      <Field label="Name" field={fields.name} />
    </ConfirmDialog>
  );
}

/** "Add a passkey": a name, then the browser's own dialog. Needs JavaScript. */
function AddPasskey() {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const nameId = useId();
  const errorId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  if (!hydrated) {
    return <p className="text-sm font-medium">Adding and using passkeys needs JavaScript.</p>;
  }

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get("name") ?? "").trim();
    setBusy(true);
    setError(null);
    setAdded(null);
    try {
      const webauthn = await loadWebAuthn();
      if (!webauthn.browserSupportsWebAuthn()) {
        setError("This browser cannot make passkeys.");
        return;
      }
      const started = await postJson(ENDPOINT, { intent: "registration-options" });
      if (!started.ok) return setError(answerError(started));
      let response: unknown;
      try {
        response = await webauthn.startRegistration({
          optionsJSON: started.body.options as never,
        });
      } catch (failure) {
        return setError(ceremonyError(failure, true));
      }
      const kept = await postJson(ENDPOINT, { intent: "registration-verify", name, response });
      if (!kept.ok) return setError(answerError(kept));
      const passkey = kept.body.passkey as { name: string };
      setAdded(passkey.name);
      if (Array.isArray(kept.body.recoveryCodes)) setCodes(kept.body.recoveryCodes as string[]);
      form.reset();
      revalidator.revalidate();
    } catch {
      setError("Could not reach StackShift. Check your connection and try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3">
      <form onSubmit={(event) => void add(event)} className="flex flex-wrap items-end gap-3">
        <div className="space-y-1">
          <label htmlFor={nameId} className="block text-sm font-medium">
            Name of the new passkey
          </label>
          <input
            id={nameId}
            name="name"
            required
            maxLength={PASSKEY_NAME_MAX}
            placeholder="e.g. Work laptop"
            aria-describedby={error ? errorId : undefined}
            className="block w-64 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
          />
        </div>
        <Button type="submit" disabled={busy}>
          {busy ? "Waiting for your device..." : "Add a passkey"}
        </Button>
      </form>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      {added ? (
        <p role="status" className="text-sm text-green-800 dark:text-green-300">
          Passkey {added} added.
        </p>
      ) : null}
      {codes ? <RecoveryCodesOnce codes={codes} onDone={() => setCodes(null)} /> : null}
    </div>
  );
}

/** The ten recovery codes of a first factor: shown this once. */
function RecoveryCodesOnce({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <section
      aria-labelledby="passkey-recovery-heading"
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950"
    >
      <h3 id="passkey-recovery-heading" className="font-semibold">
        Save these recovery codes
      </h3>
      <p className="text-sm">
        Your account now asks for a second factor. If you lose your passkeys, each of these codes
        signs you in once. Save them somewhere safe now (a password manager, a printout): they are
        not shown again.
      </p>
      <ol className="grid grid-cols-2 gap-1 font-mono text-sm" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex gap-2">
        <CopyButton value={codes.join("\n")} label="the recovery codes" />
        <Button variant="secondary" className="px-2 py-0.5 text-xs" onClick={onDone}>
          I have saved them
        </Button>
      </div>
    </section>
  );
}
