import { Form, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { SectionCard } from "~/components/ui/section-card";
import { UpgradeBadge } from "~/components/project-dashboard/status-badges";
import { urlWith } from "~/components/shell/shell-helpers";
import { Badge } from "~/components/ui/badge";
import { ADDONS, isAddonKey } from "~/services/addons";
import type { AddonsView } from "~/services/addons/index.server";
import { relativeTime } from "~/components/activity/activity-log";
import { LaunchStudioButton } from "~/components/studio/launch-studio-button";
import type { TestRunsView } from "~/services/deployments/index.server";
import { LazyAddonDialog } from "./addon-dialog.lazy";
import { TableHead } from "~/components/ui/table-head";

/**
 * The Add-ons cards: each add-on's description and state, and for the owner and member admins a
 * labelled switch. The switch asks first: it opens the confirmation (`?addon={key}`), a GET form
 * button, so it leads to the same confirmation without JavaScript. A gated card says which
 * StackShift version it needs; other viewers see the state only.
 */
export function AddonsSection({
  studioId,
  view,
  now,
}: {
  studioId: string;
  view: AddonsView;
  /** The loader's clock, so the server's and the browser's "x hours ago" agree. */
  now: string;
}) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const asked = searchParams.get("addon");
  const confirming = isAddonKey(asked) ? view.cards.find((c) => c.key === asked) : undefined;
  const back = urlWith(location.pathname, location.search, { addon: null });
  return (
    <SectionCard id="add-ons" title="Add-ons">
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {view.cards.map((card) => {
          const addon = ADDONS[card.key];
          const descriptionId = `addon-${card.key}-description`;
          return (
            <li key={card.key} className="flex flex-wrap items-start gap-3 py-3">
              <div className="min-w-0 flex-1">
                <p className="font-medium">{addon.label}</p>
                <p id={descriptionId} className="text-sm text-slate-600 dark:text-slate-300">
                  {addon.description}
                </p>
                {card.requires ? (
                  <p className="mt-1 text-sm">
                    <UpgradeBadge required={card.requires} /> Needs StackShift version{" "}
                    {card.requires} or later.
                  </p>
                ) : null}
                {card.key === "endToEndTests" && view.testRuns ? (
                  <TestRuns runs={view.testRuns} now={now} />
                ) : null}
              </div>
              {view.canToggle && !(card.requires && !card.enabled) ? (
                <Form method="get" preventScrollReset replace>
                  <input type="hidden" name="addon" value={card.key} />
                  <button
                    type="submit"
                    role="switch"
                    aria-checked={card.enabled}
                    aria-label={addon.label}
                    aria-describedby={descriptionId}
                    className="relative inline-flex h-6 w-11 items-center rounded-full bg-slate-300 transition aria-checked:bg-brand focus:outline-none focus-visible:ring-2 focus-visible:ring-brand focus-visible:ring-offset-2 dark:bg-slate-700"
                  >
                    <span
                      aria-hidden="true"
                      className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${card.enabled ? "translate-x-5" : "translate-x-0.5"}`}
                    />
                  </button>
                </Form>
              ) : (
                <span>
                  {card.enabled ? <Badge tone="green">Enabled</Badge> : <Badge>Disabled</Badge>}
                </span>
              )}
            </li>
          );
        })}
        <ToolRow
          studioId={studioId}
          target="theme-preview"
          label="Theme Preview"
          description="The site with the theme settings you are editing, before you publish them."
          allowed={view.tools.themePreview}
          requires={view.tools.themePreviewRequires}
        />
        <ToolRow
          studioId={studioId}
          target="dev-console"
          label="Dev Console"
          description="The studio's developer tools: queries, schema and the site's configuration."
          allowed={view.tools.devConsole}
          requires={null}
        />
      </ul>
      {confirming && view.canToggle ? (
        <LazyAddonDialog
          studioId={studioId}
          projectName={view.projectName}
          card={confirming}
          back={back}
          onClose={() => navigate(back, { replace: true, preventScrollReset: true })}
        />
      ) : null}
    </SectionCard>
  );
}

/**
 * Theme Preview and Dev Console: a launch button (a new window through a two-minute signed link,
 * as the studio opens) for those who may; the reason when the project's version is too old.
 */
function ToolRow({
  studioId,
  target,
  label,
  description,
  allowed,
  requires,
}: {
  studioId: string;
  target: "theme-preview" | "dev-console";
  label: string;
  description: string;
  allowed: boolean;
  requires: number | null;
}) {
  return (
    <li className="flex flex-wrap items-start gap-3 py-3">
      <div className="min-w-0 flex-1">
        <p className="font-medium">{label}</p>
        <p className="text-sm text-slate-600 dark:text-slate-300">{description}</p>
        {requires ? (
          <p className="mt-1 text-sm">
            <UpgradeBadge required={requires} /> Needs StackShift version {requires} or later.
          </p>
        ) : null}
      </div>
      {allowed && !requires ? (
        <LaunchStudioButton
          studioId={studioId}
          target={target}
          label={`Open ${label}`}
          variant="secondary"
        />
      ) : null}
    </li>
  );
}

const CONCLUSION_TONE: Record<string, "green" | "red" | "gray" | "yellow"> = {
  success: "green",
  failure: "red",
  timed_out: "red",
  cancelled: "gray",
  skipped: "gray",
};

/** The latest runs of the site repository's workflows, or why there are none. */
function TestRuns({ runs, now }: { runs: TestRunsView; now: string }) {
  if (runs.error !== null) {
    return (
      <div role="status" className="mt-2 rounded-md bg-yellow-50 p-3 text-sm dark:bg-yellow-950">
        <p className="font-medium">{runs.error}</p>
        <p className="text-slate-700 dark:text-slate-200">
          Check that the site&apos;s repository
          {runs.repo ? ` (${runs.repo})` : ""} has the Playwright GitHub workflow, then try again.
        </p>
      </div>
    );
  }
  if (runs.runs.length === 0) {
    return <p className="mt-2 text-sm">No runs yet in {runs.repo}.</p>;
  }
  const reference = new Date(now);
  return (
    <table className="mt-2 w-full text-left text-sm">
      <caption className="sr-only">Latest End To End Tests runs of {runs.repo}</caption>
      <TableHead columns={["Run", "Branch", "Result", "Updated"]} />
      <tbody>
        {runs.runs.map((run) => (
          <tr key={run.id} className="border-t border-slate-200 dark:border-slate-800">
            <td className="py-1 pr-2">
              <a
                href={run.url}
                target="_blank"
                rel="noreferrer"
                className="text-brand underline-offset-2 hover:underline"
              >
                {run.title}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </td>
            <td className="py-1 pr-2">{run.branch ?? "-"}</td>
            <td className="py-1 pr-2">
              <Badge tone={CONCLUSION_TONE[run.conclusion ?? ""] ?? "yellow"}>
                {run.conclusion ?? run.status.replace("_", " ")}
              </Badge>
            </td>
            <td className="py-1">
              <time dateTime={run.updatedAt}>{relativeTime(run.updatedAt, reference)}</time>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
