import type { ReactNode } from "react";
import { lazyPart } from "~/utils/page-load";
import type { UrlOverlay } from "./use-url-overlay";

export type SheetProps = {
  overlay: UrlOverlay;
  title: string;
  children: ReactNode;
  className?: string;
};

/** Radix's dialog loads when the drawer first opens, as the dialogs' does (ui/dialog.tsx). */
const LazySheetFrame = lazyPart("sheet", () => import("./sheet-frame").then((m) => m.SheetFrame));

/**
 * A side drawer: a Radix Dialog (role dialog, focus trap, Escape) sliding in from the right.
 * Rendered in place, not in a portal, so the server renders it open when the URL asks for it;
 * without JavaScript its close control is a link that drops the URL param. Nothing while closed.
 */
export function Sheet(props: SheetProps) {
  return props.overlay.open ? <LazySheetFrame {...props} /> : null;
}
