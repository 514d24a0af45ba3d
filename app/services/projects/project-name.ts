/**
 * Project name rules (a sanitizer runs on input; what it does is ours to choose):
 *   1. Unicode NFC normalisation, so the same visible name is stored the same way.
 *   2. Line breaks, tabs and other whitespace become a plain space.
 *   3. Control characters (Cc), invisible format characters (Cf: zero-width spaces and joiners,
 *      bidi overrides, BOM), lone surrogates and private-use characters are removed: they make
 *      names that look identical but differ, or reorder text on screen.
 *   4. Runs of spaces collapse to one, and the ends are trimmed.
 *   5. The result is required, at most 64 characters (Unicode code points), and must contain at
 *      least one letter or digit in any script (projects.schema.ts checks 5).
 * HTML is not stripped: names are always rendered as escaped text.
 *
 * No zod here: every list's search text uses this clean-up (app/web/list-query.ts), and a page
 * that builds no schema should not build the projects' at load.
 */
export const PROJECT_NAME_MAX = 64;

const BREAKS = /[\s\u2028\u2029]/gu;
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}]/gu;

/** While typing: the same clean-up, but a trailing space is kept so words can still be typed. */
export function sanitizeProjectNameInput(raw: string): string {
  const cleaned = raw
    .normalize("NFC")
    .replace(BREAKS, " ")
    .replace(INVISIBLE, "")
    .replace(/ {2,}/g, " ")
    .replace(/^ /, "");
  return Array.from(cleaned).slice(0, PROJECT_NAME_MAX).join("");
}

/** The stored form of a name (rules 1-4 above; length and content are checked by the schema). */
export function sanitizeProjectName(raw: string): string {
  return raw
    .normalize("NFC")
    .replace(BREAKS, " ")
    .replace(INVISIBLE, "")
    .replace(/ {2,}/g, " ")
    .trim();
}
