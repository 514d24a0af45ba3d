/** What other areas may use of project events: emission, the catalogue and the fan-out job. */
import type { JobDefinition } from "~/jobs/types";
import { fanOutEvent } from "./consumers.server";
import { EVENTS_FANOUT_JOB } from "./emit.server";

export { emitProjectEvent, deploymentErrorPage, EVENTS_FANOUT_JOB } from "./emit.server";
export * from "./catalog";

export const eventJobs: JobDefinition[] = [
  { name: EVENTS_FANOUT_JOB, handler: (data) => fanOutEvent(String(data.eventId)) },
];
