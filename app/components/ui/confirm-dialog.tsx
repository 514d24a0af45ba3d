import type { getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useIsPending } from "~/utils/use-is-pending";
import { Button } from "./button";
import { Dialog, DialogCancelLink } from "./dialog";

/**
 * The confirmation before an action: an alert dialog whose form posts `intent` and `fields` to
 * the page's action. It is opened by an address (`?dialog=...`), so without JavaScript it is a
 * page state; Cancel goes `back`. While the post is under way the dialog stays open and says
 * `busyLabel`.
 */
export function ConfirmDialog({
  title,
  description,
  intent,
  fields = {},
  confirmLabel,
  busyLabel,
  danger = true,
  back,
  onClose,
  children,
  formProps,
  action,
}: {
  title: string;
  description: string;
  intent: string;
  /** Hidden fields sent with the intent (an undefined value is left out). */
  fields?: Record<string, string | undefined>;
  confirmLabel: string;
  busyLabel: string;
  /** A destructive action's button is red; one that only starts something is not. */
  danger?: boolean;
  back: string;
  onClose: () => void;
  /**
   * Visible fields sent with the intent (a password, a typed confirmation), above the buttons;
   * with them, `formProps` (conform's getFormProps of the dialog's useIntentForm).
   */
  children?: ReactNode;
  formProps?: ReturnType<typeof getFormProps>;
  /** Where the form posts (a resource route), when not the page's own action. */
  action?: string;
}) {
  const busy = useIsPending({ intent, formAction: action });
  return (
    <Dialog
      open
      role="alertdialog"
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      title={title}
      description={description}
    >
      <Form
        method="post"
        action={action}
        replace
        preventScrollReset
        className="space-y-4"
        {...formProps}
      >
        <input type="hidden" name="intent" value={intent} />
        {Object.entries(fields).map(([name, value]) =>
          value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
        )}
        {children}
        <div className="flex justify-end gap-3">
          <DialogCancelLink back={back} busy={busy} onClose={onClose} />
          <Button type="submit" variant={danger ? "danger" : "primary"} disabled={busy}>
            {busy ? busyLabel : confirmLabel}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
