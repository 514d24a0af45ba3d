import { afterHydration } from "./after-hydration";
import type * as PopupsModule from "./popups-chunk";

/**
 * Radix's menu, popover, toast and tooltip once the page is hydrated and they are loaded; null
 * before (the server's render, hydration, and the moment after while the chunk loads).
 */
export const usePopups = afterHydration(() => import("./popups-chunk"));

export type Popups = typeof PopupsModule;
