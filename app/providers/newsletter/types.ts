/**
 * Newsletter sender domains: the domains newsletters are sent from, added with the newsletter
 * provider, which answers with the DNS records to publish and verifies them. Resend (`resend`
 * SDK) when PROVIDERS=live, a local stand-in otherwise. Refusals are ProviderError (409: the
 * domain exists already; 404: no such domain; 422: invalid region or name; 429: rate limited).
 */

/** A DNS record as the provider gives it (Resend's fields). */
export type SenderDnsRecord = {
  /** SPF, DKIM, DMARC, ... */
  record: string;
  /** The host, relative to the domain or full (the dashboard strips the suffix). */
  name: string;
  type: string;
  /** "Auto" or seconds, as text. */
  ttl: string;
  status: string;
  value: string;
  priority?: number;
};

export type SenderDomainStatus =
  | "pending"
  | "verified"
  | "failed"
  | "not_started"
  | "partially_verified"
  | "partially_failed"
  | "temporary_failure";

export type SenderDomain = {
  id: string;
  name: string;
  status: SenderDomainStatus;
  region: string;
  /** ISO 8601. */
  createdAt: string;
  /** Present when the provider returned them (create and get). */
  records: SenderDnsRecord[];
};

export type NewsletterProvider = {
  /** Adds a domain; ProviderError 409 when it exists already. */
  createDomain(name: string, region: string): Promise<SenderDomain>;
  /** One domain with its records; ProviderError 404 when unknown. */
  getDomain(id: string): Promise<SenderDomain>;
  /** Asks the provider to check the records (asynchronously: read the domain afterwards). */
  verifyDomain(id: string): Promise<void>;
  deleteDomain(id: string): Promise<void>;
};
