import { getFormProps, getInputProps } from "@conform-to/react";
import { SearchBox } from "~/components/lists/search-box";
import { Form, Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { LocalDate } from "~/components/local-date";
import { urlWith } from "~/components/shell/shell-helpers";
import { Button, buttonClass } from "~/components/ui/button";
import { Dialog, DialogCancelLink } from "~/components/ui/dialog";
import { Field, FormError, TextareaField } from "~/components/ui/field";
import { ownAria, useIntentForm } from "~/components/ui/use-intent-form";
import type { HeldMails } from "~/services/forms/index.server";
import { formSettingsSchema } from "~/services/forms";
import type { FormSummary, SubmissionRow, SubmissionsView } from "~/services/forms/index.server";
import { useFormReply } from "~/web/form-reply";
import { useIsPending } from "~/utils/use-is-pending";
import { TableHead } from "~/components/ui/table-head";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";

export const FORM_SETTINGS_INTENT = "form-settings";
export const SUBMISSION_DELETE_INTENT = "submission-delete";
export const SUBMISSIONS_DELETE_ALL_INTENT = "submissions-delete-all";
export const NOTIFICATION_RESEND_INTENT = "notification-resend";
/** The key of a Resend refusal in the action's reply: shown beside that address. */
export const resendErrorKey = (email: string) => `resend:${email}`;

/** Notification mails the project's daily cap held: how many, since when, and that nothing was lost. */
export function HeldMailsNotice({ held }: { held: HeldMails }) {
  if (!held) return null;
  return (
    <p className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      {held.count} notification mail{held.count === 1 ? " was" : "s were"} held since{" "}
      <LocalDate value={held.since} style="dateTime" />: this project reached its limit of{" "}
      {held.cap} notification mails a day. Every submission is stored below; held mails are not sent
      later.
    </p>
  );
}

/** The project's forms with their submission counts; the chosen one is marked. */
export function FormsList({ forms, current }: { forms: FormSummary[]; current: string | null }) {
  const location = useLocation();
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">Forms</caption>
      <TableHead columns={["Form", "Submissions", "Status", "Posts to"]} />
      <tbody>
        {forms.map((form) => (
          <tr key={form.id} className="border-t border-slate-200 dark:border-slate-800">
            <th scope="row" className="py-2 pr-3 font-medium">
              <Link
                to={urlWith(location.pathname, "", { form: form.id })}
                aria-current={form.id === current ? "page" : undefined}
                className="text-brand hover:underline"
              >
                {form.name}
              </Link>
            </th>
            <td className="py-2 pr-3">{form.submissions}</td>
            <td className="py-2 pr-3">{form.enabled ? "On" : "Off"}</td>
            <td className="break-all py-2 font-mono text-xs">{form.endpoint}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** On/off, notification e-mails and the address after a plain post. */
export function FormSettings({ form, canManage }: { form: FormSummary; canManage: boolean }) {
  const [settings, fields] = useIntentForm(FORM_SETTINGS_INTENT, formSettingsSchema, {
    defaultValue: {
      formId: form.id,
      enabled: form.enabled,
      notificationEmails: form.notificationEmails.join(", "),
      redirectUrl: form.redirectUrl ?? "",
    },
  });
  const busy = useIsPending({ intent: FORM_SETTINGS_INTENT });
  return (
    <section aria-labelledby="form-settings-heading" className="space-y-3">
      <h2 id="form-settings-heading" className="text-lg font-semibold">
        Settings of {form.name}
      </h2>
      <Form
        method="post"
        replace
        preventScrollReset
        className="max-w-xl space-y-4"
        {...getFormProps(settings)}
      >
        <input type="hidden" name="intent" value={FORM_SETTINGS_INTENT} />
        <input type="hidden" name="formId" value={form.id} />
        <FormError errors={settings.errors} />
        <fieldset disabled={!canManage} className="space-y-4">
          <label className="flex items-center gap-2 text-sm">
            <input
              key={fields.enabled.key}
              {...ownAria(getInputProps(fields.enabled, { type: "checkbox" }))}
              role="switch"
              className="h-4 w-4 rounded border-slate-300"
            />
            Accept submissions
          </label>
          <TextareaField
            label="Notification e-mails"
            rows={2}
            hint="Each new submission is mailed to these addresses (separate them with commas). An address that is not a project member's gets a link to confirm first."
            field={fields.notificationEmails}
          />
          <Field
            label="Address after submitting"
            placeholder="https://"
            hint="Where a visitor goes after sending the form. Blank: back to the site's page."
            field={fields.redirectUrl}
            type="url"
          />
        </fieldset>
        {canManage ? (
          <Button type="submit" disabled={busy}>
            {busy ? "Saving..." : "Save form settings"}
          </Button>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Only admins can change forms or delete submissions.
          </p>
        )}
      </Form>
      <NotificationRecipients form={form} canManage={canManage} />
    </section>
  );
}

const STATE_TEXT = {
  member: "Member of the project: gets the mails",
  confirmed: "Confirmed: gets the mails",
  waiting: "Waiting for confirmation: gets nothing until the link mailed to it is confirmed",
} as const;

/**
 * Each notification address and whether it is mailed; a waiting one can be sent its link again
 * (a form of its own: forms do not nest).
 */
function NotificationRecipients({ form, canManage }: { form: FormSummary; canManage: boolean }) {
  const errors = useFormReply(NOTIFICATION_RESEND_INTENT)?.error ?? {};
  const busy = useIsPending({ intent: NOTIFICATION_RESEND_INTENT });
  if (form.recipients.length === 0) return null;
  return (
    <div className="max-w-xl space-y-2">
      <h3 className="text-sm font-medium">Notification addresses</h3>
      <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
        {form.recipients.map((r) => {
          const error = errors[resendErrorKey(r.email)]?.[0];
          return (
            <li key={r.email} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div>
                <p className="font-mono text-xs">{r.email}</p>
                <p className="text-slate-600 dark:text-slate-300">
                  {STATE_TEXT[r.state]}
                  {r.state === "waiting" ? (
                    r.mailedAt ? (
                      <>
                        {" "}
                        (mailed <LocalDate value={r.mailedAt} style="dateTime" />)
                      </>
                    ) : (
                      " (not mailed yet)"
                    )
                  ) : null}
                </p>
                {error ? (
                  <p role="alert" className="text-red-600 dark:text-red-400">
                    {error}
                  </p>
                ) : null}
              </div>
              {canManage && r.state === "waiting" ? (
                <Form method="post" replace preventScrollReset>
                  <input type="hidden" name="intent" value={NOTIFICATION_RESEND_INTENT} />
                  <input type="hidden" name="formId" value={form.id} />
                  <input type="hidden" name="email" value={r.email} />
                  <Button
                    type="submit"
                    variant="secondary"
                    className="px-3 py-1"
                    disabled={busy}
                    aria-label={`Resend the confirmation link to ${r.email}`}
                  >
                    Resend link
                  </Button>
                </Form>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * The submissions of the chosen form: search, newest first, 25 a page with a link to older ones,
 * each openable (?submission=) and deletable (?delete=); 'Delete all' names the count; CSV export.
 */
export function Submissions({
  view,
  exportUrl,
  canManage,
  opened,
}: {
  view: SubmissionsView;
  exportUrl: string;
  canManage: boolean;
  opened: SubmissionRow | null;
}) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const back = urlWith(location.pathname, location.search, {
    submission: null,
    delete: null,
    deleteAll: null,
  });
  const close = () => navigate(back, { replace: true, preventScrollReset: true });
  const deleting = view.rows.find((r) => r.id === searchParams.get("delete"));
  const deletingAll =
    searchParams.get("deleteAll") === "1" && canManage && view.form.submissions > 0;
  return (
    <section aria-labelledby="submissions-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="submissions-heading" className="text-lg font-semibold">
          Submissions of {view.form.name}
        </h2>
        <div className="flex flex-wrap gap-2">
          <a href={exportUrl} className={buttonClass("secondary")} download>
            Export CSV
          </a>
          {canManage && view.form.submissions > 0 ? (
            <Link
              to={urlWith(location.pathname, location.search, { deleteAll: "1" })}
              preventScrollReset
              className={buttonClass("danger")}
            >
              Delete all
            </Link>
          ) : null}
        </div>
      </div>
      <SearchBox
        id="submission-search"
        query={view.q}
        label="Search submissions"
        placeholder="Search submissions"
        keep={{ form: view.form.id }}
      />
      {view.rows.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {view.q ? `No submission matches "${view.q}".` : "No submissions yet."}
        </p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Submissions of {view.form.name}, newest first</caption>
            <TableHead
              columns={["Submitted", ...view.fields, <span className="sr-only">Actions</span>]}
            />
            <tbody>
              {view.rows.map((row) => (
                <tr
                  key={row.id}
                  className="border-t border-slate-200 align-top dark:border-slate-800"
                >
                  <td className="whitespace-nowrap py-2 pr-3">
                    <LocalDate value={row.createdAt} />
                  </td>
                  {view.fields.map((f) => (
                    <td key={f} className="max-w-xs truncate py-2 pr-3">
                      {row.data[f] ?? ""}
                    </td>
                  ))}
                  <td className="flex gap-2 py-2">
                    <Link
                      to={urlWith(location.pathname, location.search, { submission: row.id })}
                      preventScrollReset
                      className={buttonClass("secondary", "px-3 py-1")}
                    >
                      View<span className="sr-only"> submission of {row.createdAt}</span>
                    </Link>
                    {canManage ? (
                      <Link
                        to={urlWith(location.pathname, location.search, { delete: row.id })}
                        preventScrollReset
                        className={buttonClass("secondary", "px-3 py-1")}
                      >
                        Delete<span className="sr-only"> submission of {row.createdAt}</span>
                      </Link>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {view.nextCursor ? (
        <Link
          to={urlWith(location.pathname, location.search, { after: view.nextCursor })}
          className="text-sm font-medium text-brand hover:underline"
        >
          Older submissions
        </Link>
      ) : null}
      {opened ? (
        <Dialog
          open
          onOpenChange={(open) => {
            if (!open) close();
          }}
          title="Submission"
          description={`Sent ${new Date(opened.createdAt).toUTCString()}`}
        >
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
            {Object.entries(opened.data).map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="font-medium text-slate-600 dark:text-slate-300">{k}</dt>
                <dd className="whitespace-pre-wrap break-words">{v}</dd>
              </div>
            ))}
          </dl>
          <div className="mt-4 flex justify-end">
            <DialogCancelLink back={back} busy={false} onClose={close} />
          </div>
        </Dialog>
      ) : null}
      {deleting && canManage ? (
        <ConfirmDialog
          intent={SUBMISSION_DELETE_INTENT}
          fields={{ formId: view.form.id, submissionId: deleting.id }}
          confirmLabel="Yes, delete"
          busyLabel="Deleting..."
          title="Delete this submission"
          description="The submission is deleted for good."
          back={back}
          onClose={close}
        />
      ) : null}
      {deletingAll ? (
        <ConfirmDialog
          intent={SUBMISSIONS_DELETE_ALL_INTENT}
          fields={{ formId: view.form.id }}
          confirmLabel="Yes, delete"
          busyLabel="Deleting..."
          title={`Delete all ${view.form.submissions} submissions`}
          description={`Every submission of ${view.form.name} is deleted for good. Export them first if you need them.`}
          back={back}
          onClose={close}
        />
      ) : null}
    </section>
  );
}
