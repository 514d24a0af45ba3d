import { IntentForm } from "~/components/ui/intent-form";
import { Button } from "~/components/ui/button";
import { Dialog, DialogCancelLink } from "~/components/ui/dialog";
import { Field, SelectField, TextareaField } from "~/components/ui/field";
import type { TicketProject } from "~/services/support-desk";
import { newTicketSchema } from "~/services/support-desk";
import { useIntentForm } from "~/components/ui/use-intent-form";
import { useIsPending } from "~/utils/use-is-pending";

export const TICKET_CREATE_INTENT = "ticket-create";
/** The address that opens the dialog: `?dialog=new-ticket`. */
export const NEW_TICKET_DIALOG = "new-ticket";

/**
 * 'New ticket': subject, the project it is about (optional) and a description. Opened by its
 * address, so it works without JavaScript; a refused post comes back to the same address with the
 * messages beside the fields. With JavaScript conform checks the same schema as the server.
 */
export function NewTicketDialog({
  projects,
  back,
  onClose,
}: {
  projects: TicketProject[];
  back: string;
  onClose: () => void;
}) {
  const busy = useIsPending({ intent: TICKET_CREATE_INTENT });
  const [form, fields] = useIntentForm(TICKET_CREATE_INTENT, newTicketSchema);
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      title="New ticket"
      description="Tell the support team what you need. You can follow the answer on the ticket's page."
    >
      <IntentForm form={form} className="space-y-4">
        <Field label="Subject" autoComplete="off" field={fields.subject} />
        <SelectField
          label="Project"
          hint="The project the ticket is about, if any."
          field={fields.projectId}
        >
          <option value="">None</option>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </SelectField>
        <TextareaField label="Description" rows={6} field={fields.description} />
        <div className="flex justify-end gap-3">
          <DialogCancelLink back={back} busy={busy} onClose={onClose} />
          <Button type="submit" disabled={busy}>
            {busy ? "Creating..." : "Create ticket"}
          </Button>
        </div>
      </IntentForm>
    </Dialog>
  );
}
