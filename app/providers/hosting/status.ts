/**
 * Vendor-neutral helpers shared by the hosting adapters: the normalised deployment status of
 * each vendor's states, and the site names we ask the vendors for.
 */
import { createHash } from "node:crypto";
import type { Deployment, HostingProviderName } from "./types";

export type DeploymentStatus = Deployment["status"];

/** Netlify deploy `state` (swagger enum) to the normalised status. */
const NETLIFY_STATUS: Record<string, DeploymentStatus> = {
  new: "queued",
  pending_review: "queued",
  accepted: "queued",
  enqueued: "queued",
  retrying: "queued",
  building: "building",
  uploading: "building",
  uploaded: "building",
  preparing: "building",
  prepared: "building",
  processing: "building",
  processed: "building",
  ready: "ready",
  error: "error",
  // A deploy rejected in review never goes live, and nothing failed: it was stopped.
  rejected: "canceled",
};

/** Vercel `readyState` to the normalised status. */
const VERCEL_STATUS: Record<string, DeploymentStatus> = {
  QUEUED: "queued",
  INITIALIZING: "queued",
  BUILDING: "building",
  READY: "ready",
  ERROR: "error",
  // BLOCKED deployments (e.g. commit author not on the team) never proceed without a new
  // deployment, so the dashboard offers a retry as for an error.
  BLOCKED: "error",
  CANCELED: "canceled",
  DELETED: "canceled",
};

/** Unknown states (a vendor adding one) read as still in progress, never as published. */
export function netlifyStatus(state: string): DeploymentStatus {
  return NETLIFY_STATUS[state] ?? "building";
}

export function vercelStatus(readyState: string): DeploymentStatus {
  return VERCEL_STATUS[readyState.toUpperCase()] ?? "building";
}

export function deploymentStatus(provider: HostingProviderName, state: string): DeploymentStatus {
  return provider === "netlify" ? netlifyStatus(state) : vercelStatus(state);
}

/** The state a new deployment starts in, per vendor. */
export const FIRST_STATE: Record<HostingProviderName, string> = {
  netlify: "enqueued",
  vercel: "QUEUED",
};

/**
 * The vendor-side site name for a project: a readable slug of its name plus a short hash of the
 * idempotency key. Netlify names are global subdomains and Vercel names are unique per team, so
 * two projects called "Acme" need different names, while a re-run with the same key must land
 * on the same name (that is how the adapters find a site they already created).
 */
export function vendorSiteName(name: string, idempotencyKey: string): string {
  const slug =
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "") // accents split off by NFKD
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40)
      .replace(/-+$/, "") || "site";
  const hash = createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 8);
  return `${slug}-${hash}`;
}

/** Marker carried in a deployment's title (Netlify) so a retried trigger finds its deploy. */
export function triggerMarker(triggerKey: string) {
  return `[stackshift:${triggerKey}]`;
}
