/**
 * Where a webhook may point. A person types the address, and the server then sends requests to
 * it: without a guard anyone who may add a webhook could reach the database next door or the
 * cloud's metadata service (169.254.169.254). So the address must be https, and every address
 * its host resolves to must be a public unicast one: checked when the webhook is saved, and
 * again when each delivery connects, with the very address the check passed (resolve once,
 * connect to that: a DNS answer that changes after the check, DNS rebinding, reaches nothing).
 * WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=1 lifts both rules for development and tests.
 */
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { env } from "~/utils/env.server";

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

let resolver: Resolver = systemResolver;

/**
 * Replaces the DNS resolver (tests: an answer that changes between save and delivery). Returns
 * the function that puts the system's back.
 */
export function useResolver(next: Resolver): () => void {
  resolver = next;
  return () => {
    resolver = systemResolver;
  };
}

/** Why an address may not be reached ("loopback", "private", ...), or null for a public one. */
export function refusedRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return "invalid";
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  return range === "unicast" ? null : range;
}

export class RefusedAddressError extends Error {}

const allowPrivate = () => env().WEBHOOKS_ALLOW_PRIVATE_ADDRESSES;

/** The rules a URL must pass before any lookup; the message says what to change. */
export function urlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "Enter a full address, e.g. https://example.com/hooks/stackshift";
  }
  if (url.protocol !== "https:" && !(allowPrivate() && url.protocol === "http:")) {
    return "The address must start with https://";
  }
  if (url.username || url.password) {
    return "The address must not carry a user name or password";
  }
  return null;
}

/**
 * Resolves `hostname` once and returns the address to connect to, or throws
 * RefusedAddressError when any of its addresses is not public (a host answering both a public
 * and a private address is refused: which one a client uses is not ours to pick).
 */
export async function resolvePublicAddress(hostname: string): Promise<ResolvedAddress> {
  const bare = hostname.replace(/^\[|\]$/g, "");
  const answers: ResolvedAddress[] = net.isIP(bare)
    ? [{ address: bare, family: net.isIP(bare) === 6 ? 6 : 4 }]
    : await resolver(bare).catch(() => {
        throw new RefusedAddressError(`${hostname} could not be resolved`);
      });
  if (answers.length === 0) throw new RefusedAddressError(`${hostname} could not be resolved`);
  if (!allowPrivate()) {
    for (const answer of answers) {
      const range = refusedRange(answer.address);
      if (range) {
        throw new RefusedAddressError(
          `${hostname} resolves to ${answer.address}, a ${range} address: webhooks only reach public addresses`,
        );
      }
    }
  }
  return answers[0];
}

/** The save-time check: null when the address may be saved, else the message for the field. */
export async function webhookUrlProblem(value: string): Promise<string | null> {
  const problem = urlProblem(value);
  if (problem) return problem;
  try {
    await resolvePublicAddress(new URL(value).hostname);
    return null;
  } catch (error) {
    if (error instanceof RefusedAddressError) return error.message;
    throw error;
  }
}
