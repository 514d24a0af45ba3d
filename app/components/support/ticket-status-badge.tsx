import { Badge } from "~/components/ui/badge";
import { STATUS_LABEL, type TicketStatus } from "~/services/support-desk";

const TONE = {
  open: "blue",
  in_progress: "yellow",
  on_hold: "gray",
  resolved: "green",
} as const satisfies Record<TicketStatus, string>;

/** A ticket's status as a coloured label: Open, In Progress, On Hold, Resolved. */
export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  return <Badge tone={TONE[status]}>{STATUS_LABEL[status]}</Badge>;
}
