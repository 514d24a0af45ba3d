import { Badge } from "~/components/ui/badge";

type Tone = "gray" | "green" | "yellow" | "red" | "blue";

const STATUS: Record<string, { label: string; tone: Tone }> = {
  pending: { label: "Pending", tone: "yellow" },
  created: { label: "Created", tone: "blue" },
  deployed: { label: "Deployed", tone: "blue" },
  success: { label: "Ready", tone: "green" },
  failed: { label: "Failed", tone: "red" },
};

/** A creation status as words; the derived build badge of spec section 4 comes with the dashboard. */
export function statusLabel(status: string) {
  return STATUS[status]?.label ?? status;
}

export function ProjectStatus({
  siteCreationStatus,
  siteCustomDomain,
}: {
  siteCreationStatus: string;
  siteCustomDomain: string | null;
}) {
  const status = STATUS[siteCreationStatus] ?? { label: siteCreationStatus, tone: "gray" as const };
  return (
    <span className="inline-flex items-center gap-2">
      <Badge tone={status.tone}>{status.label}</Badge>
      {/* Spec section 2: 'Live' when the site was created and has its own domain. */}
      {siteCreationStatus === "success" && siteCustomDomain ? (
        <Badge tone="green">Live</Badge>
      ) : null}
    </span>
  );
}

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

/** UTC, so the server's render and the browser's hydration print the same day. */
export function formatDate(iso: string) {
  return dateFormat.format(new Date(iso));
}
