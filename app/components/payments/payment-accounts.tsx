import { IntentForm } from "~/components/ui/intent-form";
import { Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { useHydrated } from "~/utils/page-load";
import { LocalDate } from "~/components/local-date";
import { useOAuthCompleteMessage, usePopupSubmit } from "~/components/oauth/use-oauth-popup";
import { urlWith } from "~/components/shell/shell-helpers";
import { Button, buttonClass } from "~/components/ui/button";
import { Dialog, DialogCancelLink } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { useIntentForm } from "~/components/ui/use-intent-form";
import {
  addPaymentAccountSchema,
  apiVersionError,
  DEFAULT_STRIPE_API_VERSION,
  PAYMENT_MESSAGES,
} from "~/services/integrations";
import type { PaymentAccountsView } from "~/services/integrations/index.server";
import { useIsPending } from "~/utils/use-is-pending";
import { TableHead } from "~/components/ui/table-head";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";

export const PAYMENT_ADD_INTENT = "payment-add";
export const PAYMENT_REMOVE_INTENT = "payment-remove";
export const STRIPE_CONNECT_INTENT = "stripe-connect";

/**
 * A project's Stripe accounts: each with its publishable key, the last four characters of its
 * secret key and its API version; 'Add Stripe Account' (`?dialog=add-stripe`) and Remove
 * (`?remove={id}`, a confirmation titled 'Remove {name}') open by their address, so both work
 * without JavaScript. Remove is shown disabled to those who may not remove.
 */
export function PaymentAccounts({ view }: { view: PaymentAccountsView }) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const adding = searchParams.get("dialog") === "add-stripe" && view.canAdd;
  const removing = view.canRemove
    ? view.accounts.find((a) => a.id === searchParams.get("remove"))
    : undefined;
  const back = urlWith(location.pathname, location.search, { dialog: null, remove: null });
  const close = () => navigate(back, { replace: true, preventScrollReset: true });
  useOAuthCompleteMessage("StripeOAuthComplete");
  return (
    <section aria-labelledby="payment-accounts-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="payment-accounts-heading" className="text-lg font-semibold">
          Payment accounts
        </h2>
        {view.canAdd ? (
          <div className="flex flex-wrap gap-3">
            <ConnectWithStripe studioId={view.studioId} />
            <Link
              to={urlWith(location.pathname, location.search, { dialog: "add-stripe" })}
              preventScrollReset
              className={buttonClass("primary")}
            >
              Add Stripe Account
            </Link>
          </div>
        ) : null}
      </div>
      {view.accounts.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          No Stripe account added yet.
          {view.canAdd ? " Add one with its keys to take payments with this project's forms." : ""}
        </p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Stripe accounts of {view.projectName}</caption>
          <TableHead
            columns={[
              "Account name",
              "Publishable key",
              "Secret key",
              "API version",
              "Added",
              <span className="sr-only">Actions</span>,
            ]}
          />
          <tbody>
            {view.accounts.map((account) => (
              <tr key={account.id} className="border-t border-slate-200 dark:border-slate-800">
                <th scope="row" className="py-2 pr-3 font-medium">
                  {account.accountName}
                </th>
                <td className="break-all py-2 pr-3 font-mono text-xs">{account.publishableKey}</td>
                <td className="py-2 pr-3 font-mono text-xs">
                  <span aria-label={`ending in ${account.secretKeyLast4}`}>
                    ••••{account.secretKeyLast4}
                  </span>
                </td>
                <td className="py-2 pr-3">{account.apiVersion}</td>
                <td className="py-2 pr-3">
                  <LocalDate value={account.createdAt} />
                </td>
                <td className="flex flex-wrap gap-2 py-2">
                  <Link
                    to={urlWith(location.pathname, location.search, {
                      products: account.id,
                      tab: "active",
                      after: null,
                    })}
                    preventScrollReset
                    className={buttonClass("secondary", "px-3 py-1")}
                  >
                    Products<span className="sr-only"> of {account.accountName}</span>
                  </Link>
                  {view.canRemove ? (
                    <Link
                      to={urlWith(location.pathname, location.search, { remove: account.id })}
                      preventScrollReset
                      className={buttonClass("secondary", "px-3 py-1")}
                    >
                      Remove<span className="sr-only"> {account.accountName}</span>
                    </Link>
                  ) : (
                    <Button
                      variant="secondary"
                      disabled
                      className="px-3 py-1"
                      aria-label={`Remove ${account.accountName}: only admins can remove payment accounts`}
                    >
                      Remove
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {adding ? <AddStripeAccountDialog back={back} onClose={close} /> : null}
      {removing ? (
        <ConfirmDialog
          title={`Remove ${removing.accountName}`}
          description="Forms of this project stop taking payments with this Stripe account. The account itself stays at Stripe."
          intent={PAYMENT_REMOVE_INTENT}
          fields={{ accountId: removing.id }}
          confirmLabel="Yes, remove"
          busyLabel="Removing..."
          back={back}
          onClose={close}
        />
      ) : null}
    </section>
  );
}

/**
 * 'Connect with Stripe': Stripe Connect's authorization page, in a popup with JavaScript (the
 * return page reports StripeOAuthComplete and the list reloads), in this tab without.
 */
function ConnectWithStripe({ studioId }: { studioId: string }) {
  const { onSubmit, blocked } = usePopupSubmit();
  return (
    <form
      method="post"
      action={`/sites/integrations/payments/${encodeURIComponent(studioId)}`}
      onSubmit={onSubmit}
    >
      <input type="hidden" name="intent" value={STRIPE_CONNECT_INTENT} />
      <input type="hidden" name="mode" value="tab" />
      <Button type="submit" variant="secondary">
        Connect with Stripe
      </Button>
      {blocked ? (
        <p role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
          Something went wrong when opening the Stripe authorization window.
        </p>
      ) : null}
    </form>
  );
}

/**
 * 'Add Stripe Account'. With JavaScript, 'Add account' waits for the three required fields and
 * an API version with exactly two hyphens ('Invalid API Version' says why); the server checks
 * the same and then the key itself with Stripe.
 */
function AddStripeAccountDialog({ back, onClose }: { back: string; onClose: () => void }) {
  const [form, fields] = useIntentForm(PAYMENT_ADD_INTENT, addPaymentAccountSchema);
  const busy = useIsPending({ intent: PAYMENT_ADD_INTENT });
  // conform keeps the typed values: the button waits for them (with JavaScript).
  const typed = (value: unknown) => (typeof value === "string" ? value : "");
  const versionError = apiVersionError(typed(fields.apiVersion.value));
  const missing = [fields.accountName, fields.publishableKey, fields.secretKey].some(
    (field) => !typed(field.value).trim(),
  );
  const shownVersionError = versionError ?? fields.apiVersion.errors?.[0] ?? null;
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      title="Add Stripe Account"
      description="The secret key is checked with Stripe, then stored encrypted. Only its last four characters are shown again."
    >
      <IntentForm form={form} className="space-y-4">
        <Field label="Account name" autoComplete="off" field={fields.accountName} />
        <Field
          label="Stripe publishable key"
          autoComplete="off"
          spellCheck={false}
          field={fields.publishableKey}
        />
        <Field
          label="Stripe secret key"
          autoComplete="off"
          spellCheck={false}
          field={fields.secretKey}
          type="password"
        />
        {/* Its error is the line below, in the dialog's own words. */}
        <Field
          label="API version"
          autoComplete="off"
          placeholder={DEFAULT_STRIPE_API_VERSION}
          hint="Leave blank if you want to use the latest version"
          field={fields.apiVersion}
        />
        {shownVersionError ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {PAYMENT_MESSAGES.invalidApiVersion}
          </p>
        ) : null}
        <div className="flex justify-end gap-3">
          <DialogCancelLink back={back} busy={busy} onClose={onClose} />
          <AddButton busy={busy} blocked={missing || Boolean(versionError)} />
        </div>
      </IntentForm>
    </Dialog>
  );
}

/** Disabled (with JavaScript) until the form can be sent, and while it is being sent. */
function AddButton({ busy, blocked }: { busy: boolean; blocked: boolean }) {
  // Without JavaScript the button stays enabled: the server says what is missing.
  const hydrated = useHydrated();
  return (
    <Button type="submit" disabled={busy || (hydrated && blocked)}>
      {busy ? "Adding account..." : "Add account"}
    </Button>
  );
}
