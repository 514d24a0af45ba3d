import { Link } from "@remix-run/react";
import { useId, type ReactNode } from "react";
import { externalUrl } from "~/services/projects";
import type { ProjectView } from "./project-view";
import { StatusBadges } from "./status-badges";

/** Only http(s) or same-site path images; anything else shows the placeholder. */
function previewSrc(url: string | null | undefined) {
  if (url && /^\/[^/\\]/.test(url)) return url;
  return externalUrl(url);
}

/** The site's screenshot from its latest deployment, or a neutral placeholder. */
export function PreviewImage({
  name,
  screenshotUrl,
}: {
  name: string;
  screenshotUrl?: string | null;
}) {
  const src = previewSrc(screenshotUrl);
  const box =
    "aspect-video w-full max-w-sm shrink-0 overflow-hidden rounded-lg border border-slate-200 bg-slate-100 dark:border-slate-800 dark:bg-slate-800";
  if (src) {
    return (
      <div className={box}>
        <img
          src={src}
          alt={`Preview of ${name}`}
          className="h-full w-full object-cover object-top"
          loading="lazy"
        />
      </div>
    );
  }
  return (
    <div
      role="img"
      aria-label={`No preview of ${name} yet`}
      className={`${box} flex items-center justify-center text-slate-400`}
    >
      <svg viewBox="0 0 24 24" className="h-12 w-12" fill="none" aria-hidden="true">
        <rect x="3" y="4" width="18" height="16" rx="2" stroke="currentColor" strokeWidth="1.5" />
        <path d="M3 8h18" stroke="currentColor" strokeWidth="1.5" />
        <circle cx="6" cy="6" r="0.75" fill="currentColor" />
        <circle cx="8.5" cy="6" r="0.75" fill="currentColor" />
      </svg>
    </div>
  );
}

const visitClass =
  "inline-flex items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-900 hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800";

/**
 * Visit or Studio before the site or studio is ready: shown, marked unavailable, with the reason
 * as its accessible description (and on screen). Focusable, so keyboard users hear why.
 */
function UnavailableAction({ label, reason }: { label: string; reason: string }) {
  const id = useId();
  return (
    <span className="inline-flex flex-col gap-1">
      <button
        type="button"
        aria-disabled="true"
        aria-describedby={id}
        className={`${visitClass} cursor-not-allowed opacity-60`}
      >
        {label}
      </button>
      <span id={id} className="text-xs text-slate-600 dark:text-slate-300">
        {reason}
      </span>
    </span>
  );
}

/**
 * Preview, name, domain, status badges, 'Visit' and the studio launch (`studio`: the
 * StudioActivation component, 'Take me to Studio' or the activation note; null for support),
 * each shown unavailable with its reason until the site or studio is ready.
 */
export function DashboardHeader({
  project,
  screenshotUrl,
  studio,
}: {
  project: ProjectView;
  screenshotUrl: string | null;
  studio: ReactNode;
}) {
  const domain = project.siteCustomDomain || project.siteUrl;
  return (
    <header className="flex flex-col gap-6 md:flex-row">
      <PreviewImage name={project.name} screenshotUrl={screenshotUrl} />
      <div className="min-w-0 flex-1 space-y-3">
        <h1 className="break-words text-2xl font-semibold">{project.name}</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          <span className="font-medium">Domain: </span>
          {domain ? <span className="break-all">{domain}</span> : "Not assigned yet"}
        </p>
        <StatusBadges badge={project.badge} live={project.live} upgradeTo={project.upgradeTo} />
        <div className="flex flex-wrap items-start gap-3">
          {project.address ? (
            <a
              href={project.address}
              target="_blank"
              rel="noopener noreferrer"
              className={visitClass}
            >
              Visit<span className="sr-only"> {project.name} (opens in a new tab)</span>
            </a>
          ) : (
            <UnavailableAction label="Visit" reason="The site is not published yet." />
          )}
          {studio === null ? (
            <UnavailableAction
              label="Studio"
              reason="Support access does not open the customer's studio."
            />
          ) : project.studioCreationStatus === "failed" ? (
            <UnavailableAction label="Studio" reason="The content studio could not be set up." />
          ) : project.studioCreationStatus === "pending" ? (
            // Until the studio exists there is no invitation to accept and nothing to open.
            <UnavailableAction label="Studio" reason="The content studio is still being set up." />
          ) : (
            <div className="min-w-0 flex-1">{studio}</div>
          )}
        </div>
      </div>
    </header>
  );
}

/**
 * Site creation failed: a banner to the failed-deployment page (retry), or to the permanent
 * error page once the retries are used up.
 */
export function FailureBanner({ studioId, permanent }: { studioId: string; permanent: boolean }) {
  const base = `/sites/${encodeURIComponent(studioId)}`;
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      {permanent ? (
        <p>
          <strong>The deployment of this site has a permanent error.</strong> Our team handles it
          manually.{" "}
          <Link to={`${base}/deployment-error`} className="font-semibold underline">
            See the deployment error
          </Link>
        </p>
      ) : (
        <p>
          <strong>The deployment of this site failed.</strong>{" "}
          <Link to={`${base}/failed-deployment`} className="font-semibold underline">
            See what happened and retry the deployment
          </Link>
        </p>
      )}
    </div>
  );
}

/**
 * A platform admin on a project they have no role in (support access, decision 011): says what they
 * may do here and that the customer sees the visit in the Activity Log.
 */
export function SupportBanner({ ownerName }: { ownerName: string }) {
  return (
    <aside
      aria-label="Support access"
      className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p>
        <strong>Support access.</strong> You are viewing {ownerName || "a customer"}&apos;s project
        as a platform admin. You can manage members and the domain; deploying and the content studio
        stay with the project&apos;s team. This visit and every change you make are recorded in the
        project&apos;s Activity Log.
      </p>
    </aside>
  );
}
