import { INTEGRATIONS } from "~/services/integrations";
import { Link } from "@remix-run/react";
import { SectionCard } from "~/components/ui/section-card";
import { LocalDate } from "~/components/local-date";
import { statusLabel } from "~/components/projects/project-status";
import { SITE_TYPE_LABEL } from "~/services/projects";
import type { ProjectView } from "./project-view";

/**
 * What the project has connected, per integration of the catalogue, with a link to manage it:
 * its Stripe accounts and its linked social accounts.
 */
export function ActiveIntegrations({
  studioId,
  paymentAccounts,
  socialAccounts,
}: {
  studioId: string;
  paymentAccounts: { id: string; accountName: string }[];
  socialAccounts: { id: string; userName: string }[];
}) {
  const summary = (slug: string) =>
    slug === "payments"
      ? paymentAccounts.length === 0
        ? "No Stripe account connected."
        : paymentAccounts.map((a) => a.accountName).join(", ")
      : socialAccounts.length === 0
        ? "No account linked."
        : socialAccounts.map((a) => `@${a.userName} (Instagram)`).join(", ");
  return (
    <SectionCard id="active-integrations" title="Active Integrations">
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {INTEGRATIONS.map((entry) => (
          <li key={entry.slug} className="flex flex-wrap items-start gap-3 py-3">
            <div className="min-w-0 flex-1">
              <p className="font-medium">{entry.name}</p>
              <p className="text-sm text-slate-600 dark:text-slate-300">{summary(entry.slug)}</p>
            </div>
            {entry.slug === "payments" ? (
              <Link
                to={`/sites/integrations/payments/${studioId}`}
                className="text-sm font-medium text-brand hover:underline"
              >
                Manage<span className="sr-only"> Stripe accounts</span>
              </Link>
            ) : (
              <a href="#social-accounts" className="text-sm font-medium text-brand hover:underline">
                Manage<span className="sr-only"> social accounts</span>
              </a>
            )}
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}

/** The Members section: app/components/members/members-section.tsx. */
export { MembersSection as Members } from "~/components/members/members-section";

/** What the project already knows, for the navigation pages. */
export function ProjectFacts({ project }: { project: ProjectView }) {
  const url = (value: string | null) =>
    value ? <span className="break-all">{value}</span> : "Not assigned yet";
  return (
    <dl className="grid max-w-3xl grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      <dt className="font-medium text-slate-600 dark:text-slate-300">Site URL</dt>
      <dd>{url(project.siteUrl)}</dd>
      <dt className="font-medium text-slate-600 dark:text-slate-300">Custom domain</dt>
      <dd>{project.siteCustomDomain ?? "None"}</dd>
      <dt className="font-medium text-slate-600 dark:text-slate-300">Published address</dt>
      <dd>{url(project.publishForgeSiteUrl)}</dd>
      <dt className="font-medium text-slate-600 dark:text-slate-300">Studio URL</dt>
      <dd>{url(project.studioCustomDomain ?? project.studioUrl)}</dd>
      <dt className="font-medium text-slate-600 dark:text-slate-300">Status</dt>
      <dd>
        Site: {statusLabel(project.siteCreationStatus)} · Studio:{" "}
        {statusLabel(project.studioCreationStatus)} · Build: {project.badge.label}
      </dd>
      <dt className="font-medium text-slate-600 dark:text-slate-300">Site type</dt>
      <dd>{SITE_TYPE_LABEL[project.siteType]}</dd>
      <dt className="font-medium text-slate-600 dark:text-slate-300">Schema version</dt>
      <dd>
        {project.schemaVersion}
        {project.stackshiftVersion ? ` (StackShift ${project.stackshiftVersion})` : ""}
      </dd>
      <dt className="font-medium text-slate-600 dark:text-slate-300">Created</dt>
      <dd>
        <LocalDate value={project.createdAt} />
      </dd>
      <dt className="font-medium text-slate-600 dark:text-slate-300">Sites</dt>
      <dd>
        {project.sites.length === 0 ? (
          "None yet"
        ) : (
          <ul className="space-y-1">
            {project.sites.map((site) => (
              <li key={site.provider}>
                <span className="font-medium capitalize">{site.provider}</span>
                {site.siteId ? ` · ${site.siteId}` : ""}
                {site.customDomain || site.url ? (
                  <span className="break-all"> · {site.customDomain ?? site.url}</span>
                ) : null}
                {" · "}
                {project.providers.find((p) => p.provider === site.provider)?.label}
              </li>
            ))}
          </ul>
        )}
      </dd>
    </dl>
  );
}
