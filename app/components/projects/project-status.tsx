import { StatusBadges } from "~/components/project-dashboard/status-badges";
import type { ProjectSummary } from "~/services/projects/index.server";

const CREATION_STATUS: Record<string, string> = {
  pending: "Pending",
  created: "Created",
  deployed: "Deployed",
  success: "Ready",
  failed: "Failed",
};

/** A raw creation status as words (the dashboard's details line); badges are derived instead. */
export function statusLabel(status: string) {
  return CREATION_STATUS[status] ?? status;
}

/**
 * A project's badges in the list: the same derivation (project-status.ts) and component as the
 * dashboard: 'New' in its first day, the build state, 'Live', 'UPGRADE REQUIRED'.
 */
export function ProjectStatus({
  project,
}: {
  project: Pick<ProjectSummary, "badge" | "live" | "upgradeTo">;
}) {
  return <StatusBadges badge={project.badge} live={project.live} upgradeTo={project.upgradeTo} />;
}
