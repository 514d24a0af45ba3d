import { z } from "zod";

export const FORM_MESSAGES = {
  settingsSaved: "Form settings saved",
  settingsFailed: "Failed to save form settings",
  deleted: "Submission deleted",
  deleteFailed: "Failed to delete submission",
  allDeleted: "All submissions deleted",
  disabled: "This form is not accepting submissions.",
  tooLarge: "The form is too large: at most 64 KB.",
  foreignOrigin: "This site may not post to this form.",
  thanks: "Thank you! Your message has been sent.",
  linkResent: "Confirmation link sent",
} as const;

/** The name of the hidden field robots fill and people do not (the site's forms render it). */
export const HONEYPOT_FIELD = "_gotcha";
/** The most a submission may carry, whatever its encoding. */
export const MAX_SUBMISSION_BYTES = 64 * 1024;
/**
 * The most field names a form keeps (a real form has 5-30): a submission's field under any other
 * name is kept in its OTHER_FIELD, so no one can grow a form's columns (and its export) without
 * end. Decision 030.
 */
export const MAX_FIELD_NAMES = 100;
/**
 * The field holding a submission's fields beyond the form's MAX_FIELD_NAMES: one `name: value`
 * line each, in the order posted, a value's own line breaks followed by two spaces (like a mail
 * header). Its name starts with `_`, which posted fields never do (those are instructions), so it
 * meets no real field.
 */
export const OTHER_FIELD = "_other";
/** Submissions per page of the table. */
export const SUBMISSIONS_PAGE = 25;

const emails = z
  .string()
  .max(2000, "At most 2000 characters")
  .optional()
  .transform((v) =>
    (v ?? "")
      .split(/[\s,;]+/)
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  )
  .refine((list) => list.length <= 10, { message: "At most 10 addresses" })
  .refine((list) => list.every((e) => z.email().safeParse(e).success), {
    message: "Each address must be a valid e-mail address (separate them with commas)",
  });

/** The form's settings: on/off, who is mailed, where plain posts go afterwards. */
export const formSettingsSchema = z.object({
  formId: z.uuid({ error: "Unknown form" }),
  enabled: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
  notificationEmails: emails,
  redirectUrl: z
    .string()
    .trim()
    .max(2000)
    .optional()
    .transform((v) => v || null)
    .refine((v) => !v || (/^https?:\/\/\S+$/i.test(v) && URL.canParse(v)), {
      message: "The address after submitting must start with http:// or https://",
    }),
});
export type FormSettingsInput = z.output<typeof formSettingsSchema>;

export const deleteSubmissionSchema = z.object({
  formId: z.uuid({ error: "Unknown form" }),
  submissionId: z.uuid({ error: "Unknown submission" }),
});

/** Resend: a waiting notification address of the form. */
export const resendConfirmationSchema = z.object({
  formId: z.uuid({ error: "Unknown form" }),
  email: z.string().trim().toLowerCase().max(320),
});

export const deleteAllSchema = z.object({ formId: z.uuid({ error: "Unknown form" }) });

/** POST /api/app/forms/settings. */
export const formSettingsApiSchema = z.object({
  formId: z.uuid({ error: "formId must be a form's id" }),
  enabled: z.boolean().optional(),
  notificationEmails: z.array(z.string().max(320)).max(10).optional(),
  redirectUrl: z.string().max(2000).nullable().optional(),
});

/** POST /api/app/forms/submissions/delete/{id} and /deleteAll/{id}: {formId, data}. */
export const submissionsDeleteApiSchema = z.object({
  formId: z.uuid({ error: "formId must be a form's id" }),
  data: z.unknown().optional(),
});
