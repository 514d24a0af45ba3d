import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { Dialog, DialogCancelLink } from "~/components/ui/dialog";
import { Field, FormError, SelectField, TextareaField } from "~/components/ui/field";
import type { TicketProject } from "~/services/support-desk/types";
import { newTicketSchema } from "~/services/support.schema";
import { useFormReply } from "~/web/form-reply";
import { useIsPending } from "~/utils/use-is-pending";

export const TICKET_CREATE_INTENT = "ticket-create";
/** The address that opens the dialog: `?dialog=new-ticket`. */
export const NEW_TICKET_DIALOG = "new-ticket";

/**
 * conform's props without its aria attributes: the field frame sets them itself, from the same
 * errors, and also points at the hint.
 */
function ownAria<T extends { "aria-invalid"?: unknown; "aria-describedby"?: unknown }>(
  props: T,
): Omit<T, "aria-invalid" | "aria-describedby"> {
  const { "aria-invalid": _invalid, "aria-describedby": _describedBy, ...rest } = props;
  return rest;
}

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
  const reply = useFormReply(TICKET_CREATE_INTENT);
  const busy = useIsPending({ intent: TICKET_CREATE_INTENT });
  const [form, fields] = useForm({
    id: TICKET_CREATE_INTENT,
    lastResult: reply,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: getZodConstraint(newTicketSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newTicketSchema }),
  });
  const { key: subjectKey, ...subjectProps } = ownAria(
    getInputProps(fields.subject, { type: "text" }),
  );
  const { key: projectKey, ...projectProps } = ownAria(getSelectProps(fields.projectId));
  const { key: descriptionKey, ...descriptionProps } = ownAria(
    getTextareaProps(fields.description),
  );
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      title="New ticket"
      description="Tell the support team what you need. You can follow the answer on the ticket's page."
    >
      <Form method="post" replace preventScrollReset className="space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={TICKET_CREATE_INTENT} />
        <FormError message={form.errors?.[0]} />
        <Field
          key={subjectKey}
          label="Subject"
          autoComplete="off"
          errors={fields.subject.errors}
          {...subjectProps}
        />
        <SelectField
          key={projectKey}
          label="Project"
          hint="The project the ticket is about, if any."
          errors={fields.projectId.errors}
          {...projectProps}
        >
          <option value="">None</option>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </SelectField>
        <TextareaField
          key={descriptionKey}
          label="Description"
          rows={6}
          errors={fields.description.errors}
          {...descriptionProps}
        />
        <div className="flex justify-end gap-3">
          <DialogCancelLink back={back} busy={busy} onClose={onClose} />
          <Button type="submit" disabled={busy}>
            {busy ? "Creating..." : "Create ticket"}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
