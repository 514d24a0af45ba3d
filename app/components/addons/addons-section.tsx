import { Form, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { Section } from "~/components/project-dashboard/project-sections";
import { UpgradeBadge } from "~/components/project-dashboard/status-badges";
import { urlWith } from "~/components/shell/shell-helpers";
import { Badge } from "~/components/ui/badge";
import { ADDONS, isAddonKey } from "~/services/addon-catalog";
import type { AddonsView } from "~/services/addons.server";
import { SCHEMA_VERSION_THEME_PREVIEW, upgradeRequired } from "~/services/project-status";
import { LazyAddonDialog } from "./addon-dialog.lazy";

/**
 * The Add-ons cards: each add-on's description and state, and for the owner and member admins a
 * labelled switch. The switch asks first: it opens the confirmation (`?addon={key}`), a GET form
 * button, so it leads to the same confirmation without JavaScript. A gated card says which
 * StackShift version it needs; other viewers see the state only.
 */
export function AddonsSection({
  studioId,
  schemaVersion,
  view,
}: {
  studioId: string;
  schemaVersion: number;
  view: AddonsView;
}) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const asked = searchParams.get("addon");
  const confirming = isAddonKey(asked) ? view.cards.find((c) => c.key === asked) : undefined;
  const back = urlWith(location.pathname, location.search, { addon: null });
  return (
    <Section id="add-ons" title="Add-ons">
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
        <li className="flex flex-wrap items-center gap-2 py-3">
          <span className="flex-1 font-medium">Theme Preview</span>
          {upgradeRequired(schemaVersion, SCHEMA_VERSION_THEME_PREVIEW) ? (
            <UpgradeBadge required={SCHEMA_VERSION_THEME_PREVIEW} />
          ) : null}
        </li>
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
    </Section>
  );
}
