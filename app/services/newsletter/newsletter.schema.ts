import { z } from "zod";
import { isHexColour, NEWSLETTER_DEFAULTS } from "./newsletter-rules";

export * from "./newsletter-rules";

const text = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => v ?? "");

const email = (label: string) =>
  text(label, 320).refine((v) => !v || z.email().safeParse(v).success, {
    message: `${label} must be a valid e-mail address`,
  });

const webAddress = (label: string) =>
  text(label, 500).refine((v) => !v || (/^https?:\/\/\S+$/i.test(v) && URL.canParse(v)), {
    message: `${label} must be a web address starting with http:// or https://`,
  });

/** Logo uploads: the image types mail clients show, and a size mails can carry. */
export const LOGO_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export const LOGO_MAX_BYTES = 512 * 1024;

/** The settings form (and the JSON the API takes): every field optional but the colour's shape. */
export const newsletterSettingsSchema = z.object({
  fromName: text("Sender name", 100).transform((v) => v || NEWSLETTER_DEFAULTS.fromName),
  fromEmail: email("From e-mail"),
  replyToEmail: email("Reply-to e-mail"),
  companyName: text("Company name", 200),
  companyAddress: text("Company address", 500),
  companyWebsite: webAddress("Company website"),
  footerText: text("Footer text", 2000),
  enableUnsubscribeLink: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
  brandColor: text("Brand colour", 7)
    .transform((v) => v || NEWSLETTER_DEFAULTS.brandColor)
    .refine(isHexColour, { message: "Brand colour must be a colour like #296EFF" }),
  facebook: webAddress("Facebook"),
  twitter: webAddress("Twitter"),
  instagram: webAddress("Instagram"),
  linkedin: webAddress("LinkedIn"),
  logo: z
    .instanceof(File)
    .optional()
    .refine((f) => !f || (LOGO_TYPES as readonly string[]).includes(f.type), {
      message: "The logo must be a PNG, JPEG, GIF or WebP image",
    })
    .refine((f) => !f || f.size <= LOGO_MAX_BYTES, {
      message: "The logo must be at most 512 KB",
    }),
  removeLogo: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
});
export type NewsletterSettingsInput = z.output<typeof newsletterSettingsSchema>;

export const domainIdSchema = z.object({
  domainId: z.uuid({ error: "Domain ID required" }),
});
