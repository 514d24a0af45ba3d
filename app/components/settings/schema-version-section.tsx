import { IntentForm } from "~/components/ui/intent-form";
import { SectionCard } from "~/components/ui/section-card";
import { Button } from "~/components/ui/button";
import { SelectField } from "~/components/ui/field";
import { useIntentForm } from "~/components/ui/use-intent-form";
import { SCHEMA_VERSION_INTENT, schemaVersionFormSchema } from "~/services/projects";
import type { SchemaVersionView } from "~/services/projects/index.server";
import { useIsPending } from "~/utils/use-is-pending";

/**
 * The project's StackShift version. Everyone who sees the project reads it; platform admins raise
 * it once the site runs a newer template (a plain form: it works the same without JavaScript).
 */
export function SchemaVersionSection({ view }: { view: SchemaVersionView }) {
  const [form, fields] = useIntentForm(SCHEMA_VERSION_INTENT, schemaVersionFormSchema, {
    defaultValue: { schemaVersion: String(view.latest) },
  });
  const busy = useIsPending({ intent: SCHEMA_VERSION_INTENT });
  const choices = Array.from(
    { length: view.latest - view.current },
    (_, i) => view.current + i + 1,
  );
  return (
    <SectionCard id="schema-version" title="StackShift version">
      <p className="text-sm">
        This project runs StackShift version <strong>{view.current}</strong>
        {view.current >= view.latest ? ", the latest." : ` (the latest is ${view.latest}).`}
      </p>
      {view.canRaise ? (
        <IntentForm form={form} className="mt-3 flex flex-wrap items-end gap-3">
          <div className="w-40">
            <SelectField
              label="Raise to version"
              field={fields.schemaVersion}
              hint="Once the site runs it. It cannot be lowered again."
            >
              {choices.map((version) => (
                <option key={version} value={version}>
                  {version}
                </option>
              ))}
            </SelectField>
          </div>
          <Button type="submit" disabled={busy}>
            Raise version
          </Button>
        </IntentForm>
      ) : null}
    </SectionCard>
  );
}
