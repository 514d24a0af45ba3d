import { DEPLOY_JOB, POLL_JOB, PROVISION_JOB, SWEEP_JOB } from "~/services/lifecycle/index.server";
import { deployProject } from "~/services/lifecycle/index.server";
import { pollProject } from "~/services/lifecycle/index.server";
import { provisionProject } from "~/services/lifecycle/index.server";
import { runLifecycleSweep } from "~/services/lifecycle/index.server";
import type { JobDefinition } from "./types";

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * Provisioning, deployment polling, deployments on request and the sweep (automatic deployment,
 * resuming work a dead instance left behind). The rules live in app/services/lifecycle/.
 */
export const lifecycleJobs: JobDefinition[] = [
  { name: PROVISION_JOB, handler: (data) => provisionProject(text(data.projectId)) },
  {
    name: POLL_JOB,
    // Every deploying project polls every few seconds: ten at a time, or sixty projects deploying
    // at once wait in line (measured: 78 s to finish them at one at a time).
    batchSize: 10,
    handler: (data) =>
      pollProject({
        projectId: text(data.projectId),
        ...(text(data.deployId) ? { deployId: text(data.deployId) } : {}),
      }),
  },
  {
    name: DEPLOY_JOB,
    handler: (data) =>
      deployProject({ projectId: text(data.projectId), triggerKey: text(data.triggerKey) }),
  },
  // Every minute on one instance of the cluster; between ticks it re-enqueues itself (10 s).
  { name: SWEEP_JOB, handler: () => runLifecycleSweep(), schedule: "* * * * *" },
];
