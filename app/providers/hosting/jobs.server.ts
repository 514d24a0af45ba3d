import type { JobDefinition } from "~/jobs/types";

/** Jobs of the local hosting provider (deployments progressing over time). */
export const hostingJobs: JobDefinition[] = [];
