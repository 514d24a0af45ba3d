/**
 * The help desk the app uses. Only the built-in one exists; an outside desk (Zoho Desk, as the
 * original product had) would be another `SupportDesk` chosen here, from configuration, without
 * the pages changing (docs/decisions/019-support-desk-behind-an-interface.md).
 */
import { and, asc, eq, exists, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { members, projects } from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import { PROJECT_CHOICES_MAX } from "./support.schema";
import { builtinSupportDesk } from "./builtin.server";
import type { SupportDesk, TicketProject } from "./types";

// The desk's types are the browser index's (./index.ts), not repeated here.

export function supportDesk(): SupportDesk {
  return builtinSupportDesk;
}

/**
 * The projects a new ticket may be about: those the user owns or has joined (accepted), by name.
 * They are the app's projects whichever desk stores the tickets, so this is not the desk's.
 */
export async function ticketProjectChoices(user: User): Promise<TicketProject[]> {
  return db()
    .select({ id: projects.id, studioId: projects.studioId, name: projects.name })
    .from(projects)
    .where(
      or(
        eq(projects.ownerId, user.id),
        exists(
          db()
            .select({ one: sql`1` })
            .from(members)
            .where(
              and(
                eq(members.projectId, projects.id),
                eq(members.userId, user.id),
                eq(members.status, "accepted"),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(sql`lower(${projects.name})`), asc(projects.id))
    .limit(PROJECT_CHOICES_MAX);
}
