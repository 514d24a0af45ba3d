import { z } from "zod";

export const nameSchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(100, "Name must be at most 100 characters"),
});

export const emailChangeSchema = z.object({
  email: z
    .string({ error: "E-mail is required" })
    .trim()
    .max(320)
    .pipe(z.email("Enter a valid e-mail address")),
  /** Absent for an account without a password (a fresh single sign-on stands in). */
  currentPassword: z.string().max(200).optional(),
});

/** Deleting the account: the password, or (no password) the address typed + fresh sign-on. */
export const deleteAccountSchema = z.object({
  currentPassword: z.string().max(200).optional(),
  typedEmail: z.string().max(320).optional(),
});

export const passwordChangeSchema = z
  .object({
    currentPassword: z
      .string({ error: "Enter your current password" })
      .min(1, "Enter your current password")
      .max(200),
    newPassword: z
      .string({ error: "Choose a new password" })
      .min(8, "Password must be at least 8 characters")
      .max(200, "At most 200 characters"),
    confirmPassword: z.string({ error: "Repeat the new password" }).max(200),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: "The passwords do not match",
    path: ["confirmPassword"],
  });

export const splashSchema = z.object({
  hideStudioSplash: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
});

export const sessionHandleSchema = z.object({ session: z.string().regex(/^[0-9a-f]{24}$/) });

export const USER_SETTINGS_MESSAGES = {
  nameSaved: "Name saved",
  emailSent: "Confirmation link sent",
  ssoLinked: "Single sign-on linked",
  emailChanged: "E-mail address changed",
  passwordChanged: "Password changed",
  sessionEnded: "Session signed out",
  othersEnded: "Signed out everywhere else",
  preferencesSaved: "Preferences saved",
  deleteRefused: "Your account cannot be deleted yet",
} as const;
