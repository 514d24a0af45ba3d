import { getFormProps } from "@conform-to/react";
import { Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { urlWith } from "~/components/shell/shell-helpers";
import { Button, buttonClass } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field, FormError, TextareaField } from "~/components/ui/field";
import { IntentForm } from "~/components/ui/intent-form";
import { useIntentForm } from "~/components/ui/use-intent-form";
import {
  MAX_SAVED_TEMPLATES,
  renameTemplateSchema,
  saveTemplateSchema,
  TEMPLATE_MESSAGES,
} from "~/services/newsletter";
import type { SavedTemplate } from "~/services/newsletter/index.server";
import { useIsPending } from "~/utils/use-is-pending";

export const TEMPLATE_SAVE_INTENT = "template-save";
export const TEMPLATE_RENAME_INTENT = "template-rename";
export const TEMPLATE_DELETE_INTENT = "template-delete";

/** The addresses that open the rename and delete dialogs, so they work without JavaScript. */
const RENAME_PARAM = "renameTemplate";
const DELETE_PARAM = "deleteTemplate";

/**
 * The newsletter's saved templates (savedTemplates, decision 045): each with its subject and
 * body, Rename and Delete (each in a dialog opened by its address), and the form that saves a new
 * one. Those who may not change the settings read the list only.
 */
export function SavedTemplates({
  templates,
  canEdit,
}: {
  templates: SavedTemplate[];
  canEdit: boolean;
}) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const back = urlWith(location.pathname, location.search, {
    [RENAME_PARAM]: null,
    [DELETE_PARAM]: null,
  });
  const close = () => navigate(back, { replace: true, preventScrollReset: true });
  const renaming = templates.find((t) => t.id === searchParams.get(RENAME_PARAM));
  const deleting = templates.find((t) => t.id === searchParams.get(DELETE_PARAM));
  const atLimit = templates.length >= MAX_SAVED_TEMPLATES;
  const open = (param: string, id: string) =>
    urlWith(location.pathname, location.search, {
      [RENAME_PARAM]: null,
      [DELETE_PARAM]: null,
      [param]: id,
    });

  return (
    <section aria-labelledby="saved-templates-heading" className="space-y-4">
      <div>
        <h2 id="saved-templates-heading" className="text-lg font-semibold">
          Saved templates
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Named e-mails a newsletter can start from: a subject and a body.
        </p>
      </div>
      {templates.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">No saved templates yet.</p>
      ) : (
        <ul className="space-y-3">
          {templates.map((template) => (
            <li
              key={template.id}
              aria-labelledby={`template-${template.id}`}
              className="space-y-2 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
            >
              <div className="flex flex-wrap items-center gap-3">
                <h3 id={`template-${template.id}`} className="font-medium">
                  {template.name}
                </h3>
                {canEdit ? (
                  <div className="ml-auto flex gap-2">
                    <Link
                      to={open(RENAME_PARAM, template.id)}
                      preventScrollReset
                      className={buttonClass("secondary", "px-3 py-1")}
                    >
                      Rename<span className="sr-only"> {template.name}</span>
                    </Link>
                    <Link
                      to={open(DELETE_PARAM, template.id)}
                      preventScrollReset
                      className={buttonClass("secondary", "px-3 py-1")}
                    >
                      Delete<span className="sr-only"> {template.name}</span>
                    </Link>
                  </div>
                ) : null}
              </div>
              <p className="text-sm">
                <span className="font-medium">Subject: </span>
                {template.subject || <span className="text-slate-500">(none)</span>}
              </p>
              <details className="text-sm">
                <summary className="cursor-pointer text-brand">
                  Body<span className="sr-only"> of {template.name}</span>
                </summary>
                <pre className="mt-2 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-3 text-xs dark:bg-slate-900">
                  {template.body}
                </pre>
              </details>
            </li>
          ))}
        </ul>
      )}
      {canEdit ? (
        // A new key once the list changes: the form starts empty after a save.
        <SaveTemplateForm key={templates.map((t) => t.id).join()} atLimit={atLimit} />
      ) : null}
      {renaming && canEdit ? (
        <RenameDialog key={renaming.id} template={renaming} back={back} onClose={close} />
      ) : null}
      {deleting && canEdit ? (
        <ConfirmDialog
          title={`Delete ${deleting.name}`}
          description="The template is deleted for everyone on the project. Newsletters already sent are not changed."
          intent={TEMPLATE_DELETE_INTENT}
          fields={{ templateId: deleting.id }}
          confirmLabel="Yes, delete"
          busyLabel="Deleting..."
          back={back}
          onClose={close}
        />
      ) : null}
    </section>
  );
}

function SaveTemplateForm({ atLimit }: { atLimit: boolean }) {
  const [form, fields] = useIntentForm(TEMPLATE_SAVE_INTENT, saveTemplateSchema);
  const saving = useIsPending({ intent: TEMPLATE_SAVE_INTENT });
  return (
    <IntentForm
      form={form}
      className="space-y-4 rounded-lg border border-dashed border-slate-300 p-4 dark:border-slate-700"
      aria-labelledby="save-template-heading"
    >
      <h3 id="save-template-heading" className="font-medium">
        Save a template
      </h3>
      <Field field={fields.name} label="Template name" />
      <Field field={fields.subject} label="Subject" />
      <TextareaField field={fields.body} label="Body" rows={6} />
      <div className="space-y-1">
        <Button
          type="submit"
          disabled={saving || atLimit}
          aria-describedby={atLimit ? "template-limit" : undefined}
        >
          {saving ? "Saving template..." : "Save template"}
        </Button>
        {atLimit ? (
          <p id="template-limit" className="text-sm text-amber-700 dark:text-amber-400">
            {TEMPLATE_MESSAGES.limit}
          </p>
        ) : null}
      </div>
    </IntentForm>
  );
}

function RenameDialog({
  template,
  back,
  onClose,
}: {
  template: SavedTemplate;
  back: string;
  onClose: () => void;
}) {
  const [form, fields] = useIntentForm(TEMPLATE_RENAME_INTENT, renameTemplateSchema, {
    defaultValue: { templateId: template.id, name: template.name },
  });
  return (
    <ConfirmDialog
      title={`Rename ${template.name}`}
      description="The template keeps its subject and body under the new name."
      intent={TEMPLATE_RENAME_INTENT}
      fields={{ templateId: template.id }}
      confirmLabel="Rename"
      busyLabel="Renaming..."
      danger={false}
      back={back}
      onClose={onClose}
      formProps={getFormProps(form)}
    >
      <FormError errors={form.errors} />
      <Field field={fields.name} label="New name" />
    </ConfirmDialog>
  );
}
