import { Form, useActionData } from "@remix-run/react";
import { Section } from "~/components/project-dashboard/project-sections";
import { Button } from "~/components/ui/button";
import { Field, FieldError, FormError, SelectField } from "~/components/ui/field";
import { RENAME_INTENT, TRANSFER_INTENT } from "~/services/project-settings.schema";
import type { ProjectSettingsView } from "~/services/project-settings.server";
import type { FormReply } from "~/utils/http.server";
import { useIsPending } from "~/utils/use-is-pending";

/** The project's name: admins, the owner and platform admins rename it; others read it. */
export function RenameSection({ view }: { view: ProjectSettingsView }) {
  const errors = useActionData<FormReply>()?.result.error ?? {};
  const busy = useIsPending({ intent: RENAME_INTENT });
  return (
    <Section id="project-name" title="Project name">
      {view.canRename ? (
        <Form
          method="post"
          replace
          preventScrollReset
          className="flex max-w-xl flex-wrap items-end gap-3"
        >
          <input type="hidden" name="intent" value={RENAME_INTENT} />
          <FormError message={errors[""]?.[0]} />
          <div className="min-w-64 flex-1">
            <Field label="Name" name="name" defaultValue={view.name} errors={errors.name} />
          </div>
          <Button type="submit" disabled={busy}>
            {busy ? "Renaming..." : "Rename"}
          </Button>
        </Form>
      ) : (
        <p className="text-sm">{view.name}. Only admins can rename the project.</p>
      )}
    </Section>
  );
}

/**
 * Transfer ownership (the owner only): to one of the project's accepted admins, with a box to
 * tick; the owner stays as an admin member.
 */
export function TransferSection({ view }: { view: ProjectSettingsView }) {
  const errors = useActionData<FormReply>()?.result.error ?? {};
  const busy = useIsPending({ intent: TRANSFER_INTENT });
  if (!view.transferTo) return null;
  return (
    <Section id="transfer-ownership" title="Transfer ownership">
      {view.transferTo.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Ownership moves to an admin of the project. Invite one, or make a member an admin, first.
        </p>
      ) : (
        <Form method="post" replace preventScrollReset className="max-w-xl space-y-3">
          <input type="hidden" name="intent" value={TRANSFER_INTENT} />
          <FormError message={errors[""]?.[0]} />
          <SelectField label="New owner" name="toUserId" defaultValue="" errors={errors.toUserId}>
            <option value="" disabled>
              Choose an admin
            </option>
            {view.transferTo.map((a) => (
              <option key={a.userId} value={a.userId}>
                {a.name ? `${a.name} (${a.email})` : a.email}
              </option>
            ))}
          </SelectField>
          <div>
            <label className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                name="confirm"
                required
                aria-describedby={errors.confirm ? "transfer-confirm-error" : undefined}
                className="mt-0.5 h-4 w-4 rounded border-slate-300"
              />
              I understand that I will no longer own this project and will stay as an admin.
            </label>
            <FieldError id="transfer-confirm-error" errors={errors.confirm} />
          </div>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? "Transferring..." : "Transfer ownership"}
          </Button>
        </Form>
      )}
    </Section>
  );
}
