import type { ReactNode } from "react";
import { LocalDate } from "~/components/local-date";
import { statusLabel } from "~/components/projects/project-status";
import { Badge } from "~/components/ui/badge";
import {
  SCHEMA_VERSION_CARDS,
  SCHEMA_VERSION_DOMAINS,
  SCHEMA_VERSION_END_TO_END_TESTS,
  SCHEMA_VERSION_THEME_PREVIEW,
  upgradeRequired,
} from "~/services/project-status";
import { SITE_TYPE_LABEL } from "~/services/projects.schema";
import type { ProjectView } from "./project-view";
import { UpgradeBadge } from "./status-badges";

export function Section({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function ComingSoon({ children }: { children: ReactNode }) {
  return <p className="text-sm text-slate-600 dark:text-slate-300">{children}</p>;
}

export function DomainSettings({ project }: { project: ProjectView }) {
  return (
    <Section id="domain-settings" title="Domain Settings">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="font-medium">Custom domain</dt>
        <dd className="break-all">{project.siteCustomDomain ?? "None"}</dd>
        <dt className="font-medium">Site address</dt>
        <dd className="break-all">{project.siteUrl ?? "Not assigned yet"}</dd>
      </dl>
      {upgradeRequired(project.schemaVersion, SCHEMA_VERSION_DOMAINS) ? (
        <UpgradeBadge required={SCHEMA_VERSION_DOMAINS} />
      ) : null}
      <ComingSoon>Coming soon: setting and reverting a custom domain here.</ComingSoon>
    </Section>
  );
}

const ADDONS: { key: keyof ProjectView["addons"]; label: string; requires?: number }[] = [
  { key: "ecommerce", label: "Ecommerce" },
  { key: "aiNewsletter", label: "AI Newsletter", requires: SCHEMA_VERSION_CARDS },
  { key: "socialMedia", label: "Social Media", requires: SCHEMA_VERSION_CARDS },
  { key: "gpt", label: "GPT", requires: SCHEMA_VERSION_CARDS },
  { key: "visualTests", label: "Visual Tests" },
  { key: "endToEndTests", label: "End To End Tests", requires: SCHEMA_VERSION_END_TO_END_TESTS },
];

export function AddOns({ project }: { project: ProjectView }) {
  return (
    <Section id="add-ons" title="Add-ons">
      <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
        {ADDONS.map((addon) => (
          <li key={addon.key} className="flex flex-wrap items-center gap-2 py-2">
            <span className="flex-1 font-medium">{addon.label}</span>
            {addon.requires && upgradeRequired(project.schemaVersion, addon.requires) ? (
              <UpgradeBadge required={addon.requires} />
            ) : null}
            {project.addons[addon.key] ? (
              <Badge tone="green">Enabled</Badge>
            ) : (
              <Badge>Disabled</Badge>
            )}
          </li>
        ))}
        <li className="flex flex-wrap items-center gap-2 py-2">
          <span className="flex-1 font-medium">Theme Preview</span>
          {upgradeRequired(project.schemaVersion, SCHEMA_VERSION_THEME_PREVIEW) ? (
            <UpgradeBadge required={SCHEMA_VERSION_THEME_PREVIEW} />
          ) : null}
        </li>
      </ul>
      <ComingSoon>Coming soon: enabling and disabling add-ons here.</ComingSoon>
    </Section>
  );
}

export function ActiveIntegrations() {
  return (
    <Section id="active-integrations" title="Active Integrations">
      <ComingSoon>Coming soon: the integrations connected to this project.</ComingSoon>
    </Section>
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
