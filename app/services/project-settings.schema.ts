import { z } from "zod";
import { LATEST_SCHEMA_VERSION } from "./project-status";

/** The Settings page's 'Raise version' form (platform admins). */
export const schemaVersionFormSchema = z.object({
  schemaVersion: z.coerce
    .number({ error: "Choose a version" })
    .int("Choose a version")
    .min(2, "Choose a version")
    .max(LATEST_SCHEMA_VERSION, `The latest version is ${LATEST_SCHEMA_VERSION}`),
});

export const SCHEMA_VERSION_INTENT = "schema-version";
