/**
 * What a custom domain may be, without zod, so the Domain Settings card can check a typed value
 * in the browser cheaply (domains.schema.ts wraps it for forms and the API). The IDN conversion
 * uses the WHATWG URL parser, which browsers and Node share.
 */
export const DOMAIN_MAX = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const DOMAIN_MESSAGES = {
  required: "Enter a domain such as example.com",
  scheme: "Enter the domain only, without https:// or a path",
  port: "Enter the domain without a port",
  wildcard: "Wildcard domains are not supported",
  ip: "Enter a domain name, not an IP address",
  labels: "A domain needs at least two parts, such as example.com",
  label:
    "Each part of a domain has 1 to 63 letters, digits or hyphens, and does not start or end with a hyphen",
  tooLong: `A domain has at most ${DOMAIN_MAX} characters`,
  invalid: "This is not a valid domain",
} as const;

/**
 * The domain as stored: trimmed, lowercase, internationalised labels in punycode (bücher.example
 * becomes xn--bcher-kva.example), one trailing dot dropped. An error message when it is not a
 * domain a site can be served on.
 */
export function normalizeDomain(raw: string): { domain: string } | { error: string } {
  let value = raw.trim().toLowerCase();
  if (!value) return { error: DOMAIN_MESSAGES.required };
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value) || /[/?#\\@]/.test(value)) {
    return { error: DOMAIN_MESSAGES.scheme };
  }
  if (value.includes("*")) return { error: DOMAIN_MESSAGES.wildcard };
  if (value.startsWith("[") || (/^[0-9a-f:]+$/.test(value) && value.includes(":"))) {
    return { error: DOMAIN_MESSAGES.ip };
  }
  if (value.includes(":")) return { error: DOMAIN_MESSAGES.port };
  if (/\s/.test(value)) return { error: DOMAIN_MESSAGES.invalid };
  if (value.endsWith(".")) value = value.slice(0, -1);
  let ascii: string;
  try {
    // The URL parser applies IDNA (UTS #46): Unicode labels become xn-- labels.
    ascii = new URL(`http://${value}`).hostname;
  } catch {
    return { error: DOMAIN_MESSAGES.invalid };
  }
  const labels = ascii.split(".");
  // The parser reads "1.2.3.4" (and "0x7f.1") as an IPv4 address; a numeric last label is never
  // a top-level domain.
  if (/^(?:0x[0-9a-f]*|[0-9]+)$/.test(labels.at(-1) ?? "")) return { error: DOMAIN_MESSAGES.ip };
  if (ascii.length > DOMAIN_MAX) return { error: DOMAIN_MESSAGES.tooLong };
  if (labels.length < 2) return { error: DOMAIN_MESSAGES.labels };
  if (!labels.every((label) => LABEL.test(label))) return { error: DOMAIN_MESSAGES.label };
  return { domain: ascii };
}

/**
 * A custom domain still unverified this many days after it was set is released (here and at the
 * provider), so nobody keeps a name they never proved: a busy person publishes the DNS records
 * within a day or two; a squatter would hold names for good.
 */
export const UNVERIFIED_DOMAIN_DAYS = 7;
