import { z } from "zod";
import { LATEST_SCHEMA_VERSION } from "./project-status";
import { projectName } from "./projects.schema";

/** The Settings page's 'Raise version' form (platform admins). */
export const schemaVersionFormSchema = z.object({
  schemaVersion: z.coerce
    .number({ error: "Choose a version" })
    .int("Choose a version")
    .min(2, "Choose a version")
    .max(LATEST_SCHEMA_VERSION, `The latest version is ${LATEST_SCHEMA_VERSION}`),
});

export const SCHEMA_VERSION_INTENT = "schema-version";

export const RENAME_INTENT = "project-rename";
export const TRANSFER_INTENT = "project-transfer";

export const renameProjectSchema = z.object({ name: projectName });

export const transferOwnershipSchema = z.object({
  toUserId: z.uuid({ error: "Choose the admin who becomes the owner" }),
  confirm: z
    .string({ error: "Tick this box to confirm" })
    .refine((v) => v === "on", { message: "Tick this box to confirm" }),
});

export const DELETE_PROJECT_INTENT = "project-delete";

export const deleteProjectSchema = z.object({
  confirmName: z.string({ error: "Type the project's name to delete it" }).max(4096),
});

export const REQUIRE_TWO_FACTOR_INTENT = "project-require-two-factor";

/** The owner's switch: every member needs a second factor to open the project (decision 042). */
export const requireTwoFactorSchema = z.object({
  requireTwoFactor: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
});
