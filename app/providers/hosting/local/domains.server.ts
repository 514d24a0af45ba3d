/** Custom domains on the local provider: the records a vendor would ask for, verified after a delay. */
import { env } from "~/utils/env.server";
import type { DomainRecord, DomainState } from "../types";
import { LOCAL_APEX_IP, type SiteRow, UNVERIFIED_DOMAIN_HOOK } from "./shared.server";

export const firstLabel = (domain: string) => domain.split(".")[0];

/** Like Netlify's: an apex domain (two labels) gets an A record and a `www` CNAME. */
export function localDomainRecords(siteId: string, domain: string): DomainRecord[] {
  const target = `${siteId}.local.stackshift.test`;
  const labels = domain.split(".");
  if (labels.length === 2) {
    return [
      { type: "A", name: "@", value: LOCAL_APEX_IP },
      { type: "CNAME", name: "www", value: target },
    ];
  }
  return [{ type: "CNAME", name: labels.slice(0, -2).join("."), value: target }];
}

export function localDomainState(site: SiteRow, domain: string): DomainState {
  const setAt = site.domainSetAt?.getTime() ?? Date.now();
  const verified =
    firstLabel(domain) !== UNVERIFIED_DOMAIN_HOOK &&
    Date.now() - setAt >= env().LOCAL_DOMAIN_VERIFY_SECONDS * 1000;
  // The local vendor "issues" the certificate the moment it sees the DNS.
  return { domain, verified, ssl: verified, records: localDomainRecords(site.id, domain) };
}
