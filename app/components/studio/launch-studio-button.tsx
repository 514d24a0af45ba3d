import { useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { raiseToast } from "~/components/ui/toaster";
import { useHydrated } from "~/utils/page-load";

/** Where the form posts: app/routes/resources.studio-launch.ts. */
export const STUDIO_LAUNCH_ACTION = "/resources/studio-launch";

/** Launch messages stay 7 s, longer than other toasts. */
const LAUNCH_TOAST_MS = 7000;

/**
 * 'Take me to Studio'. Without JavaScript it is a form that opens a new window (target=_blank)
 * on the launch action, which redirects that window to the autologin page. With JavaScript the
 * window is opened during the click (so pop-up blockers allow it), pointed at the launch address
 * once the server hands it out, and a toast tells what happened: the page's own (the root's
 * Toaster), so a page has one notifications region however many launch buttons it shows.
 */
export function LaunchStudioButton({
  studioId,
  target = "studio",
  label = "Take me to Studio",
  variant,
  className = "",
}: {
  studioId: string;
  /** The studio, or one of its tools (Theme Preview, Dev Console). */
  target?: "studio" | "theme-preview" | "dev-console";
  label?: string;
  variant?: "primary" | "secondary";
  className?: string;
}) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);

  const show = (ok: boolean, title: string, description?: string) =>
    raiseToast({ type: ok ? "success" : "error", title, description, duration: LAUNCH_TOAST_MS });
  const failed = (description?: string) =>
    show(
      false,
      "Experience has encountered an error!",
      description ?? "Please try again. If it keeps happening, report it to support.",
    );

  async function launch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const win = window.open("", "_blank");
    if (!win) return failed("Your browser blocked the new window. Allow pop-ups and try again.");
    try {
      // Only our own page goes there, but the studio needs no handle on the dashboard.
      win.opener = null;
      win.document.title = "Opening StackShift Studio...";
      win.document.body.textContent = "Opening StackShift Studio...";
    } catch {
      // A browser that refuses these still navigates the window below.
    }
    setBusy(true);
    try {
      const response = await fetch(STUDIO_LAUNCH_ACTION, {
        method: "POST",
        headers: { Accept: "application/json" },
        body: new URLSearchParams({ studioId, target }),
      });
      const body = (await response.json().catch(() => null)) as {
        url?: unknown;
        error?: unknown;
      } | null;
      if (!response.ok || typeof body?.url !== "string") {
        win.close();
        return failed(typeof body?.error === "string" ? body.error : undefined);
      }
      win.location.href = body.url;
      show(true, "Experience launched in a new window!");
    } catch {
      win.close();
      failed();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      method="post"
      action={STUDIO_LAUNCH_ACTION}
      target="_blank"
      onSubmit={hydrated ? launch : undefined}
    >
      <input type="hidden" name="studioId" value={studioId} />
      {target === "studio" ? null : <input type="hidden" name="target" value={target} />}
      <Button type="submit" disabled={busy} variant={variant} className={className}>
        {label}
        <span className="sr-only"> (opens in a new window)</span>
      </Button>
    </form>
  );
}
