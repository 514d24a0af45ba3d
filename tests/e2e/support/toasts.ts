import type { Page } from "@playwright/test";

/**
 * A toast by its title: a Radix toast (status, or alert for a failure) once JavaScript runs, the
 * flashed status box without it. Hidden ones count: an open modal dialog hides the rest of the
 * page from the accessibility tree, toasts included, while they are still shown.
 */
export const toast = (page: Page, title: string) =>
  page
    .getByRole("status", { includeHidden: true })
    .or(page.getByRole("alert", { includeHidden: true }))
    .filter({ hasText: title })
    .first();
