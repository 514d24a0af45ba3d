import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "./env.server";

/**
 * The honeypot of the public forms (signup, request access, forgot password; decision 012): a
 * field people never see, and the time the form was rendered, signed with an HMAC. Every instance
 * derives the same key from SESSION_SECRET, so a form rendered by one is accepted by another.
 * remix-utils renders the fields (`<HoneypotInputs />`); the signing and checking are ours, on
 * node:crypto, so the server needs no cipher package.
 */
const NAME_FIELD = "name__confirm";
const VALID_FROM_FIELD = "from__confirm";

/** What remix-utils' `<HoneypotProvider>` takes: the field names and the signed render time. */
export type HoneypotInputProps = {
  nameFieldName: string;
  validFromFieldName: string;
  encryptedValidFrom: string;
};

function signature(timestamp: string): Buffer {
  return createHmac("sha256", `stackshift-honeypot:${env().SESSION_SECRET}`)
    .update(timestamp)
    .digest();
}

/** `<milliseconds>.<HMAC-SHA256 in base64url>`: readable, but only the server can make one. */
function sign(timestamp: number): string {
  const text = String(timestamp);
  return `${text}.${signature(text).toString("base64url")}`;
}

/** The render time of a signed value, or null when the value is not one the server made. */
function verifiedTime(value: string): number | null {
  const match = /^(\d{1,15})\.([\w-]{43})$/.exec(value);
  if (!match) return null;
  const expected = signature(match[1]);
  const given = Buffer.from(match[2], "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const time = Number(match[1]);
  return time > 0 && Number.isSafeInteger(time) ? time : null;
}

/** For remix-utils' `<HoneypotProvider>`: the page's loader returns them, its form renders `<HoneypotInputs />`. */
export function honeypotInputProps(now = Date.now()): HoneypotInputProps {
  return {
    nameFieldName: NAME_FIELD,
    validFromFieldName: VALID_FROM_FIELD,
    encryptedValidFrom: sign(now),
  };
}

/**
 * True when a robot filled the form: the hidden field is missing or not empty, or the render time
 * is missing, forged or in the future. The actions then answer as if it had worked and do nothing.
 * A post without either of the honeypot's fields (an HTTP client, not our form) is not checked
 * here: the rate limits are what stop those.
 */
export function isSpam(formData: FormData): boolean {
  if (!formData.has(NAME_FIELD) && !formData.has(VALID_FROM_FIELD)) return false;
  if (formData.get(NAME_FIELD) !== "") return true;
  const validFrom = formData.get(VALID_FROM_FIELD);
  if (typeof validFrom !== "string") return true;
  const time = verifiedTime(validFrom);
  return time === null || time > Date.now();
}
