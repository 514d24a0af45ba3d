import type { ReactNode } from "react";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import type { RequestCardView } from "./format";

const STATUS = {
  Pending: { tone: "yellow", label: "Pending" },
  Rejected: { tone: "red", label: "Rejected" },
  Approved: { tone: "green", label: "APPROVED" },
} as const;

export function StatusBadge({ status }: { status: RequestCardView["status"] }) {
  const { tone, label } = STATUS[status];
  return <Badge tone={tone}>{label}</Badge>;
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
        {label}
      </dt>
      <dd className="mt-0.5 break-words">{children}</dd>
    </div>
  );
}

const muted = "text-slate-500 dark:text-slate-400";
const notSpecified = <span className={muted}>Not specified</span>;

/** One request on the request-access admin page (/admin, 'Manage Requests'). */
export function RequestCard({
  request,
  approveHref,
  rejectHref,
}: {
  request: RequestCardView;
  approveHref: string;
  rejectHref: string;
}) {
  const name = request.fullName || "Unnamed";
  const headingId = `request-${request.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {name}
        </h2>
        {request.isNew ? <Badge tone="blue">New</Badge> : null}
        <StatusBadge status={request.status} />
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <Item label="Business email">
          {request.businessEmail ? (
            <a className="text-brand underline" href={`mailto:${request.businessEmail}`}>
              {request.businessEmail}
            </a>
          ) : (
            <span className={muted}>Not specified...</span>
          )}
        </Item>
        <Item label="Company">{request.companyName || notSpecified}</Item>
        <Item label="Website">
          {request.websiteHref ? (
            <a
              className="text-brand underline"
              href={request.websiteHref}
              target="_blank"
              rel="noopener noreferrer nofollow"
            >
              {request.websiteAddress}
            </a>
          ) : (
            request.websiteAddress || notSpecified
          )}
        </Item>
        <Item label="Telephone">{request.telephoneNumber || notSpecified}</Item>
        <Item label="Number of employees">{request.numberOfEmployees || notSpecified}</Item>
      </dl>
      <div className="mt-3 text-sm">
        <p className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
          Additional info
        </p>
        <p className="mt-0.5 whitespace-pre-line break-words">
          {request.additionalInfo || <span className={muted}>No additional info...</span>}
        </p>
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className={`text-xs ${muted}`}>
          Submitted <time dateTime={request.submittedIso}>{request.submitted}</time>
        </p>
        {request.status === "Pending" ? (
          <div className="flex gap-2">
            <ButtonLink
              to={rejectHref}
              variant="secondary"
              preventScrollReset
              aria-label={`Reject request of ${name}`}
            >
              Reject
            </ButtonLink>
            <ButtonLink
              to={approveHref}
              preventScrollReset
              aria-label={`Approve request of ${name}`}
            >
              Approve
            </ButtonLink>
          </div>
        ) : null}
      </div>
    </article>
  );
}
