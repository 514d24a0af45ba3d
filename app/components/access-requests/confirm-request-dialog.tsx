import { Form } from "@remix-run/react";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { Button } from "~/components/ui/button";
import { Dialog } from "~/components/ui/dialog";
import { REQUEST_FIELDS, type RequestAccessInput } from "~/services/platform";

/**
 * The request-access form's confirmation dialog. The reviewed values travel in hidden inputs, so
 * 'Yes, confirm' posts them (intent=confirm) without JavaScript, and Cancel posts intent=edit to
 * get the filled form back. With JavaScript Cancel just closes the dialog.
 */
export function ConfirmRequestDialog({
  values,
  onClose,
  busy,
}: {
  values: RequestAccessInput;
  onClose: () => void;
  busy: boolean;
}) {
  return (
    <Dialog
      open
      // Explicit: the shared Dialog passes role through, and an undefined one drops Radix's default.
      role="dialog"
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Confirm Request Access?"
      description="Please review the information you're about to send. An email should be sent to your inbox afterwards."
    >
      <dl className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
        {REQUEST_FIELDS.map(({ name, label }) => (
          <div key={name} className="grid grid-cols-3 gap-3 py-2">
            <dt className="font-medium">{label}</dt>
            <dd className="col-span-2 whitespace-pre-line break-words">
              {values[name] || (
                <span className="text-slate-500 dark:text-slate-400">Not specified</span>
              )}
            </dd>
          </div>
        ))}
      </dl>
      <Form method="post" className="mt-6 flex justify-end gap-2">
        {/* The page's honeypot (decision 012): the confirming post is checked as well. */}
        <HoneypotInputs />
        {REQUEST_FIELDS.map(({ name }) =>
          values[name] ? <input key={name} type="hidden" name={name} value={values[name]} /> : null,
        )}
        <Button
          type="submit"
          name="intent"
          value="edit"
          variant="secondary"
          onClick={(event) => {
            // Runs only with JavaScript: close in place instead of asking the server.
            event.preventDefault();
            onClose();
          }}
        >
          Cancel
        </Button>
        <Button type="submit" name="intent" value="confirm" disabled={busy}>
          {busy ? "Sending Request..." : "Yes, confirm"}
        </Button>
      </Form>
    </Dialog>
  );
}
