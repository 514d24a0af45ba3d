import { z } from "zod";
import { PROJECT_NAME_MAX, sanitizeProjectName } from "./project-name";
import { SITE_TYPES } from "./site-types";

export { SITE_TYPE_LABEL, SITE_TYPES, type SiteType } from "./site-types";

/**
 * Input rules of projects, shared by the actions and API routes (server) and the Create New form
 * (client). No server imports here. A name is cleaned up by project-name.ts, then checked here.
 */

export const projectName = z
  .string({ error: "Name is required" })
  .max(4096, `Name must be at most ${PROJECT_NAME_MAX} characters`)
  .transform(sanitizeProjectName)
  .pipe(
    // conform's form coercion turns the empty result into undefined here: same message.
    z
      .string({ error: "Name is required" })
      .min(1, "Name is required")
      .refine((name) => Array.from(name).length <= PROJECT_NAME_MAX, {
        message: `Name must be at most ${PROJECT_NAME_MAX} characters`,
      })
      .refine((name) => /[\p{L}\p{N}]/u.test(name), {
        message: "Name must contain a letter or a digit",
      }),
  );

export const siteType = z.enum(SITE_TYPES, { error: "Site type must be business or enterprise" });

/** Client-chosen; the same key twice yields the same project. */
export const idempotencyKey = z
  .string({ error: "idempotencyKey is required" })
  .trim()
  .min(8, "idempotencyKey must be at least 8 characters")
  .max(128, "idempotencyKey must be at most 128 characters")
  .regex(/^[A-Za-z0-9_.:-]+$/, "idempotencyKey may contain only letters, digits and _ . : -");

/** POST /api/app/create and the dialog's final step. siteType defaults to business. */
export const createProjectSchema = z.object({
  name: projectName,
  siteType: siteType.optional(),
  idempotencyKey,
});
export type CreateProjectInput = z.infer<typeof createProjectSchema>;

/** The dialog's first step (review): the key is generated once the input is known to be valid. */
export const reviewProjectSchema = z.object({
  name: projectName,
  siteType: siteType.optional(),
});

/** GET /api/app and the list pages. limit: default 20, at most 50 (larger values are clamped). */
export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 50;
export const listProjectsSchema = z.object({
  cursor: z.string().max(512, "Invalid cursor").optional(),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .transform((n) => Math.min(n, LIST_LIMIT_MAX))
    .optional(),
  query: z.string().max(200, "Search is too long").optional(),
  /** "all": every project, for platform admins (others always get their own). */
  scope: z.enum(["mine", "all"], { error: "scope must be mine or all" }).optional(),
});
