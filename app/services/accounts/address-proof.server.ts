import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "~/utils/env.server";

/**
 * A proof that the holder reads mail at an address: a MAC over the address and an expiry, put in
 * the links we mail there (access approval, project invitation). Signing up with it creates the
 * account at once; without it the address is confirmed by a mailed link first. Stateless, so
 * nothing extra is stored, and the inviter (who sees the invitation key) never sees it.
 */
const DEFAULT_TTL_DAYS = 14;

function mac(address: string, expires: number) {
  return createHmac("sha256", env().SESSION_SECRET)
    .update(`address-proof\n${address.trim().toLowerCase()}\n${expires}`)
    .digest("base64url");
}

export function addressProof(address: string, ttlDays = DEFAULT_TTL_DAYS) {
  const expires = Math.floor(Date.now() / 1000) + ttlDays * 86400;
  return `${expires.toString(36)}.${mac(address, expires)}`;
}

export function isAddressProof(address: string, proof: unknown): boolean {
  if (typeof proof !== "string" || proof.length > 100) return false;
  const [encoded, given] = proof.split(".");
  const expires = parseInt(encoded ?? "", 36);
  if (!given || !Number.isFinite(expires) || expires * 1000 < Date.now()) return false;
  const expected = Buffer.from(mac(address, expires));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
