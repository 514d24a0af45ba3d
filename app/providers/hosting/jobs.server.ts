import type { JobDefinition } from "~/jobs/types";
import { advanceLocalDeploy } from "./local/progress.server";
import { LOCAL_ADVANCE_JOB } from "./local/shared.server";

/**
 * Jobs of the local hosting provider: "local-hosting.advance" moves a deployment one state on
 * (queued -> building -> ready | error) and schedules the next step itself.
 */
export const hostingJobs: JobDefinition[] = [
  { name: LOCAL_ADVANCE_JOB, handler: advanceLocalDeploy },
];
