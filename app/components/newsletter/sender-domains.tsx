import { Form, Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { urlWith } from "~/components/shell/shell-helpers";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClass } from "~/components/ui/button";
import { CopyButton } from "~/components/ui/copy-button";
import { MAX_SENDER_DOMAINS, NEWSLETTER_MESSAGES } from "~/services/newsletter";
import type { SenderDomainView } from "~/services/newsletter/index.server";
import { useFormReply } from "~/web/form-reply";
import { useIsPending } from "~/utils/use-is-pending";
import { TableHead } from "~/components/ui/table-head";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { raiseToast } from "~/components/ui/toaster";
import { useEffect } from "react";

export const DOMAIN_ADD_INTENT = "sender-domain-add";
export const DOMAIN_VERIFY_INTENT = "sender-domain-verify";
export const DOMAIN_DELETE_INTENT = "sender-domain-delete";
/** The key of the action's refusal of 'Add' (the project's sender domains are at the cap). */
export const SENDER_DOMAIN_FIELD = "senderDomain";

/**
 * The sender domains: the one the from-address names (with 'Add domain' until it is added), each
 * added domain's status and DNS records (with '@' for the domain itself and the DMARC record),
 * Verify ('Verification in progress' while it runs) and Delete through a confirmation.
 */
export function SenderDomains({
  senderDomain,
  domains,
  canEdit,
  error,
}: {
  senderDomain: string | null;
  domains: SenderDomainView[];
  canEdit: boolean;
  error: string | null;
}) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const adding = useIsPending({ intent: DOMAIN_ADD_INTENT });
  const verifying = useIsPending({ intent: DOMAIN_VERIFY_INTENT });
  // The specification's toast while verifying; the server's answer repeats it while the domain
  // stays pending (the job keeps checking), which is what a page without JavaScript shows.
  useEffect(() => {
    if (verifying) raiseToast({ type: "info", title: NEWSLETTER_MESSAGES.verifying });
  }, [verifying]);
  const deleting = domains.find((d) => d.id === searchParams.get("deleteDomain"));
  const back = urlWith(location.pathname, location.search, { deleteDomain: null });
  const close = () => navigate(back, { replace: true, preventScrollReset: true });
  const added = domains.some((d) => d.domain === senderDomain);
  // At the cap the page says so beside 'Add' before anyone presses it; a refusal of a page
  // loaded before the cap was reached says the same.
  const refusal = useFormReply(DOMAIN_ADD_INTENT)?.error?.[SENDER_DOMAIN_FIELD]?.[0];
  const atLimit = domains.length >= MAX_SENDER_DOMAINS;
  const limitMessage = refusal ?? (atLimit ? NEWSLETTER_MESSAGES.domainLimit : null);
  return (
    <section aria-labelledby="sender-domains-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="sender-domains-heading" className="text-lg font-semibold">
            Sender domains
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {senderDomain
              ? `Newsletters are sent from ${senderDomain}.`
              : "Set a from e-mail address to choose the sender domain."}
          </p>
        </div>
        {canEdit && senderDomain && !added ? (
          <Form method="post" replace preventScrollReset className="max-w-sm space-y-1">
            <input type="hidden" name="intent" value={DOMAIN_ADD_INTENT} />
            <Button
              type="submit"
              disabled={adding || atLimit}
              aria-describedby={limitMessage ? "sender-domain-limit" : undefined}
            >
              {adding ? "Adding domain..." : `Add ${senderDomain}`}
            </Button>
            {limitMessage ? (
              <p
                id="sender-domain-limit"
                role="alert"
                className="text-sm text-red-600 dark:text-red-400"
              >
                {limitMessage}
              </p>
            ) : null}
          </Form>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
      {verifying ? (
        <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
          {NEWSLETTER_MESSAGES.verifying}
        </p>
      ) : null}
      {domains.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">No sender domain added yet.</p>
      ) : (
        domains.map((domain) => (
          <article
            key={domain.id}
            aria-labelledby={`domain-${domain.id}`}
            className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
          >
            <div className="flex flex-wrap items-center gap-3">
              <h3 id={`domain-${domain.id}`} className="font-medium">
                {domain.domain}
              </h3>
              <Badge tone={domain.isVerified ? "green" : "yellow"}>
                {domain.isVerified ? "verified" : "pending"}
              </Badge>
              {canEdit ? (
                <div className="ml-auto flex gap-2">
                  {!domain.isVerified ? (
                    <Form method="post" replace preventScrollReset>
                      <input type="hidden" name="intent" value={DOMAIN_VERIFY_INTENT} />
                      <input type="hidden" name="domainId" value={domain.id} />
                      <Button
                        type="submit"
                        variant="secondary"
                        className="px-3 py-1"
                        disabled={verifying}
                      >
                        Verify<span className="sr-only"> {domain.domain}</span>
                      </Button>
                    </Form>
                  ) : null}
                  <Link
                    to={urlWith(location.pathname, location.search, { deleteDomain: domain.id })}
                    preventScrollReset
                    className={buttonClass("secondary", "px-3 py-1")}
                  >
                    Delete<span className="sr-only"> {domain.domain}</span>
                  </Link>
                </div>
              ) : null}
            </div>
            {domain.verificationError ? (
              <p className="text-sm text-amber-700 dark:text-amber-400">
                {domain.verificationError}
              </p>
            ) : null}
            <div className="relative overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">DNS records of {domain.domain}</caption>
                <TableHead columns={["Type", "Host", "Value", "TTL", "Status"]} />
                <tbody>
                  {domain.records.map((record) => (
                    <tr
                      key={`${record.type}-${record.host}-${record.value}`}
                      className="border-t border-slate-200 align-top dark:border-slate-800"
                    >
                      <td className="py-2 pr-3">{record.type}</td>
                      <td className="py-2 pr-3 font-mono text-xs">{record.host}</td>
                      <td className="py-2 pr-3">
                        <div className="flex items-start gap-2">
                          <code className="break-all text-xs">{record.value}</code>
                          <CopyButton
                            value={record.value}
                            label={`${record.type} ${record.host} value`}
                          />
                        </div>
                      </td>
                      <td className="py-2 pr-3">{record.ttl}</td>
                      <td className="py-2 pr-3">{record.status.replace(/_/g, " ")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </article>
        ))
      )}
      {deleting && canEdit ? (
        <ConfirmDialog
          title={`Delete ${deleting.domain}`}
          description="Newsletters can no longer be sent from this domain until it is added and verified again."
          intent={DOMAIN_DELETE_INTENT}
          fields={{ domainId: deleting.id }}
          confirmLabel="Yes, delete"
          busyLabel="Deleting..."
          back={back}
          onClose={close}
        />
      ) : null}
    </section>
  );
}
