import { z } from "zod";

const email = z
  .email("Enter a valid email")
  .max(254, "Email is too long")
  .transform((value) => value.toLowerCase());

// _id, studioId or the content provider's project id: all short text.
const projectRef = z
  .string({ error: "projectId is required" })
  .trim()
  .min(1, "projectId is required")
  .max(100, "projectId is too long");

/** POST /api/app/project-invite {projectId, email} and the Resend Invitation form. */
export const projectInviteSchema = z.object({ projectId: projectRef, email });
export type ProjectInviteInput = z.infer<typeof projectInviteSchema>;

/** 'Take me to Studio', Theme Preview and Dev Console (the launch forms). */
export const studioLaunchSchema = z.object({
  studioId: projectRef,
  target: z
    .enum(["studio", "theme-preview", "dev-console"], { error: "Unknown launch target" })
    .default("studio"),
});

/**
 * The recap splash's form: the checkbox is present only when ticked. An enum, not a union of
 * literals: conform's constraint for an optional union says `required`, which would make the
 * checkbox compulsory before JavaScript loads.
 */
export const splashSchema = z.object({
  hideSplash: z
    .enum(["on", "true"])
    .optional()
    .transform((value) => value !== undefined),
});

/** How long a launch token lives: short, as it opens the studio to whoever holds it. */
export const LAUNCH_TOKEN_TTL_SECONDS = 120;
