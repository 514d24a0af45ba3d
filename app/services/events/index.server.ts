/** What other areas may use of project events: emission, the catalogue and the fan-out job. */
import type { JobDefinition } from "~/jobs/types";
import { fanOutEvent } from "./consumers.server";
import { EVENTS_FANOUT_JOB } from "./emit.server";
import { EVENTS_PURGE_JOB, purgeOldEvents } from "./retention.server";

export { emitProjectEvent, deploymentErrorPage, EVENTS_FANOUT_JOB } from "./emit.server";
export { EVENT_RETENTION_DAYS } from "./retention.server";

export const eventJobs: JobDefinition[] = [
  { name: EVENTS_FANOUT_JOB, handler: (data) => fanOutEvent(String(data.eventId)) },
  // Hourly, so each run has little to delete.
  {
    name: EVENTS_PURGE_JOB,
    schedule: "23 * * * *",
    handler: async () => {
      await purgeOldEvents();
    },
  },
];
export * from "./emit.server";
