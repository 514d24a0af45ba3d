/**
 * Authorization codes of the local providers' authorization pages (/local/oauth/{provider}/
 * authorize): the granted account's details, signed with the session secret, so any server
 * instance can read them back. Short-lived and single-use (per instance), like a vendor's.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { LRUCache } from "lru-cache";
import { env } from "~/utils/env.server";

const LIFETIME_MS = 5 * 60 * 1000;
const spent = new LRUCache<string, true>({ max: 10_000, ttl: LIFETIME_MS });

function sign(payload: string) {
  return createHmac("sha256", `local-oauth:${env().SESSION_SECRET}`)
    .update(payload)
    .digest("base64url");
}

export function issueLocalCode(provider: string, claims: Record<string, string>): string {
  const payload = Buffer.from(
    JSON.stringify({
      ...claims,
      p: provider,
      n: randomBytes(9).toString("base64url"),
      e: Date.now() + LIFETIME_MS,
    }),
  ).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

/** The claims of a valid code of this provider, without spending it. */
export function readLocalCode(provider: string, code: string): Record<string, string> | null {
  const claims = verify(provider, code);
  return claims && !spent.has(code) ? claims : null;
}

/** The claims of a code this provider issued, once; null for anything else. */
export function redeemLocalCode(provider: string, code: string): Record<string, string> | null {
  const claims = verify(provider, code);
  if (!claims || spent.has(code)) return null;
  spent.set(code, true);
  return claims;
}

function verify(provider: string, code: string): Record<string, string> | null {
  const [payload, signature, extra] = code.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<
      string,
      unknown
    >;
  } catch {
    return null;
  }
  if (claims.p !== provider || typeof claims.e !== "number" || claims.e < Date.now()) return null;
  return Object.fromEntries(
    Object.entries(claims).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}
