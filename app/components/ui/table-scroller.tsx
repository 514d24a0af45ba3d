import type { ReactNode } from "react";

/**
 * A wide table's own horizontal scroller, so a narrow window (or 400 % zoom) scrolls the table,
 * never the page. Focusable and named, so a keyboard can scroll it (axe's
 * scrollable-region-focusable); `relative`, so the screen-reader-only labels inside it are
 * clipped with it instead of widening the page.
 */
export function TableScroller({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="relative overflow-x-auto">
      {children}
    </div>
  );
}
