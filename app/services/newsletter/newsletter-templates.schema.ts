/**
 * The newsletter's saved e-mail templates (the specification's `savedTemplates`, decision 045):
 * the limits, the words, the inputs of the page's forms and of the JSON API, and the API's
 * answers. One file, shared by the forms, the actions, the API routes and the OpenAPI document.
 */
import { z } from "zod";

export const TEMPLATE_NAME_MAX = 80;
export const TEMPLATE_SUBJECT_MAX = 200;
/** A newsletter's HTML with inline styles is 20-60 KB; 100 KB leaves room, and no more. */
export const TEMPLATE_BODY_MAX_BYTES = 100 * 1024;
/**
 * Templates one project keeps: a busy team saves a dozen or two (the weekly issue, the monthly
 * digest, an event invitation, a few seasonal offers); someone using the table as free storage
 * needs thousands. 50 (at most 5 MB of bodies) serves the first and stops the second.
 */
export const MAX_SAVED_TEMPLATES = 50;

export const TEMPLATE_MESSAGES = {
  nameRequired: "Name is required",
  nameTooLong: `Name must be at most ${TEMPLATE_NAME_MAX} characters`,
  subjectTooLong: `Subject must be at most ${TEMPLATE_SUBJECT_MAX} characters`,
  bodyRequired: "Body is required",
  bodyTooLarge: "Body must be at most 100 KB",
  nameTaken: "A template with this name already exists",
  limit: `A project can keep at most ${MAX_SAVED_TEMPLATES} templates. Delete one to save another.`,
  notFound: "Template not found",
  saved: "Template saved",
  renamed: "Template renamed",
  deleted: "Template deleted",
  deleteFailed: "Error deleting template",
} as const;

const utf8Bytes = (value: string) => new TextEncoder().encode(value).length;

const name = z
  .string({ error: TEMPLATE_MESSAGES.nameRequired })
  .trim()
  .min(1, TEMPLATE_MESSAGES.nameRequired)
  .max(TEMPLATE_NAME_MAX, TEMPLATE_MESSAGES.nameTooLong);

const subject = z
  .string()
  .trim()
  .max(TEMPLATE_SUBJECT_MAX, TEMPLATE_MESSAGES.subjectTooLong)
  .optional()
  .transform((v) => v ?? "");

// Characters first (the browser's maxlength), then the bytes the limit is about.
const body = z
  .string({ error: TEMPLATE_MESSAGES.bodyRequired })
  .min(1, TEMPLATE_MESSAGES.bodyRequired)
  .max(TEMPLATE_BODY_MAX_BYTES, TEMPLATE_MESSAGES.bodyTooLarge)
  .refine((v) => v.trim().length > 0, TEMPLATE_MESSAGES.bodyRequired)
  .refine((v) => utf8Bytes(v) <= TEMPLATE_BODY_MAX_BYTES, TEMPLATE_MESSAGES.bodyTooLarge);

/** 'Save template' on the newsletter page. */
export const saveTemplateSchema = z.object({ name, subject, body });
export type SaveTemplateInput = z.output<typeof saveTemplateSchema>;

/** 'Rename' on the newsletter page. */
export const renameTemplateSchema = z.object({
  templateId: z.uuid({ error: TEMPLATE_MESSAGES.notFound }),
  name,
});

/** 'Delete' on the newsletter page. */
export const deleteTemplateSchema = z.object({
  templateId: z.uuid({ error: TEMPLATE_MESSAGES.notFound }),
});

const studioId = z
  .string({ error: "studioId is required" })
  .trim()
  .min(1, "studioId is required")
  .max(100);

/** GET /api/app/newsletter?studioId= */
export const newsletterQuerySchema = z.object({ studioId });
/** POST /api/app/newsletter/templates */
export const saveTemplateApiSchema = saveTemplateSchema.extend({ studioId });
/** PATCH /api/app/newsletter/templates/{templateId} */
export const renameTemplateApiSchema = z.object({ name });

/** The JSON API's body of a template: SavedTemplate. */
export const savedTemplateBody = z.object({
  id: z.string(),
  name: z.string(),
  subject: z.string(),
  body: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** GET /api/app/newsletter: the Newsletter settings by the specification's names. */
export const newsletterSettingsBody = z.object({
  fromName: z.string(),
  fromEmail: z.string(),
  replyToEmail: z.string(),
  companyName: z.string(),
  companyAddress: z.string(),
  companyWebsite: z.string(),
  footerText: z.string(),
  enableUnsubscribeLink: z.boolean(),
  brandColor: z.string(),
  /** The uploaded logo's address, or null. */
  logo: z.string().nullable(),
  socialLinks: z.object({
    facebook: z.string(),
    twitter: z.string(),
    instagram: z.string(),
    linkedin: z.string(),
  }),
  savedTemplates: z.array(savedTemplateBody),
});
