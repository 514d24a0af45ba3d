import { and, eq, gt, lt, sql } from "drizzle-orm";
import ipaddr from "ipaddr.js";
import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import { db, type Queryable } from "~/db/client.server";
import { rateLimits } from "~/db/schema";
import { env } from "~/utils/env.server";
import { rateLimitRefused } from "~/utils/metrics.server";
import { RateLimitedError } from "./errors";

/**
 * Rate limits that stop attackers and not teams (decision record 004): failures are counted, not
 * use, and what a whole office shares (the client address) has limits no team reaches by working.
 * Counters live in the database (rate-limiter-flexible's Drizzle store), so every app instance on
 * one PostgreSQL shares them.
 */
export type Policy = { points: number; durationSeconds: number };

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const POLICIES = {
  /** Wrong passwords for one account from one address; a success clears it. */
  loginFailuresAccount: { points: 5, durationSeconds: 15 * MINUTE },
  /** Each lockout of an account from an address doubles the next one (growing delays). */
  loginLockouts: { points: 1_000, durationSeconds: 24 * HOUR },
  /** Wrong passwords from one address, whatever the account: a password-spraying client. */
  loginFailuresAddress: { points: 100, durationSeconds: 15 * MINUTE },
  /**
   * Wrong passwords for one account from one IPv6 /48 (a site's whole allocation). A person's
   * own failures from their office's /48 come from their few devices, each locked out after 5:
   * a laptop, a phone and a desktop make 15. An abuser with a routed /48 holds 65,536 /64s, each
   * with its own 5 per 15 minutes: 327,680 guesses at one account per 15 minutes without this.
   */
  loginFailuresAccountBlock: { points: 20, durationSeconds: 15 * MINUTE },
  /**
   * Wrong passwords from one IPv6 /48, whatever the account. A company of a few thousand people
   * behind one /48 fails a few dozen sign-ins in a busy quarter hour (each /64 already stops at
   * 100); a sprayer with a routed /48 would get 65,536 x 100 = 6.5 million guesses per 15
   * minutes without this.
   */
  loginFailuresBlock: { points: 300, durationSeconds: 15 * MINUTE },
  /**
   * The ceiling per account (decision 041): wrong passwords for one account from every address
   * together in a day. Its owner fails a few times on a bad day (two rounds of lockouts from one
   * address are 10); a guesser with 200 addresses gets 200 x 5 every 15 minutes, about 96,000 a
   * day, without it. Past it a password alone no longer signs in (app/web/account-ceiling.server.ts):
   * it also needs a known device, the second factor or a mailed link. Nothing is refused by it.
   */
  loginCeilingAccount: { points: 20, durationSeconds: DAY },
  /** Sign-in links mailed to one account past its ceiling: past this, the right password waits. */
  signInLinkMails: { points: 5, durationSeconds: HOUR },
  /** Signups that mail a confirmation link or are refused, per client address. */
  signupAddress: { points: 300, durationSeconds: HOUR },
  /** Confirmation mails to one address (signups and resends). */
  verificationMails: { points: 5, durationSeconds: HOUR },
  /** Forgot-password requests per client address (the mails are limited per e-mail below). */
  forgotAddress: { points: 300, durationSeconds: HOUR },
  /** Reset mails to one address: past this the request is dropped silently. */
  resetMails: { points: 5, durationSeconds: HOUR },
  /** Requests for access per client address. */
  requestAccessAddress: { points: 100, durationSeconds: HOUR },
  /** Mails about requests for access to one address. */
  requestAccessMails: { points: 5, durationSeconds: HOUR },
  /** Single sign-on starts per client address. */
  oidcAddress: { points: 120, durationSeconds: 15 * MINUTE },
  /**
   * Passkey sign-ins started from the login page per client address (each keeps a challenge in a
   * new session row): a person needs one or two, an office behind one address a few dozen.
   */
  passkeySignInAddress: { points: 120, durationSeconds: 15 * MINUTE },
  /**
   * Invitation mails (invites and resends) per inviting user, platform admins doing support
   * included: an agency or support admin setting up 20 projects of 10 people sends 200 in an hour.
   */
  invite: { points: 500, durationSeconds: HOUR },
  /** Invitation mails of one project, whoever sends them: a big onboarding is about 100 a day. */
  inviteProject: { points: 300, durationSeconds: DAY },
  /** Invitation mails to one address, from any inviter and project: a victim's inbox, whoever sends them. */
  inviteRecipient: { points: 3, durationSeconds: DAY },
  /** Newsletter test e-mails per user: each one is a mail to themselves. */
  newsletterTest: { points: 10, durationSeconds: HOUR },
  /**
   * Submissions of one form from one client address. A visitor sends a form once; an office
   * behind one address sends a few a minute at most; a script sending more is refused.
   */
  formSubmitAddress: { points: 30, durationSeconds: MINUTE },
  /**
   * Requests per personal access token. A busy script polls a deployment every few seconds or
   * creates a few dozen projects in a run (under 100 a minute); a leaked token used for scraping
   * or flooding sends thousands.
   */
  apiToken: { points: 600, durationSeconds: MINUTE },
  /**
   * Links asking an address to confirm it wants a form's notification mails (adding it, Resend),
   * per address: 1-2 for a person being set up, a stream for someone mailing a victim.
   */
  formNotificationConfirmMails: { points: 5, durationSeconds: 24 * HOUR },
  /**
   * The same links per user who asks for them, whatever the project. Busiest ordinary work: an
   * agency admin setting up the forms of 20 client projects in a day, 2-3 outside addresses each,
   * about 60 links; someone using us to mail strangers needs hundreds to thousands a day.
   */
  formNotificationConfirmUser: { points: 100, durationSeconds: 24 * HOUR },
  /**
   * The same links per project, whoever asks. Busiest ordinary work: a company's launch day,
   * five forms with 3-4 outside addresses each and a few resends, about 25 links; a project used
   * as a relay needs hundreds a day.
   */
  formNotificationConfirmProject: { points: 50, durationSeconds: 24 * HOUR },
  /**
   * E-mail change requests (each mails a link to the new address) per user: a person changes
   * their address once, with a typo or a resend; a relay needs a mail to a new address each time.
   */
  emailChangeUser: { points: 10, durationSeconds: 24 * HOUR },
  /**
   * Projects created per user (each provisions a real site and content studio in live mode).
   * An agency sets up a few client projects a day, twenty on a launch day; platform admins are
   * not counted (createProject).
   */
  projectsCreated: { points: 50, durationSeconds: DAY },
  /**
   * Stripe secret keys checked with Stripe (adding an account), per user and per project: each
   * check says whether a key is live, so unlimited checks would test stolen keys for anyone.
   */
  stripeKeyChecksUser: { points: 100, durationSeconds: DAY },
  stripeKeyChecksProject: { points: 30, durationSeconds: DAY },
} satisfies Record<string, Policy>;

export type PolicyName = keyof typeof POLICIES;

/** The first lockout lasts 15 minutes; each further one within a day doubles it, up to a day. */
export function lockoutSeconds(lockouts: number) {
  return Math.min(15 * MINUTE * 2 ** Math.max(0, lockouts - 1), 24 * HOUR);
}

// One limiter per policy and database handle (tests open one database per worker), or per
// transaction for counts that commit with the change they limit.
const limiters = new WeakMap<Queryable, Map<PolicyName, RateLimiterDrizzle>>();

function limiter(name: PolicyName, store: Queryable = db()): RateLimiterDrizzle {
  let byName = limiters.get(store);
  if (!byName) limiters.set(store, (byName = new Map()));
  let found = byName.get(name);
  if (!found) {
    const policy = POLICIES[name];
    found = new RateLimiterDrizzle({
      storeClient: store,
      schema: rateLimits,
      keyPrefix: name,
      points: policy.points,
      duration: policy.durationSeconds,
      // Expired rows are deleted by the accounts.purge job, not by a timer in every process.
      clearExpiredByTimeout: false,
    });
    byName.set(name, found);
  }
  return found;
}

/** RATE_LIMITS=off exists for the benchmark scripts only (README); tests run with limits on. */
const disabled = () => env().RATE_LIMITS === "off";

function refused(
  policy: PolicyName,
  msBeforeNext: number,
  what = "Too many attempts.",
  field?: string,
): RateLimitedError {
  rateLimitRefused(policy);
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  const wait =
    seconds < 90
      ? `${seconds} seconds`
      : seconds < 90 * MINUTE
        ? `${Math.ceil(seconds / 60)} minutes`
        : `${Math.ceil(seconds / HOUR)} hours`;
  return new RateLimitedError(`${what} Please wait ${wait} and try again.`, seconds, field);
}

/** What a refusal says first, and the form field it is shown beside. */
export type Refusal = { what?: string; field?: string };

/**
 * Counts one use against `key`; throws RateLimitedError (429 with Retry-After) once the policy's
 * points are spent. `what` opens the refusal's message. With `tx` the count is written in that
 * transaction: it commits only with the change it limits, and a refusal (by this limit or by
 * anything later in the transaction) rolls it back, so nothing refused spends a point.
 */
export async function consume(
  name: PolicyName,
  key: string,
  { tx, what, field }: Refusal & { tx?: Queryable } = {},
) {
  if (disabled()) return;
  try {
    await limiter(name, tx).consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      throw refused(name, error.msBeforeNext, what, field);
    }
    throw error;
  }
}

/** Like consume, but answers false instead of throwing: for work whose answer is always the same. */
export async function tryConsume(name: PolicyName, key: string): Promise<boolean> {
  try {
    await consume(name, key);
    return true;
  } catch (error) {
    if (error instanceof RateLimitedError) return false;
    throw error;
  }
}

const accountKey = (email: string, clientIp: string) => `${email.toLowerCase()}|${clientIp}`;

/**
 * The IPv6 /48 a client address lies in, as "2001:db8:7::/48"; null for IPv4 and for what is not
 * an address. Takes the /64 the server hands actions (throttleAddress in server/middleware.mjs,
 * "2001:db8:7:1::/64") or a whole address.
 */
export function ipv6Block48(clientIp: string): string | null {
  const address = clientIp.endsWith("/64") ? clientIp.slice(0, -3) : clientIp;
  if (!ipaddr.IPv6.isValid(address)) return null;
  const v6 = ipaddr.IPv6.parse(address);
  if (v6.isIPv4MappedAddress()) return null;
  return `${v6.parts
    .slice(0, 3)
    .map((part) => part.toString(16))
    .join(":")}::/48`;
}

/**
 * One password (or code) check, counted before it runs. Exactly one of the two is called once the
 * answer is known; a try whose check throws for another reason keeps its points, as a failure.
 */
export type LoginTry = {
  /** The secret was right: the account's failures from this address are cleared, the rest given back. */
  succeeded(): Promise<void>;
  /** The secret was wrong: the points stay spent; the try that reaches the limit starts a lockout. */
  failed(): Promise<void>;
};

const NO_LIMITS: LoginTry = { succeeded: async () => {}, failed: async () => {} };

/** One counter a login try spends a point of. */
type Counter = { name: PolicyName; key: string };

/**
 * Gives back one point reserved on a counter, within the window it was taken in: an expired row
 * is left alone (the window it counted in has passed), and a count never goes below zero.
 */
async function giveBack({ name, key }: Counter) {
  await db()
    .update(rateLimits)
    .set({ points: sql`greatest(${rateLimits.points} - 1, 0)` })
    .where(and(eq(rateLimits.key, limiter(name).getKey(key)), gt(rateLimits.expire, sql`now()`)));
}

/**
 * Reserves a try before a password (or a second-factor code) of `email` is checked from
 * `clientIp`: one point on every counter that applies, taken atomically (an upsert that returns
 * the new count), so N tries at once never evaluate more than the limit allows. Refused
 * (RateLimitedError) when a counter has no point left, with the points this try took given back.
 * Strangers failing from other addresses never lock anyone out (decision 004).
 */
export async function reserveLoginTry(email: string, clientIp: string): Promise<LoginTry> {
  if (disabled()) return NO_LIMITS;
  const account: Counter = { name: "loginFailuresAccount", key: accountKey(email, clientIp) };
  const counters: Counter[] = [account, { name: "loginFailuresAddress", key: clientIp }];
  const block = ipv6Block48(clientIp);
  if (block) {
    // IPv6: the /48 too, or one routed /48 would be 65,536 addresses with limits of their own.
    counters.push(
      { name: "loginFailuresAccountBlock", key: accountKey(email, block) },
      { name: "loginFailuresBlock", key: block },
    );
  }
  const taken = await Promise.allSettled(
    counters.map((counter) => limiter(counter.name).consume(counter.key)),
  );
  const refusal = taken.findIndex((result) => result.status === "rejected");
  if (refusal >= 0) {
    // A refused try was never evaluated, so it is not a failure: the points it took on counters
    // that still had some go back. A refusing counter keeps its overflow (it is over its limit
    // anyway, and its window does not grow): giving that back could race a lockout being set.
    await Promise.all(counters.filter((_, i) => taken[i].status === "fulfilled").map(giveBack));
    const reason = (taken[refusal] as PromiseRejectedResult).reason;
    if (reason instanceof RateLimiterRes) {
      throw refused(counters[refusal].name, reason.msBeforeNext, "Too many failed attempts.");
    }
    throw reason;
  }
  // Past every limit: the try counts towards the account's ceiling too (never refused by it).
  const ceiling: Counter = { name: "loginCeilingAccount", key: email.toLowerCase() };
  await limiter(ceiling.name).penalty(ceiling.key);
  const reachedLimit =
    (taken[0] as PromiseFulfilledResult<RateLimiterRes>).value.consumedPoints ===
    POLICIES.loginFailuresAccount.points;
  let settled = false;
  const settle = () => {
    if (settled) throw new Error("A login try is settled once");
    settled = true;
  };
  return {
    async succeeded() {
      settle();
      // A success clears this account's failures from this address; the others get their point back.
      await Promise.all([
        limiter(account.name).delete(account.key),
        ...[...counters.filter((c) => c !== account), ceiling].map(giveBack),
      ]);
    },
    async failed() {
      settle();
      if (reachedLimit) {
        // The failure that uses the last point starts a lockout, longer each time within a day.
        const lockouts = await limiter("loginLockouts").penalty(account.key);
        await limiter(account.name).block(account.key, lockoutSeconds(lockouts.consumedPoints));
      }
    },
  };
}

/**
 * Whether the account has had more wrong passwords (from every address together) than its
 * ceiling allows in the window: tries still being checked count too. Never true with limits off.
 */
export async function pastAccountCeiling(email: string): Promise<boolean> {
  if (disabled()) return false;
  const count = await limiter("loginCeilingAccount").get(email.toLowerCase());
  return (count?.consumedPoints ?? 0) >= POLICIES.loginCeilingAccount.points;
}

/** Drops counters whose window has passed (run by the accounts.purge job). */
export async function purgeRateLimits() {
  await db().delete(rateLimits).where(lt(rateLimits.expire, new Date()));
}
