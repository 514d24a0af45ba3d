/**
 * Password hashing, with its parameters pinned here and nowhere else: argon2id, 19 MiB of memory
 * (memoryCost 19456 KiB), 2 passes (timeCost), 1 lane (parallelism). These are OWASP's recommended
 * minimum for argon2id (Password Storage Cheat Sheet: m=19456, t=2, p=1). @node-rs/argon2 2.2.1
 * happens to default to the same values; pinning them means a change of the library's defaults
 * cannot silently change (or weaken) our hashes.
 *
 * Cost measured on the development machine (2 cores, Node 20.20, @node-rs/argon2 2.2.1, other
 * work running): one hashPassword takes 14-20 ms once warm (median of 30 runs 19 ms, fastest
 * 14 ms; the first call of a process 25-85 ms), and verifyPassword about the same (median 16 ms).
 * It runs on libuv's thread pool, not on the event loop.
 *
 * `needsRehash` says when a stored hash was made with other parameters, so a successful login can
 * upgrade it while the plain password is at hand.
 */
import { hash, verify, type Algorithm, type Options } from "@node-rs/argon2";

/**
 * The pinned parameters. `algorithm` is the value of @node-rs/argon2's const enum
 * `Algorithm.Argon2id` (2): const enums of a dependency's typings cannot be read under
 * `isolatedModules`.
 */
export const PASSWORD_HASH_PARAMETERS = {
  algorithm: "argon2id",
  /** PHC `v=`: argon2 version 0x13. */
  version: 19,
  /** KiB (PHC `m=`). */
  memoryCost: 19456,
  /** Passes (PHC `t=`). */
  timeCost: 2,
  /** Lanes (PHC `p=`). */
  parallelism: 1,
} as const;

const ARGON2ID = 2 as Algorithm;

const OPTIONS: Options = {
  algorithm: ARGON2ID,
  memoryCost: PASSWORD_HASH_PARAMETERS.memoryCost,
  timeCost: PASSWORD_HASH_PARAMETERS.timeCost,
  parallelism: PASSWORD_HASH_PARAMETERS.parallelism,
};

/** The PHC string of `plain` under the pinned parameters, with a fresh random salt. */
export function hashPassword(plain: string): Promise<string> {
  return hash(plain, OPTIONS);
}

/**
 * Whether `plain` matches `stored` (a PHC string, whatever parameters made it: they are read from
 * the string). A malformed hash is a mismatch, never an exception.
 */
export async function verifyPassword(stored: string, plain: string): Promise<boolean> {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
}

// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>
const PHC = /^\$(argon2(?:id|i|d))\$v=(\d+)\$([^$]+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

/** The algorithm and parameters a PHC string was made with, or null when it is not one. */
export function parsePasswordHash(stored: string): {
  algorithm: string;
  version: number;
  memoryCost: number;
  timeCost: number;
  parallelism: number;
} | null {
  const match = PHC.exec(stored);
  if (!match) return null;
  const params = new Map<string, number>();
  for (const part of match[3].split(",")) {
    const [key, value] = part.split("=");
    if (!key || !value || !/^\d+$/.test(value) || params.has(key)) return null;
    params.set(key, Number(value));
  }
  const m = params.get("m");
  const t = params.get("t");
  const p = params.get("p");
  if (m === undefined || t === undefined || p === undefined || params.size !== 3) return null;
  return {
    algorithm: match[1],
    version: Number(match[2]),
    memoryCost: m,
    timeCost: t,
    parallelism: p,
  };
}

/**
 * True when `stored` was not made with the pinned algorithm and parameters (or cannot be read):
 * hash the password again the next time it is known.
 */
export function needsRehash(stored: string): boolean {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return true;
  const pinned = PASSWORD_HASH_PARAMETERS;
  return (
    parsed.algorithm !== pinned.algorithm ||
    parsed.version !== pinned.version ||
    parsed.memoryCost !== pinned.memoryCost ||
    parsed.timeCost !== pinned.timeCost ||
    parsed.parallelism !== pinned.parallelism
  );
}
