import * as RadixDialog from "@radix-ui/react-dialog";
import { useId } from "react";
import type { DialogProps } from "./dialog";

/**
 * A modal dialog (Radix: role dialog, focus trap, Escape to close). Rendered in place rather than
 * in a portal so the server renders it too: dialogs are URL-addressable and open without
 * JavaScript (docs/decisions/003-dialogs-without-javascript.md).
 */
export function DialogFrame({
  open,
  onOpenChange,
  title,
  description,
  children,
  width = "max-w-lg",
  role = "dialog",
}: DialogProps) {
  // Our own ids, so the server-rendered dialog is labelled before Radix hydrates.
  const id = useId();
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {open ? (
        <>
          <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
          <RadixDialog.Content
            role={role}
            aria-labelledby={`${id}-title`}
            aria-describedby={`${id}-description`}
            className={`fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] ${width} -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl dark:bg-slate-900`}
          >
            <RadixDialog.Title id={`${id}-title`} className="text-lg font-semibold">
              {title}
            </RadixDialog.Title>
            {description ? (
              <RadixDialog.Description
                id={`${id}-description`}
                className="mt-2 text-sm text-slate-600 dark:text-slate-300"
              >
                {description}
              </RadixDialog.Description>
            ) : (
              <RadixDialog.Description id={`${id}-description`} className="sr-only">
                {title}
              </RadixDialog.Description>
            )}
            <div className="mt-4">{children}</div>
          </RadixDialog.Content>
        </>
      ) : null}
    </RadixDialog.Root>
  );
}
