import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useHydrated } from "~/utils/page-load";
import { lazyPart } from "~/utils/page-load";
import { buttonClass } from "./button";

export type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  width?: string;
  role?: "dialog" | "alertdialog";
};

/**
 * Radix's dialog (with its focus trap and scroll lock, about 10 KB gzip) loads when a dialog
 * first opens, or before hydration when the server rendered one open (lazy-part.tsx).
 */
const LazyDialogFrame = lazyPart("dialog", () =>
  import("./dialog-frame").then((m) => m.DialogFrame),
);

/**
 * A modal dialog (Radix: role dialog, focus trap, Escape to close), rendered in place rather than
 * in a portal so the server renders it too: dialogs are URL-addressable and open without
 * JavaScript (docs/decisions/003-dialogs-without-javascript.md). Nothing while closed.
 */
export function Dialog(props: DialogProps) {
  return props.open ? <LazyDialogFrame {...props} /> : null;
}

/**
 * A dialog's Cancel: a link back to the page without the dialog's address (so it works without
 * JavaScript); with JavaScript it closes the dialog in place, unless it is saving.
 */
export function DialogCancelLink({
  back,
  busy,
  onClose,
}: {
  back: string;
  busy: boolean;
  onClose: () => void;
}) {
  const hydrated = useHydrated();
  return (
    <Link
      to={back}
      replace
      preventScrollReset
      className={buttonClass("secondary")}
      onClick={(event) => {
        if (!hydrated) return;
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      Cancel
    </Link>
  );
}
