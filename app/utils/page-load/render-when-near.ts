/**
 * For a long part of a page below the first screen: the browser skips its style, layout and
 * paint until it scrolls near (content-visibility: auto; it stays in the accessibility tree, in
 * find-in-page and in the tab order), so the first paint waits for less. Its height is a
 * placeholder's until it has been laid out once ("auto" keeps the real one after).
 *
 * Never on an element that holds a dialog, menu or tooltip: the containment it implies makes the
 * element the frame of their fixed positions and clips them (the in-place dialogs, 003).
 */
export const RENDER_WHEN_NEAR = "[content-visibility:auto] [contain-intrinsic-size:auto_600px]";
