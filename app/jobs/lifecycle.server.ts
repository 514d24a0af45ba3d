import type { JobDefinition } from "./types";

/** Provisioning, deployment polling, automatic deployment. */
export const lifecycleJobs: JobDefinition[] = [];
