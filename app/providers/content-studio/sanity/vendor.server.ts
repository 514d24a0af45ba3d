/**
 * The Sanity adapter's reading of Sanity (sanity.server.ts makes the calls): its errors as
 * ProviderErrors, the idempotency tag a project's display name carries, and the loose shapes of
 * the Access API's answers.
 */
import { createHash } from "node:crypto";
import { ProviderError } from "../../errors";

export const PROVIDER = "sanity";
/** Sanity caps display names; ours get a suffix on top. */
const DISPLAY_NAME_MAX = 64;

export type VendorInvite = { id: string; email: string; role: string };
/** A project member; `email` null when the users endpoint gives none (never matched by address). */
export type VendorMember = { id: string; email: string | null; roles: string[] };

// ---------------------------------------------------------------------------------------------
// Errors: `{statusCode, error, message}` bodies and 429 `retry-after` become ProviderErrors.

function retryAfterSeconds(value: unknown): number | undefined {
  if (typeof value !== "string" || !value.trim()) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

export function vendorError(status: number, body: unknown, retryAfter: unknown, what: string) {
  const record = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const message =
    typeof record.message === "string" && record.message
      ? record.message
      : typeof record.error === "string" && record.error
        ? record.error
        : `HTTP ${status}`;
  return new ProviderError(`Sanity could not ${what}: ${message}`, {
    provider: PROVIDER,
    status,
    code: typeof record.error === "string" ? record.error : undefined,
    retryAfterSeconds: retryAfterSeconds(retryAfter),
  });
}

export function networkError(error: unknown, what: string) {
  const reason = error instanceof Error ? error.message : String(error);
  // No status: retryable (the job tries again later).
  return new ProviderError(`Sanity could not ${what}: ${reason}`, { provider: PROVIDER });
}

/** The HTTP status of an @sanity/client error (ClientError/ServerError), if it has one. */
export function sdkStatus(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  const response = (error as { response?: unknown } | null)?.response;
  return typeof status === "number" && response ? status : undefined;
}

export function fromSdk(error: unknown, what: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const status = sdkStatus(error);
  if (status === undefined) return networkError(error, what);
  const response = (error as { response: { body?: unknown; headers?: Record<string, unknown> } })
    .response;
  return vendorError(status, response.body, response.headers?.["retry-after"], what);
}

// ---------------------------------------------------------------------------------------------
// Idempotent creation: the vendor has no idempotency key, so the display name carries a short
// hash of ours and a re-run finds the project it created before.

export function idempotencyTag(idempotencyKey: string) {
  return `ss-${createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 10)}`;
}

const TAG_SUFFIX = / \[ss-[0-9a-f]{10}\]$/;

export function withTag(displayName: string, idempotencyKey: string) {
  return `${displayName.trim().slice(0, DISPLAY_NAME_MAX)} [${idempotencyTag(idempotencyKey)}]`;
}

export function withoutTag(displayName: string) {
  return displayName.replace(TAG_SUFFIX, "");
}

export function list(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const data = (body as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? data : [];
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" && value ? value : undefined;
}

/** An invite as the Access API lists it, with either `role` or `roleNames[]`. */
export function toInvite(value: unknown): VendorInvite | null {
  if (!value || typeof value !== "object") return null;
  const item = value as Record<string, unknown>;
  const id = str(item.id) ?? str(item.inviteId);
  const email = str(item.email);
  if (!id || !email) return null;
  if (item.status !== undefined && item.status !== "pending") return null;
  const names = Array.isArray(item.roleNames) ? item.roleNames : [];
  const role = str(names[0]) ?? str(item.role) ?? str(item.roleName) ?? "editor";
  return { id, email: email.toLowerCase(), role };
}

/**
 * A robot token as GET /projects/{id}/tokens lists it: `{id, label, projectUserId, createdAt,
 * roles: [{name, title}]}` (the shape Sanity's CLI reads for `sanity tokens list`). Nothing in it
 * names the person who made the token; `projectUserId` is the token's own robot user.
 */
export type VendorToken = {
  id: string;
  label: string;
  robotId: string | null;
  roles: string[];
  createdAt: string | null;
};

export function toToken(value: unknown): VendorToken | null {
  const item = record(value);
  const id = str(item.id);
  if (!id) return null;
  const named = (Array.isArray(item.roles) ? item.roles : [])
    .map((r) => str(record(r).name) ?? str(r))
    .filter((r): r is string => Boolean(r));
  return {
    id,
    label: str(item.label) ?? "",
    robotId: str(item.projectUserId) ?? null,
    roles: named.length > 0 ? named : [str(item.roleName)].filter((r): r is string => !!r),
    createdAt: str(item.createdAt) ?? null,
  };
}

export function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function sameOrigin(a: string, b: string) {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return a === b;
  }
}
