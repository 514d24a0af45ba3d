/**
 * The built-in newsletter provider (PROVIDERS=local). It behaves like Resend, with its domains in
 * local_newsletter_domains:
 * - createDomain answers the records Resend asks for on the domain (an MX and an SPF TXT on
 *   `send`, a DKIM TXT on `resend._domainkey`, a receiving MX on the domain itself (an empty
 *   name); names relative to the domain, TTL "Auto"), all
 *   not_started. No DMARC record: the dashboard adds its own. A name added already is refused
 *   with 409, a region Resend does not serve with 422 invalid_region, a name that is not a
 *   domain with 422.
 * - The domain stays not_started until the first verifyDomain, is pending after it, and counts as
 *   verified (its records too) LOCAL_DOMAIN_VERIFY_SECONDS after that first verify. The status is
 *   worked out whenever the domain is read, so nothing runs in the background.
 * - getDomain, verifyDomain and deleteDomain of an unknown id answer 404.
 * Deterministic hooks for demos and tests:
 * - a domain whose first label is `unverified` (unverified.example.com) becomes failed instead
 *   of verified when its time comes;
 * - a domain name containing `ratelimited` is refused by createDomain with 429 (Retry-After 1),
 *   as Resend refuses a team that sends more than its requests per second.
 */
import { generateKeyPair, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { localNewsletterDomains } from "~/db/schema";
import { env } from "~/utils/env.server";
import { ProviderError } from "../errors";
import type {
  NewsletterProvider,
  SenderDnsRecord,
  SenderDomain,
  SenderDomainStatus,
} from "./types";

const REGIONS = ["us-east-1", "eu-west-1", "sa-east-1", "ap-northeast-1"];
const DEFAULT_REGION = "us-east-1";
const UNVERIFIED_HOOK = "unverified";
const RATE_LIMIT_HOOK = "ratelimited";

/** Labels of letters, digits and inner hyphens, at least two of them. */
const DOMAIN_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

type Row = typeof localNewsletterDomains.$inferSelect;

const generateRsaKeyPair = promisify(generateKeyPair);

export function createLocalNewsletter(): NewsletterProvider {
  return {
    async createDomain(rawName, rawRegion) {
      const name = rawName.trim().toLowerCase();
      const region = rawRegion.trim() || DEFAULT_REGION;
      if (name.includes(RATE_LIMIT_HOOK)) {
        throw new ProviderError(
          "Too many requests. Please limit the number of requests per second.",
          {
            provider: "resend",
            status: 429,
            code: "rate_limit_exceeded",
            retryAfterSeconds: 1,
          },
        );
      }
      if (!REGIONS.includes(region)) {
        throw new ProviderError(`Region must be one of: ${REGIONS.join(", ")}`, {
          provider: "resend",
          status: 422,
          code: "invalid_region",
        });
      }
      if (!DOMAIN_NAME.test(name)) {
        throw new ProviderError(`'${rawName}' is not a domain name`, {
          provider: "resend",
          status: 422,
          code: "validation_error",
        });
      }
      const [row] = await db()
        .insert(localNewsletterDomains)
        .values({
          id: `ldom_${randomBytes(12).toString("hex")}`,
          name,
          region,
          records: await newRecords(region),
        })
        .onConflictDoNothing({ target: localNewsletterDomains.name })
        .returning();
      if (!row) {
        throw new ProviderError(`The ${name} domain has been registered already.`, {
          provider: "resend",
          status: 409,
          code: "domain_exists",
        });
      }
      return senderDomain(row);
    },

    async getDomain(id) {
      return senderDomain(await find(id));
    },

    async verifyDomain(id) {
      const row = await find(id);
      // Only the first verify starts the clock; asking again does not push verification back.
      if (row.verifyRequestedAt) return;
      await db()
        .update(localNewsletterDomains)
        .set({ verifyRequestedAt: new Date() })
        .where(eq(localNewsletterDomains.id, id));
    },

    async deleteDomain(id) {
      const deleted = await db()
        .delete(localNewsletterDomains)
        .where(eq(localNewsletterDomains.id, id))
        .returning({ id: localNewsletterDomains.id });
      if (deleted.length === 0) throw notFound();
    },
  };
}

async function find(id: string): Promise<Row> {
  const [row] = await db()
    .select()
    .from(localNewsletterDomains)
    .where(eq(localNewsletterDomains.id, id));
  if (!row) throw notFound();
  return row;
}

function notFound() {
  return new ProviderError("Domain not found", {
    provider: "resend",
    status: 404,
    code: "not_found",
  });
}

/** The status the domain has now, from when it was first asked to verify. */
function statusOf(row: Row): SenderDomainStatus {
  if (!row.verifyRequestedAt) return "not_started";
  const waited = Date.now() - row.verifyRequestedAt.getTime();
  if (waited < env().LOCAL_DOMAIN_VERIFY_SECONDS * 1000) return "pending";
  return row.name.split(".")[0] === UNVERIFIED_HOOK ? "failed" : "verified";
}

function senderDomain(row: Row): SenderDomain {
  const status = statusOf(row);
  return {
    id: row.id,
    name: row.name,
    status,
    region: row.region,
    createdAt: row.createdAt.toISOString(),
    // Every record moves with the domain: the local DNS either has them all or none.
    records: (row.records as SenderDnsRecord[]).map((record) => ({ ...record, status })),
  };
}

/**
 * The records Resend asks for: the bounce MX and SPF on the `send` return-path subdomain, a
 * DKIM key (a real 1024-bit RSA public key, fresh for each domain, like Resend's), and the MX
 * that receives replies on the domain itself.
 */
async function newRecords(region: string): Promise<SenderDnsRecord[]> {
  const { publicKey } = await generateRsaKeyPair("rsa", {
    modulusLength: 1024,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs8", format: "der" },
  });
  return [
    {
      record: "SPF",
      name: "send",
      type: "MX",
      ttl: "Auto",
      status: "not_started",
      value: `feedback-smtp.${region}.amazonses.com`,
      priority: 10,
    },
    {
      record: "SPF",
      name: "send",
      type: "TXT",
      ttl: "Auto",
      status: "not_started",
      value: "v=spf1 include:amazonses.com ~all",
    },
    {
      record: "DKIM",
      name: "resend._domainkey",
      type: "TXT",
      ttl: "Auto",
      status: "not_started",
      value: `p=${publicKey.toString("base64")}`,
    },
    {
      // Receiving replies: Resend's inbound MX on the domain itself (an empty name).
      record: "Receiving",
      name: "",
      type: "MX",
      ttl: "Auto",
      status: "not_started",
      value: `inbound-smtp.${region}.amazonaws.com`,
      priority: 10,
    },
  ];
}
