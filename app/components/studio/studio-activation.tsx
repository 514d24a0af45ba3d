import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { pageWithoutDialog } from "~/components/shell/shell-helpers";
import { useUrlOverlay } from "~/components/shell/use-url-overlay";
import { Button, buttonClass } from "~/components/ui/button";
import { Dialog } from "~/components/ui/dialog";
import { useHydrated } from "~/utils/page-load";
import { LaunchStudioButton } from "./launch-studio-button";

/** Where the confirmation posts: app/routes/resources.studio-invite.ts. */
export const STUDIO_INVITE_ACTION = "/resources/studio-invite";
/** `?dialog=resend-studio-invite` opens the confirmation, also without JavaScript. */
export const RESEND_DIALOG = "resend-studio-invite";

/**
 * Studio activation: until the user accepted the content provider's
 * invitation, a note to check the inbox and 'Resend Invitation' behind a confirmation; after,
 * 'Take me to Studio'.
 */
export function StudioActivation({
  project,
  accepted,
  userEmail,
}: {
  project: { studioId: string; name: string };
  accepted: boolean;
  userEmail: string;
}) {
  if (accepted) return <LaunchStudioButton studioId={project.studioId} />;
  return <ActivationNote project={project} userEmail={userEmail} />;
}

function ActivationNote({
  project,
  userEmail,
}: {
  project: { studioId: string; name: string };
  userEmail: string;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  const dialog = useUrlOverlay("dialog", RESEND_DIALOG);
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";

  // The action redirects back with a toast; once that lands, close the confirmation.
  const wasBusy = useRef(false);
  const { open, setOpen } = dialog;
  useEffect(() => {
    if (busy) wasBusy.current = true;
    else if (wasBusy.current) {
      wasBusy.current = false;
      if (open) setOpen(false);
    }
  }, [busy, open, setOpen]);

  return (
    <div
      role="note"
      aria-labelledby="studio-activation-title"
      className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-700 dark:bg-amber-950"
    >
      <p id="studio-activation-title" className="font-semibold">
        Activate your studio
      </p>
      <p className="mt-1 text-slate-700 dark:text-slate-200">
        Check your inbox ({userEmail}) for an email from our content provider, Sanity, and accept
        the invitation to start editing {project.name}.
      </p>
      <Link
        to={dialog.openHref}
        preventScrollReset
        className={buttonClass("secondary", "mt-3")}
        onClick={(event) => {
          if (!hydrated) return;
          event.preventDefault();
          dialog.setOpen(true);
        }}
      >
        Resend Invitation
      </Link>
      <Dialog
        open={dialog.open}
        onOpenChange={(next) => dialog.setOpen(next)}
        role="alertdialog"
        title="Resend Invitation?"
        description={`Sanity will email the invitation to ${userEmail} again.`}
      >
        <fetcher.Form
          method="post"
          action={STUDIO_INVITE_ACTION}
          className="flex justify-end gap-3"
        >
          <input type="hidden" name="projectId" value={project.studioId} />
          <input type="hidden" name="email" value={userEmail} />
          <input type="hidden" name="redirectTo" value={pageWithoutDialog(location)} />
          <Link
            to={dialog.closeHref}
            replace
            preventScrollReset
            className={buttonClass("secondary")}
            onClick={(event) => {
              if (!hydrated) return;
              event.preventDefault();
              dialog.setOpen(false);
            }}
          >
            Cancel
          </Link>
          <Button type="submit" disabled={busy}>
            {busy ? "Resending..." : "Yes, resend"}
          </Button>
        </fetcher.Form>
      </Dialog>
    </div>
  );
}
