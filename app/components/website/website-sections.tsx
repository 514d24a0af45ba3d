import { Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { LocalDate } from "~/components/local-date";
import { SectionCard } from "~/components/ui/section-card";
import { urlWith } from "~/components/shell/shell-helpers";
import { buttonClass } from "~/components/ui/button";
import type { DeploymentView } from "~/services/deployments/index.server";
import type { WebsiteView } from "~/services/deployments/index.server";
import { TableHead } from "~/components/ui/table-head";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";

export const REDEPLOY_INTENT = "site-redeploy";
export const ROLLBACK_INTENT = "site-rollback";

const PROVIDER = { netlify: "Netlify", vercel: "Vercel" } as const;

function deploymentName(d: DeploymentView) {
  return d.title || d.commitRef?.slice(0, 7) || d.id;
}

/**
 * The Website page: where the site is served, what is published, Redeploy (?dialog=redeploy)
 * and Roll back to an earlier ready deployment (?rollback={id}), each through a confirmation.
 */
export function WebsiteSections({ view }: { view: WebsiteView }) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const back = urlWith(location.pathname, location.search, { dialog: null, rollback: null });
  const close = () => navigate(back, { replace: true, preventScrollReset: true });
  const target = view.rollbackTargets.find((d) => d.id === searchParams.get("rollback"));
  return (
    <div className="space-y-6">
      <SectionCard id="site-addresses" title="Addresses">
        {view.sites.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">The site is being created.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Where the site is served</caption>
            <TableHead columns={["Provider", "Address", "Custom domain"]} />
            <tbody>
              {view.sites.map((s) => (
                <tr key={s.provider} className="border-t border-slate-200 dark:border-slate-800">
                  <th scope="row" className="py-2 pr-3 font-medium">
                    {PROVIDER[s.provider]}
                  </th>
                  <td className="break-all py-2 pr-3">
                    {s.url ? (
                      <a
                        href={s.url}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="text-brand hover:underline"
                      >
                        {s.url}
                        <span className="sr-only"> (opens in a new tab)</span>
                      </a>
                    ) : (
                      "Not assigned yet"
                    )}
                  </td>
                  <td className="py-2">{s.customDomain ?? "None"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </SectionCard>

      <SectionCard id="published-deployment" title="Published deployment">
        {view.error ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {view.error}
          </p>
        ) : view.published ? (
          <p className="text-sm">
            <strong>{deploymentName(view.published)}</strong>{" "}
            <span className="text-slate-600 dark:text-slate-300">
              ({view.published.status}
              {view.published.createdAt ? (
                <>
                  , <LocalDate value={view.published.createdAt} />
                </>
              ) : null}
              )
            </span>
          </p>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-300">Nothing is published yet.</p>
        )}
        {view.canRedeploy ? (
          <Link
            to={urlWith(location.pathname, location.search, { dialog: "redeploy" })}
            preventScrollReset
            className={buttonClass("primary")}
          >
            Redeploy
          </Link>
        ) : null}
      </SectionCard>

      <SectionCard id="earlier-deployments" title="Earlier deployments">
        {view.rollbackTargets.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            No earlier ready deployment to roll back to.
          </p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {view.rollbackTargets.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center gap-3 py-2 text-sm">
                <span className="min-w-0 flex-1">
                  {deploymentName(d)}
                  {d.createdAt ? (
                    <span className="text-slate-600 dark:text-slate-300">
                      {" "}
                      · <LocalDate value={d.createdAt} />
                    </span>
                  ) : null}
                </span>
                {view.canRollback ? (
                  <Link
                    to={urlWith(location.pathname, location.search, { rollback: d.id })}
                    preventScrollReset
                    className={buttonClass("secondary", "px-3 py-1")}
                  >
                    Roll back<span className="sr-only"> to {deploymentName(d)}</span>
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </SectionCard>

      {searchParams.get("dialog") === "redeploy" && view.canRedeploy ? (
        <ConfirmDialog
          title="Redeploy the website?"
          description="A new production deployment is built from the site's repository and published when it is ready."
          intent={REDEPLOY_INTENT}
          confirmLabel="Yes, redeploy"
          busyLabel="Starting..."
          danger={false}
          back={back}
          onClose={close}
        />
      ) : null}
      {target && view.canRollback ? (
        <ConfirmDialog
          title={`Roll back to ${deploymentName(target)}?`}
          description="This earlier deployment is published again at once; the current one stays in the list."
          intent={ROLLBACK_INTENT}
          fields={{ deployId: target.id }}
          confirmLabel="Yes, roll back"
          busyLabel="Rolling back..."
          back={back}
          onClose={close}
        />
      ) : null}
    </div>
  );
}
