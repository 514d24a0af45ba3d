import { Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { SUPPORT_EMAIL } from "~/components/route-error";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import {
  INVALID_STATE_MESSAGE,
  OAUTH_CLOSE_SECONDS,
  OAUTH_FAILED,
  OAUTH_MAX_ATTEMPTS,
  OAUTH_TEXTS,
  type OAuthVendor,
} from "~/services/integrations";

type Status = "authorizing" | "linked" | "conflict" | "refused" | "denied" | "failed";
type Attempt = Exclude<Status, "authorizing" | "denied"> | "retry";

/**
 * One exchange through the JSON API (the same calls API clients make), read by status: 409 is
 * already linked, 400/401 a state or session that is not valid, 429 and 5xx but 502 (a refusal
 * by the vendor) are worth another attempt, and so is no answer at all.
 */
async function exchange(
  vendor: OAuthVendor,
  studioId: string,
  code: string,
  state: string,
): Promise<Attempt> {
  const [url, body] =
    vendor === "instagram"
      ? [
          "/api/app/integrations/social-accounts",
          {
            action: "exchange_token",
            integration: { platform: "instagram" },
            pageBuilderId: studioId,
            authorizationCode: code,
            state,
          },
        ]
      : [
          "/api/app/integrations/payments",
          {
            action: "connect-account",
            integration: { id: "payments" },
            studio: { pagebuilderId: studioId },
            authorizationCode: code,
            state,
          },
        ];
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    if (response.ok) return "linked";
    if (response.status === 409) return "conflict";
    if (response.status === 400 || response.status === 401) return "refused";
    if (response.status === 502) return "failed";
    if (response.status === 429 || response.status >= 500) return "retry";
    return "failed";
  } catch {
    return "retry";
  }
}

/** Tells the dashboard window that opened this one; only a window of our own origin hears it. */
function notifyOpener(message: string) {
  try {
    if (window.opener && !window.opener.closed) {
      (window.opener as Window).postMessage(message, window.location.origin);
    }
  } catch {
    // An opener of another origin: nothing to tell it.
  }
}

/** 'This window closes in N seconds', then it closes (if a script opened it, else it stays). */
function Countdown({ back }: { back: string | null }) {
  const [left, setLeft] = useState(OAUTH_CLOSE_SECONDS);
  useEffect(() => {
    if (left <= 0) {
      window.close();
      return;
    }
    const timer = window.setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);
  return (
    <p className="text-sm text-slate-600 dark:text-slate-300">
      {left > 0
        ? `This window closes in ${left} second${left === 1 ? "" : "s"}.`
        : "You can close this window."}
      {back ? (
        <>
          {" "}
          <Link to={back} className="text-brand underline">
            Back to the project
          </Link>
        </>
      ) : null}
    </p>
  );
}

/**
 * The return page of an authorization round trip (Instagram, Stripe Connect). It exchanges the
 * code once hydrated, trying again while the vendor cannot be reached, up to ten attempts;
 * success posts the vendor's message to the opener and closes the window after ten seconds.
 * Without scripts, 'Continue' completes the link on the server and goes back to the project.
 */
export function OAuthReturn({
  vendor,
  outcome,
  studioId,
  code,
  state,
}: {
  vendor: OAuthVendor;
  outcome: "authorizing" | "refused" | "denied";
  studioId: string | null;
  code: string | null;
  state: string | null;
}) {
  const texts = OAUTH_TEXTS[vendor];
  const [status, setStatus] = useState<Status>(outcome);
  const [attempt, setAttempt] = useState(0);
  const started = useRef(false);

  useEffect(() => {
    // Once per page: a state is claimed by the first exchange (StrictMode runs effects twice).
    if (started.current || outcome !== "authorizing" || !studioId || !code || !state) return;
    started.current = true;
    void (async () => {
      for (let n = 1; n <= OAUTH_MAX_ATTEMPTS; n += 1) {
        setAttempt(n);
        const result = await exchange(vendor, studioId, code, state);
        if (result !== "retry") {
          if (result === "linked") notifyOpener(texts.openerMessage);
          setStatus(result);
          return;
        }
        if (n < OAUTH_MAX_ATTEMPTS) {
          // 0.4 s, 0.8 s, ... at most 2 s apart: about 14 s for the ten attempts.
          await new Promise((resolve) => window.setTimeout(resolve, Math.min(400 * n, 2000)));
        }
      }
      setStatus("failed");
    })();
  }, [vendor, outcome, studioId, code, state, texts.openerMessage]);

  const back = studioId ? texts.back(studioId) : null;
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center gap-4 px-4 py-12 text-center">
      <p className="text-sm font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
        {texts.vendor}
      </p>
      <div role="status" aria-live="polite" className="space-y-3">
        {status === "authorizing" ? (
          <>
            <Spinner className="h-8 w-8" label="Working" />
            <h1 className="text-xl font-semibold">{texts.authorizing}</h1>
            {attempt > 1 ? (
              <p className="text-sm text-slate-600 dark:text-slate-300">
                {texts.vendor} did not answer; trying again (attempt {attempt} of{" "}
                {OAUTH_MAX_ATTEMPTS}).
              </p>
            ) : null}
            <noscript>
              <form method="post" className="mt-4">
                <input type="hidden" name="code" value={code ?? ""} />
                <input type="hidden" name="state" value={state ?? ""} />
                <Button type="submit">Continue</Button>
              </form>
            </noscript>
          </>
        ) : status === "linked" ? (
          <>
            <h1 className="text-xl font-semibold">{texts.success}</h1>
            <Countdown back={back} />
          </>
        ) : status === "conflict" ? (
          <>
            <h1 className="text-xl font-semibold">{texts.conflict}</h1>
            <Countdown back={back} />
          </>
        ) : status === "denied" ? (
          <>
            <h1 className="text-xl font-semibold">{texts.vendor} authorization was cancelled.</h1>
            <Countdown back={back} />
          </>
        ) : status === "refused" ? (
          <>
            <h1 className="text-xl font-semibold">{INVALID_STATE_MESSAGE}</h1>
            <p className="text-sm">
              <Link to="/sites" className="text-brand underline">
                Go to your projects
              </Link>
            </p>
          </>
        ) : (
          <>
            <h1 className="text-xl font-semibold">{OAUTH_FAILED}</h1>
            <p className="text-sm text-slate-600 dark:text-slate-300">
              Refresh this page to try again. If it keeps failing, report it to support at{" "}
              <a className="text-brand underline" href={`mailto:${SUPPORT_EMAIL}`}>
                {SUPPORT_EMAIL}
              </a>
              .
            </p>
          </>
        )}
      </div>
    </main>
  );
}
