import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { rateLimits } from "~/db/schema";
import { env } from "~/utils/env.server";
import { RateLimitedError } from "./errors";

export type Limit = { max: number; windowSeconds: number };

/** The limits of security-sensitive actions, per client IP and per e-mail. */
export const LIMITS = {
  login: { max: 10, windowSeconds: 15 * 60 },
  oidc: { max: 10, windowSeconds: 15 * 60 },
  signup: { max: 5, windowSeconds: 60 * 60 },
  forgot: { max: 5, windowSeconds: 60 * 60 },
  requestAccess: { max: 5, windowSeconds: 60 * 60 },
  /** Invitations and resends, per inviting user: each one sends an e-mail. */
  invite: { max: 30, windowSeconds: 60 * 60 },
} satisfies Record<string, Limit>;

/**
 * Counts one hit against each key (fixed window, shared by all instances through the database)
 * and throws RateLimitedError when any key is over its limit.
 */
export async function hit(action: keyof typeof LIMITS, keys: string[]) {
  if (env().RATE_LIMITS === "off") return;
  const limit = LIMITS[action];
  for (const key of keys) {
    const id = `${action}:${key}`;
    const [row] = await db()
      .insert(rateLimits)
      .values({ key: id, count: 1, windowStartedAt: new Date() })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`case when ${rateLimits.windowStartedAt} < now() - make_interval(secs => ${limit.windowSeconds}) then 1 else ${rateLimits.count} + 1 end`,
          windowStartedAt: sql`case when ${rateLimits.windowStartedAt} < now() - make_interval(secs => ${limit.windowSeconds}) then now() else ${rateLimits.windowStartedAt} end`,
        },
      })
      .returning();
    if (row.count > limit.max) {
      const elapsed = (Date.now() - row.windowStartedAt.getTime()) / 1000;
      const retryAfter = Math.max(1, Math.ceil(limit.windowSeconds - elapsed));
      throw new RateLimitedError(
        `Too many attempts. Please wait ${Math.ceil(retryAfter / 60)} minute(s) and try again.`,
        retryAfter,
      );
    }
  }
}
