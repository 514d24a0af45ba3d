import { useNavigate, useRevalidator } from "@remix-run/react";
import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { useHydrated } from "~/utils/page-load";
import { answerError, ceremonyError, loadWebAuthn, postJson } from "./passkey-client";

export type PasskeyPurpose = "sign-in" | "second-factor" | "proof";

const LABELS: Record<PasskeyPurpose, { idle: string; busy: string }> = {
  "sign-in": { idle: "Sign in with a passkey", busy: "Waiting for your passkey..." },
  "second-factor": { idle: "Use a passkey", busy: "Waiting for your passkey..." },
  proof: { idle: "Confirm with a passkey", busy: "Waiting for your passkey..." },
};

/**
 * A passkey used through /auth/passkey: to sign in (the login page, no e-mail needed), as the
 * second step after a password, or as a proof before the irreversible. Passkeys need
 * JavaScript: until the page is interactive (and without JavaScript) it is a line saying so.
 * After a sign-in the browser loads the page the server names; after a proof `onProved` runs
 * (or the page goes to `redirectTo`, or its data is loaded again). What went wrong is said in
 * text beside the button.
 */
export function PasskeyButton({
  purpose,
  redirectTo,
  onProved,
  className = "",
}: {
  purpose: PasskeyPurpose;
  /** Sign-in: where to go after (the server checks it); proof: where to go once proved. */
  redirectTo?: string;
  onProved?: () => void;
  className?: string;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const errorId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!hydrated) {
    return (
      <p className={`text-sm text-slate-600 dark:text-slate-300 ${className}`}>
        {purpose === "sign-in"
          ? "Signing in with a passkey needs JavaScript."
          : "Using a passkey needs JavaScript."}
      </p>
    );
  }

  async function run() {
    setBusy(true);
    setError(null);
    try {
      const webauthn = await loadWebAuthn();
      if (!webauthn.browserSupportsWebAuthn()) {
        setError("This browser cannot use passkeys.");
        return;
      }
      const started = await postJson("/auth/passkey", { purpose, step: "options" });
      if (!started.ok) return setError(answerError(started));
      let response: unknown;
      try {
        response = await webauthn.startAuthentication({
          optionsJSON: started.body.options as never,
        });
      } catch (failure) {
        return setError(ceremonyError(failure, false));
      }
      const checked = await postJson("/auth/passkey", {
        purpose,
        step: "verify",
        response,
        redirectTo,
      });
      if (!checked.ok) return setError(answerError(checked));
      if (typeof checked.body.redirectTo === "string") {
        // A new session: a full load, so every part of the page reads it.
        window.location.assign(checked.body.redirectTo);
        return;
      }
      if (onProved) onProved();
      else if (redirectTo) navigate(redirectTo);
      else revalidator.revalidate();
    } catch {
      setError("Could not reach StackShift. Check your connection and try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={`space-y-2 ${className}`}>
      <Button
        variant="secondary"
        className="w-full"
        disabled={busy}
        aria-describedby={error ? errorId : undefined}
        onClick={() => void run()}
      >
        {busy ? LABELS[purpose].busy : LABELS[purpose].idle}
      </Button>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
