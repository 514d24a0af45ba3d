import { createCookie } from "@remix-run/node";
import { isAddressProof } from "~/services/accounts/index.server";
import { env } from "~/utils/env.server";

/**
 * Remembers the address proof of a mailed link (an invitation card opened from its e-mail) for
 * the signup that follows, however the person gets there. Signed, HttpOnly, one hour.
 */
function cookie() {
  const secure = env().secureCookies;
  return createCookie(secure ? "__Host-stackshift_address_proof" : "stackshift_address_proof", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: 60 * 60,
    secrets: [env().SESSION_SECRET],
  });
}

/** A Set-Cookie header when `proof` is a valid proof for `address`, else undefined. */
export async function rememberAddressProof(address: string, proof: string | null) {
  if (!proof || !isAddressProof(address, proof)) return undefined;
  return cookie().serialize({ address: address.toLowerCase(), proof });
}

/** The remembered proof for `address`, if any. */
export async function rememberedAddressProof(request: Request, address: string) {
  const value: unknown = await cookie().parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return null;
  const { address: stored, proof } = value as { address?: unknown; proof?: unknown };
  return stored === address.toLowerCase() && typeof proof === "string" ? proof : null;
}
