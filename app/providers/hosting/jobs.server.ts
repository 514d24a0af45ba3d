import type { JobDefinition } from "~/jobs/types";
import { advanceLocalDeploy, LOCAL_ADVANCE_JOB } from "./local.server";

/**
 * Jobs of the local hosting provider: "local-hosting.advance" moves a deployment one state on
 * (queued -> building -> ready | error) and schedules the next step itself.
 */
export const hostingJobs: JobDefinition[] = [
  { name: LOCAL_ADVANCE_JOB, handler: advanceLocalDeploy },
];
