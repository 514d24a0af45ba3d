/**
 * Writing an event down: `emitProjectEvent` inserts the event and sends its fan-out job in the
 * caller's transaction, so the event exists exactly when the change it reports commits (an
 * outbox). The fan-out job then hands it to each consumer (consumers.server.ts).
 */
import { eq } from "drizzle-orm";
import type { Queryable } from "~/db/client.server";
import { projectEvents, projects } from "~/db/schema";
import { sendJob } from "~/jobs/queue.server";
import { env } from "~/utils/env.server";
import { EVENT_CATALOG, type ProjectEventPayload, type ProjectEventType } from "./catalog";

export const EVENTS_FANOUT_JOB = "events.fan-out";

/** Fan-out retries quickly: it only writes rows and jobs in our own database. */
export const FANOUT_RETRY = { retryLimit: 10, retryDelay: 2, retryBackoff: true } as const;

/**
 * Records one event of the catalogue. `dedupeKey` (e.g. the deployment's id) makes a job that
 * runs again after a crash write the event once; without it every call is an event. Returns the
 * event's id, or null when the key was already written. The payload is checked against the
 * catalogue's schema: a payload that does not match is our bug and throws.
 */
export async function emitProjectEvent<T extends ProjectEventType>(
  tx: Queryable,
  event: {
    projectId: string;
    type: T;
    payload: ProjectEventPayload<T>;
    dedupeKey?: string;
  },
): Promise<string | null> {
  const payload = EVENT_CATALOG[event.type].payload.parse(event.payload) as Record<string, unknown>;
  const [project] = await tx
    .select({ studioId: projects.studioId, name: projects.name })
    .from(projects)
    .where(eq(projects.id, event.projectId));
  // A project deleted meanwhile (a job finishing late) has nobody left to tell.
  if (!project) return null;
  const [row] = await tx
    .insert(projectEvents)
    .values({
      projectId: event.projectId,
      studioId: project.studioId,
      projectName: project.name,
      type: event.type,
      payload,
      dedupeKey: event.dedupeKey ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: projectEvents.id });
  if (!row) return null;
  await sendJob(EVENTS_FANOUT_JOB, { eventId: row.id }, FANOUT_RETRY, tx);
  return row.id;
}

/** The dashboard page a failed deployment's event links to: the retry page, or the permanent one. */
export function deploymentErrorPage(studioId: string, permanent: boolean) {
  return new URL(
    `/sites/${studioId}/${permanent ? "deployment-error" : "failed-deployment"}`,
    env().APP_URL + "/",
  ).toString();
}
