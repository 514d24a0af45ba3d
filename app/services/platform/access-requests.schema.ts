import { z } from "zod";
import { searchText } from "~/web/list-query";

/**
 * Input rules of the request-access form, shared by the action and the form's client-side
 * validation. No server imports here.
 */

export const LIMITS = {
  fullName: 100,
  companyName: 200,
  websiteAddress: 200,
  telephoneNumber: 30,
  numberOfEmployees: 50,
  additionalInfo: 2000,
} as const;

// PostgreSQL text cannot hold NUL, and other control characters have no place in these fields;
// dropping them keeps a pasted value from turning into a database error.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SINGLE_LINE = /[\u0000-\u001F\u007F]/g;

// Checks run as refinements on the cleaned value rather than through .pipe(z.string()...):
// conform's type coercion would turn a value that trims to "" into undefined inside the pipe.
function text(max: number, label: string, multiline = false) {
  return z
    .string()
    .transform((s) => s.replace(multiline ? CONTROL : SINGLE_LINE, "").trim())
    .refine((s) => s.length <= max, `${label} must be at most ${max} characters`);
}

/** An optional field: conform turns an empty input into undefined, and blank becomes undefined. */
function optional<T extends z.ZodType<string, string>>(schema: T) {
  return schema.optional().transform((v) => (v ? v : undefined));
}

export const TELEPHONE = /^\+?[0-9][0-9 ().-]*$/;
/** A bare domain or an http(s) URL: example.com, www.example.co.uk, https://example.com/about. */
export const WEBSITE =
  /^(https?:\/\/)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(:\d{1,5})?([/?#][^\s]*)?$/i;
/** A head count (25), a range (11-50) or an open range (1000+). */
export const EMPLOYEES = /^\d{1,7}(\s*[-–]\s*\d{1,7}|\+)?$/;

export const requestAccessSchema = z.object({
  fullName: z
    .string({ error: "Name is required" })
    .transform((s) => s.replace(SINGLE_LINE, "").trim())
    .refine((s) => s.length > 0, "Name is required")
    .refine(
      (s) => s.length <= LIMITS.fullName,
      `Name must be at most ${LIMITS.fullName} characters`,
    ),
  businessEmail: z
    .string({ error: "Business Email is required" })
    .trim()
    .min(1, "Business Email is required")
    .max(254, "Business Email is too long")
    .pipe(z.email("Enter a valid email address"))
    .transform((e) => e.toLowerCase()),
  telephoneNumber: optional(
    text(LIMITS.telephoneNumber, "Telephone Number").refine(
      (v) => !v || (TELEPHONE.test(v) && v.replace(/\D/g, "").length >= 6),
      "Enter a valid telephone number, such as +1 555 123 4567",
    ),
  ),
  companyName: optional(text(LIMITS.companyName, "Company")),
  numberOfEmployees: optional(
    text(LIMITS.numberOfEmployees, "Number of employees").refine(
      (v) => !v || EMPLOYEES.test(v),
      "Enter a number, such as 25, or a range, such as 11-50",
    ),
  ),
  websiteAddress: optional(
    text(LIMITS.websiteAddress, "Website").refine(
      (v) => !v || WEBSITE.test(v),
      "Enter a website address, such as example.com or https://example.com",
    ),
  ),
  additionalInfo: optional(text(LIMITS.additionalInfo, "Additional Info", true)),
});

export type RequestAccessInput = z.output<typeof requestAccessSchema>;

/** The fields in the order the form and the confirm dialog list them, with their labels. */
export const REQUEST_FIELDS = [
  { name: "fullName", label: "Name" },
  { name: "businessEmail", label: "Business Email" },
  { name: "telephoneNumber", label: "Telephone Number" },
  { name: "companyName", label: "Company" },
  { name: "numberOfEmployees", label: "Number of employees" },
  { name: "websiteAddress", label: "Website" },
  { name: "additionalInfo", label: "Additional Info" },
] as const satisfies readonly { name: keyof RequestAccessInput; label: string }[];

/** The admin page's decision buttons. */
export const decisionSchema = z.object({
  intent: z.enum(["approve", "reject"], { error: "Choose approve or reject" }),
  id: z.uuid({ error: "Unknown request" }),
});

/** The admin list's query string; anything unusable falls back to the first page, unfiltered. */
export const listQuerySchema = z.object({
  q: z.string().transform(searchText).catch(""),
  cursor: z.uuid().optional().catch(undefined),
});
