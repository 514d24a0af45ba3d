import { Button, ButtonLink } from "~/components/ui/button";
import { Dialog } from "~/components/ui/dialog";
import { useHydrated } from "~/utils/page-load";
import type { UrlOverlay } from "./use-url-overlay";

/** The user menu's 'About': a short product blurb. */
export function AboutDialog({ overlay }: { overlay: UrlOverlay }) {
  const hydrated = useHydrated();
  return (
    <Dialog open={overlay.open} onOpenChange={overlay.setOpen} title="About StackShift">
      <div className="space-y-3 text-sm text-slate-700 dark:text-slate-300">
        <p>
          StackShift is a website and experience builder. Each project pairs a content studio with a
          hosted website: create a project, invite your team, connect a domain, switch on add-ons
          and integrations, and watch every build and deployment from this dashboard.
        </p>
      </div>
      <div className="mt-6 flex justify-end">
        {hydrated ? (
          <Button variant="secondary" onClick={() => overlay.setOpen(false)}>
            Close
          </Button>
        ) : (
          <ButtonLink variant="secondary" to={overlay.closeHref} replace preventScrollReset>
            Close
          </ButtonLink>
        )}
      </div>
    </Dialog>
  );
}
