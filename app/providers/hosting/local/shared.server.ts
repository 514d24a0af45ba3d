/** The local hosting provider's names, hooks and ids, shared by its parts (see ../local.server.ts). */
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { type localDeploys, type localSites } from "~/db/schema";
import { env } from "~/utils/env.server";
import { ProviderError } from "../../errors";
import { deploymentStatus } from "../status";
import type { HostingProviderName } from "../types";

export const LOCAL_ADVANCE_JOB = "local-hosting.advance";
/** Site names containing this always fail to deploy (see the module comment). */
export const FAIL_DEPLOY_HOOK = "fail-deploy";
/** Site names containing this deploy five times slower (see the module comment). */
export const SLOW_DEPLOY_HOOK = "slow-deploy";
export const SLOW_DEPLOY_FACTOR = 5;
/** A custom domain with this first label never verifies (see the module comment). */
export const UNVERIFIED_DOMAIN_HOOK = "unverified";
/** A custom domain with this first label is refused (see the module comment). */
export const FAIL_DOMAIN_HOOK = "fail-domain";
/** The apex A record's address: TEST-NET-3 (RFC 5737), which nothing answers on. */
export const LOCAL_APEX_IP = "203.0.113.10";

export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 100;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export type SiteRow = typeof localSites.$inferSelect;
export type DeployRow = typeof localDeploys.$inferSelect;

/** Ids shaped like the vendor's: Netlify uses UUIDs / 24 hex, Vercel prj_ / dpl_ + base62. */
function vercelId(prefix: string) {
  let id = prefix;
  for (let i = 0; i < 28; i += 1) id += BASE62[randomInt(BASE62.length)];
  return id;
}
export const newSiteId = (provider: HostingProviderName) =>
  provider === "netlify" ? randomUUID() : vercelId("prj_");
export const newDeployId = (provider: HostingProviderName) =>
  provider === "netlify" ? randomBytes(12).toString("hex") : vercelId("dpl_");

/** Our ids are [A-Za-z0-9_-]; anything else (a NUL byte from a URL, say) cannot match one. */
export const isId = (value: string) => /^[A-Za-z0-9_-]{1,100}$/.test(value);

export function localSiteUrl(siteId: string) {
  return `${env().APP_URL}/local/sites/${encodeURIComponent(siteId)}`;
}

export function notFound(provider: HostingProviderName, what: string) {
  return new ProviderError(`${what} not found`, {
    provider: `local-${provider}`,
    status: 404,
    code: "not_found",
  });
}

export function isInProgress(provider: HostingProviderName, state: string) {
  const status = deploymentStatus(provider, state);
  return status === "queued" || status === "building";
}
