import type { CSSProperties } from "react";

/** Two heights in CSS px: in a window at least 640 px wide (Tailwind's `sm`), and in a narrower one. */
export type Heights = readonly [wide: number, narrow: number];

/**
 * A part's height before it is first laid out, as the part estimates it from its data: a fixed
 * part (heading, table head, links) and `rows` rows; `rowsAtMost` caps the rows' part (a list that
 * scrolls in its own box). Measured at 1280 and 375 px; an estimate a little short is the safer
 * side (see renderWhenNear).
 */
export type PartHeight = { fixed: Heights; row: Heights; rows: number; rowsAtMost?: number };

// Each placeholder's height is computed by CSS from these properties, so the window's width (which
// the server does not know) picks the wide or the narrow figures.
const PLACEHOLDER =
  "[content-visibility:auto] [contain-intrinsic-size:auto_calc(var(--near-fixed)+min(var(--near-rows)*var(--near-row),var(--near-cap)))] max-sm:[contain-intrinsic-size:auto_calc(var(--near-fixed-narrow)+min(var(--near-rows)*var(--near-row-narrow),var(--near-cap)))]";

/**
 * For a long part of a page below the first screen: the browser skips its style, layout and
 * paint until it scrolls near (content-visibility: auto; it stays in the accessibility tree, in
 * find-in-page and in the tab order), so the first paint waits for less. Until it has been laid
 * out once ("auto" keeps the real height after) the page is laid out, and one frame painted, with
 * the part at its estimated height, so the estimate must be close: a part drawn taller than
 * estimated pushes down what is below it, and one drawn shorter near the end of the page shortens
 * the page, the scroll position is clamped and everything on screen jumps (a click aimed in that
 * frame lands on something else). Hence an estimate from the part's own rows, not one size for all.
 *
 * Never on an element that holds a dialog, menu or tooltip: the containment it implies makes the
 * element the frame of their fixed positions and clips them (the in-place dialogs, 003).
 * Returns the element's props (`className`: the element's own classes and the placeholder's).
 */
export function renderWhenNear(
  { fixed, row, rows, rowsAtMost }: PartHeight,
  className = "",
): { className: string; style: CSSProperties } {
  return {
    className: `${className} ${PLACEHOLDER}`.trim(),
    style: {
      "--near-fixed": `${fixed[0]}px`,
      "--near-fixed-narrow": `${fixed[1]}px`,
      "--near-row": `${row[0]}px`,
      "--near-row-narrow": `${row[1]}px`,
      "--near-rows": String(rows),
      "--near-cap": rowsAtMost === undefined ? "100000px" : `${rowsAtMost}px`,
    } as CSSProperties,
  };
}
