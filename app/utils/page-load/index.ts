/**
 * How a page loads, in one place. The server renders the whole page and every form and link works
 * without JavaScript; the browser paints it before any script is fetched (the patched `<Scripts>`,
 * decision 036), then hydrates. Which of these to use for a part of a page:
 *
 * - It behaves differently once JavaScript runs (a `<details>` menu that becomes Radix's, a plain
 *   form that validates as you type): `useHydrated()`. It is false in the server's render and
 *   during hydration, true after (flipped in a transition). The root marks `<html data-hydrated>`
 *   then, which the browser tests wait for.
 * - It only shows something once a person acts (a menu, a popover, a tooltip, a toast):
 *   `usePopups()`, Radix's primitives loaded in a chunk of their own right after hydration;
 *   null until then, so the component renders its plain version. Other code of that kind:
 *   `afterHydration(load)`.
 * - A form or dialog that brings code most views do not need (conform and zod): `lazyPart(name,
 *   load)`. It is still server-rendered; entry.client.tsx loads the parts the HTML holds before
 *   hydrating (decision 015).
 * - A long part far below the first screen: `renderWhenNear(height)` (content-visibility), with
 *   the part's height estimated from its rows; never around a dialog, menu or tooltip.
 *
 * docs/architecture.md, "How a page loads", says the same with the measurements behind it.
 */
export { useHydrated } from "./hydrated";
export { afterHydration } from "./after-hydration";
export { usePopups, type Popups } from "./popups";
export { lazyPart, loadAllParts, loadServerRenderedParts } from "./lazy-part";
export { renderWhenNear, type PartHeight } from "./render-when-near";
