import * as RadixDialog from "@radix-ui/react-dialog";
import { Link } from "@remix-run/react";
import type { SheetProps } from "./sheet";
import { useHydrated } from "~/utils/page-load";

/** The open drawer (sheet.tsx): a Radix Dialog sliding in from the right. */
export function SheetFrame({ overlay, title, children, className = "" }: SheetProps) {
  const hydrated = useHydrated();
  const closeClass =
    "inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800";
  return (
    <RadixDialog.Root open={overlay.open} onOpenChange={overlay.setOpen}>
      {overlay.open ? (
        <div className={className}>
          <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
          <RadixDialog.Content className="fixed inset-y-0 right-0 z-50 flex w-full max-w-sm flex-col overflow-y-auto bg-white p-5 shadow-xl dark:bg-slate-900">
            <div className="flex items-center justify-between gap-4">
              <RadixDialog.Title className="text-lg font-semibold">{title}</RadixDialog.Title>
              {hydrated ? (
                <RadixDialog.Close className={closeClass} aria-label="Close">
                  <CloseIcon />
                </RadixDialog.Close>
              ) : (
                <Link
                  to={overlay.closeHref}
                  replace
                  preventScrollReset
                  className={closeClass}
                  aria-label="Close"
                >
                  <CloseIcon />
                </Link>
              )}
            </div>
            <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
            <div className="mt-4 flex-1">{children}</div>
          </RadixDialog.Content>
        </div>
      ) : null}
    </RadixDialog.Root>
  );
}

function CloseIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" aria-hidden>
      <path strokeWidth="2" strokeLinecap="round" d="M6 6l12 12M18 6 6 18" />
    </svg>
  );
}
