import { getFormProps, getInputProps } from "@conform-to/react";
import { useState } from "react";
import { useHydrated } from "~/utils/page-load";
import { usePopupSubmit } from "~/components/oauth/use-oauth-popup";
import { Button } from "~/components/ui/button";
import { Dialog, DialogCancelLink } from "~/components/ui/dialog";
import { FieldError, FormError, SelectField } from "~/components/ui/field";
import { ownAria, useIntentForm } from "~/components/ui/use-intent-form";
import { SOCIAL_MESSAGES } from "~/services/integrations";
import { linkSocialAccountSchema } from "~/services/integrations";
import { SOCIAL_LINK_INTENT } from "./social-accounts";

/**
 * 'Link account': a platform and the professional-account box; Connect is enabled (with
 * JavaScript) once both are given, and opens Instagram's authorization page in a new window.
 */
export function LinkAccountDialog({
  studioId,
  back,
  onClose,
}: {
  studioId: string;
  back: string;
  onClose: () => void;
}) {
  const [form, fields] = useIntentForm(SOCIAL_LINK_INTENT, linkSocialAccountSchema, {
    // The disabled 'Choose a platform' stays chosen until a person picks one.
    defaultValue: { platform: "" },
  });
  const hydrated = useHydrated();
  const [platform, setPlatform] = useState("");
  const [professional, setProfessional] = useState(false);
  const popup = usePopupSubmit();
  const formProps = getFormProps(form);
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Link account"
      description="Link an Instagram professional account to show its public feed on your StackShift site."
    >
      {/* A native form: with JavaScript it posts into the popup window, which Remix's Form cannot. */}
      <form
        method="post"
        action={`/sites/${encodeURIComponent(studioId)}`}
        className="space-y-4"
        {...formProps}
        onSubmit={(event) => {
          // conform checks the schema first and stops a refused form; only a form it lets
          // through opens the popup.
          formProps.onSubmit(event);
          if (!event.defaultPrevented) popup.onSubmit(event);
        }}
      >
        <input type="hidden" name="intent" value={SOCIAL_LINK_INTENT} />
        <input type="hidden" name="mode" value="tab" />
        <FormError errors={form.errors} />
        {popup.blocked ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {SOCIAL_MESSAGES.openFailed}
          </p>
        ) : null}
        <SelectField
          label="Platform"
          field={fields.platform}
          onChange={(event) => {
            const value = event.currentTarget.value;
            setPlatform(value);
          }}
        >
          <option value="" disabled>
            Choose a platform
          </option>
          <option value="instagram">Instagram</option>
        </SelectField>
        <div>
          <label className="flex items-start gap-2 text-sm">
            <input
              key={fields.professional.key}
              {...ownAria(getInputProps(fields.professional, { type: "checkbox" }))}
              aria-invalid={fields.professional.errors ? true : undefined}
              aria-describedby={
                fields.professional.errors ? fields.professional.errorId : undefined
              }
              className="mt-0.5 h-4 w-4 rounded border-slate-300"
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setProfessional(checked);
              }}
            />
            {SOCIAL_MESSAGES.professional}
          </label>
          <FieldError id={fields.professional.errorId} errors={fields.professional.errors} />
        </div>
        <div className="flex justify-end gap-3">
          <DialogCancelLink back={back} busy={false} onClose={onClose} />
          <Button type="submit" disabled={hydrated && (!platform || !professional)}>
            Connect
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
