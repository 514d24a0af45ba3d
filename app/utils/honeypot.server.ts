import { createHash } from "node:crypto";
import { Honeypot, SpamError } from "remix-utils/honeypot/server";
import { env } from "./env.server";

/**
 * The honeypot of the public forms (signup, request access, forgot password; decision 012): a
 * field people never see, and the time the form was rendered, encrypted. Every instance derives
 * the same key from SESSION_SECRET, so a form rendered by one is accepted by another.
 */
let cached: Honeypot | undefined;
function honeypot() {
  cached ??= new Honeypot({
    encryptionSeed: createHash("sha256")
      .update(`stackshift-honeypot:${env().SESSION_SECRET}`)
      .digest("base64url"),
  });
  return cached;
}

/** For remix-utils' `<HoneypotProvider>`: the page's loader returns them, its form renders `<HoneypotInputs />`. */
export function honeypotInputProps() {
  return honeypot().getInputProps();
}

/**
 * True when a robot filled the form: the hidden field is not empty, or the render time is
 * missing, forged or in the future. The actions then answer as if it had worked and do nothing.
 * A post without the honeypot's fields at all (an HTTP client, not our form) is not checked here:
 * the rate limits are what stop those.
 */
export function isSpam(formData: FormData): boolean {
  try {
    honeypot().check(formData);
    return false;
  } catch (error) {
    if (error instanceof SpamError) return true;
    // A forged render time can decrypt to bytes that are not UTF-8: crypto-js then throws a
    // plain Error ("Malformed UTF-8 data") before remix-utils can call it spam. Only a forged
    // field gets there, so it is spam too (a CI run answered it with a 500).
    if (error instanceof Error && /utf-8/i.test(error.message)) return true;
    throw error;
  }
}
