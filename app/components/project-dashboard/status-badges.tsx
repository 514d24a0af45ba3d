import { useId } from "react";
import { Badge } from "~/components/ui/badge";
import { upgradeTooltip, type BuildState, type ProjectBadge } from "~/services/projects";
import { usePopups } from "~/utils/page-load";

/** The build state's colour, wherever a badge shows it. */
export const STATE_TONE: Record<BuildState, "blue" | "yellow" | "green" | "red"> = {
  building: "blue",
  "getting-ready": "yellow",
  ready: "green",
  error: "red",
};

/** 'UPGRADE REQUIRED' with the tooltip 'StackShift v{n} required'. */
export function UpgradeBadge({ required }: { required: number }) {
  const popups = usePopups();
  const id = useId();
  const text = upgradeTooltip(required);
  // Before JavaScript (and until Radix is loaded): the native title and a described-by text.
  // After: Radix's tooltip on hover and focus (the title is dropped so two tooltips do not show).
  const badge = (
    <span
      tabIndex={0}
      title={popups ? undefined : text}
      aria-describedby={`${id}-text`}
      className="inline-flex rounded-full focus:outline-none focus-visible:ring-2 focus-visible:ring-brand"
    >
      <Badge tone="red">UPGRADE REQUIRED</Badge>
      <span id={`${id}-text`} className="sr-only">
        {text}
      </span>
    </span>
  );
  if (!popups) return badge;
  const { Tooltip } = popups;
  return (
    <Tooltip.Provider delayDuration={200}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>{badge}</Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content
            sideOffset={4}
            className="z-50 rounded-md bg-slate-900 px-2 py-1 text-xs text-white shadow dark:bg-slate-100 dark:text-slate-900"
          >
            {text}
            <Tooltip.Arrow className="fill-slate-900 dark:fill-slate-100" />
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}

/** The project's status badges: state, New, Live and UPGRADE REQUIRED. */
export function StatusBadges({
  badge,
  live,
  upgradeTo,
}: {
  badge: ProjectBadge;
  live: boolean;
  upgradeTo: number | null;
}) {
  return (
    <ul aria-label="Status" className="flex flex-wrap items-center gap-2">
      {badge.isNew ? (
        <li>
          <Badge tone="blue">New</Badge>
        </li>
      ) : null}
      <li>
        <Badge tone={STATE_TONE[badge.state]}>{badge.label}</Badge>
      </li>
      {live ? (
        <li>
          <Badge tone="green">Live</Badge>
        </li>
      ) : null}
      {upgradeTo !== null ? (
        <li>
          <UpgradeBadge required={upgradeTo} />
        </li>
      ) : null}
    </ul>
  );
}
