import { Link, useFetchers, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { LocalDate } from "~/components/local-date";
import { SectionCard } from "~/components/ui/section-card";
import { UpgradeBadge } from "~/components/project-dashboard/status-badges";
import { urlWith } from "~/components/shell/shell-helpers";
import { Badge } from "~/components/ui/badge";
import { buttonClass } from "~/components/ui/button";
import { UNVERIFIED_DOMAIN_DAYS } from "~/services/domains";
import type { DomainSettingsView, SiteDomain } from "~/services/domains/index.server";
import { SCHEMA_VERSION_DOMAINS } from "~/services/projects";
import { LazyDomainDialog } from "./domain-dialog.lazy";
import { TableHead } from "~/components/ui/table-head";

export const PROVIDER_LABEL = { netlify: "Netlify", vercel: "Vercel" } as const;
import { DOMAIN_INTENT } from "./domain-intent";

/**
 * Domain Settings on the dashboard: each site's custom domain (before schema version 3 only the
 * primary site's), its status, SSL and the DNS records to create at the registrar. Admins, the
 * owner and platform admins get 'Edit', which opens the dialog (`?domain=edit`, so it also opens
 * without JavaScript); everyone else reads.
 */
export function DomainSettings({
  studioId,
  schemaVersion,
  settings,
}: {
  studioId: string;
  schemaVersion: number;
  settings: DomainSettingsView;
}) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const editing = searchParams.get("domain") === "edit";
  const askedProvider = searchParams.get("provider");
  const editedSite =
    settings.sites.find((s) => s.provider === askedProvider) ??
    settings.sites.find((s) => s.primary);
  const back = urlWith(location.pathname, location.search, { domain: null, provider: null });
  // While the dialog saves, its domain shows here as pending.
  const saving = useFetchers().find((f) => f.formData?.get("intent") === DOMAIN_INTENT);
  const savingProvider = saving?.formData?.get("provider") ?? editedSite?.provider;

  return (
    <SectionCard id="domain-settings" title="Domain Settings">
      {!settings.perSite ? <UpgradeBadge required={SCHEMA_VERSION_DOMAINS} /> : null}
      {settings.sites.map((site) => {
        const pending =
          saving && savingProvider === site.provider
            ? String(saving.formData?.get("domain") ?? "")
                .trim()
                .toLowerCase()
            : undefined;
        return (
          <SiteDomainBlock
            key={site.provider}
            site={site}
            perSite={settings.perSite}
            savingDomain={pending}
            editLink={
              settings.canEdit && site.siteId
                ? urlWith(location.pathname, location.search, {
                    domain: "edit",
                    provider: settings.perSite ? site.provider : null,
                  })
                : null
            }
          />
        );
      })}
      {editing && settings.canEdit && editedSite?.siteId ? (
        <LazyDomainDialog
          studioId={studioId}
          site={editedSite}
          perSite={settings.perSite}
          schemaVersion={schemaVersion}
          back={back}
          onClose={() => navigate(back, { replace: true, preventScrollReset: true })}
        />
      ) : null}
    </SectionCard>
  );
}

function StatusBadge({ status }: { status: SiteDomain["status"] }) {
  if (status === "verified") return <Badge tone="green">Verified</Badge>;
  return <Badge tone="yellow">Pending</Badge>;
}

function SiteDomainBlock({
  site,
  perSite,
  savingDomain,
  editLink,
}: {
  site: SiteDomain;
  perSite: boolean;
  /** Set while the dialog saves this site's domain ("" while reverting). */
  savingDomain: string | undefined;
  editLink: string | null;
}) {
  const domain = savingDomain === undefined ? site.domain : savingDomain || null;
  const status = savingDomain === undefined ? site.status : "pending";
  const headingId = `domain-site-${site.provider}`;
  return (
    <div className="space-y-3" aria-labelledby={perSite ? headingId : undefined} role="group">
      {perSite ? (
        <h3 id={headingId} className="font-medium">
          {PROVIDER_LABEL[site.provider]}
          {site.primary ? " (primary site)" : ""}
        </h3>
      ) : null}
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="font-medium">Custom domain</dt>
        <dd className="flex flex-wrap items-center gap-2 break-all">
          {domain ?? "None"}
          {domain ? <StatusBadge status={status} /> : null}
        </dd>
        {domain ? (
          <>
            <dt className="font-medium">SSL</dt>
            <dd>{site.ssl && !savingDomain ? "Certificate issued" : "Waiting for verification"}</dd>
            {site.checkedAt ? (
              <>
                <dt className="font-medium">Last checked</dt>
                <dd>
                  <LocalDate value={site.checkedAt} style="dateTime" />
                </dd>
              </>
            ) : null}
          </>
        ) : null}
        <dt className="font-medium">Site address</dt>
        <dd className="break-all">{site.url ?? "Not assigned yet"}</dd>
      </dl>
      {domain && status === "pending" ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Verification in progress: create these records at your domain registrar. The status
          updates here once the hosting provider sees them. If it does not see them within{" "}
          {UNVERIFIED_DOMAIN_DAYS} days of the domain being set, the domain is released.
        </p>
      ) : null}
      {site.error ? (
        <p className="text-sm text-red-700 dark:text-red-400" role="status">
          {site.error}
        </p>
      ) : null}
      {domain && site.records.length > 0 && savingDomain === undefined ? (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">DNS records for {domain}</caption>
          <TableHead columns={["Type", "Name", "Value"]} />
          <tbody>
            {site.records.map((record) => (
              <tr key={`${record.type}:${record.name}:${record.value}`}>
                <td className="py-1 pr-4">{record.type}</td>
                <td className="py-1 pr-4 font-mono">{record.name}</td>
                <td className="break-all py-1 font-mono">{record.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {editLink ? (
        <Link
          to={editLink}
          replace
          preventScrollReset
          className={buttonClass("secondary")}
          aria-label={`Edit the custom domain${perSite ? ` of the ${PROVIDER_LABEL[site.provider]} site` : ""}`}
        >
          Edit
        </Link>
      ) : null}
    </div>
  );
}
