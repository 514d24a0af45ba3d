import { getTextareaProps, useForm, type FieldMetadata } from "@conform-to/react";
import { IntentForm } from "~/components/ui/intent-form";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { Field, TextareaField } from "~/components/ui/field";
import {
  LOGO_TYPES,
  newsletterSettingsSchema,
  SOCIAL_NETWORKS,
  type NewsletterSettingsView,
  type SocialNetwork,
} from "~/services/newsletter";
import { useFormReply } from "~/web/form-reply";
import { useIsPending } from "~/utils/use-is-pending";
import { NewsletterPreview } from "./newsletter-preview";

export const NEWSLETTER_SAVE_INTENT = "newsletter-save";
export const NEWSLETTER_TEST_INTENT = "newsletter-test";

const SOCIAL_LABEL: Record<SocialNetwork, string> = {
  facebook: "Facebook",
  twitter: "Twitter",
  instagram: "Instagram",
  linkedin: "LinkedIn",
};

/** A text field of the form, tied to its conform metadata (name, value, errors, constraints). */
function TextInput({
  meta,
  label,
  type = "text",
  hint,
  placeholder,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  type?: "text" | "email" | "url";
  hint?: string;
  placeholder?: string;
}) {
  return <Field label={label} hint={hint} placeholder={placeholder} field={meta} type={type} />;
}

/** What the preview shows: the form's values as they are typed. */
function previewOf(form: HTMLFormElement, saved: NewsletterSettingsView, logoUrl: string | null) {
  const data = new FormData(form);
  const get = (name: string) => String(data.get(name) ?? "");
  return {
    ...saved,
    fromName: get("fromName") || "Newsletter",
    companyName: get("companyName"),
    companyAddress: get("companyAddress"),
    companyWebsite: get("companyWebsite"),
    footerText: get("footerText"),
    enableUnsubscribeLink: data.get("enableUnsubscribeLink") === "on",
    brandColor: /^#[0-9a-fA-F]{6}$/.test(get("brandColor")) ? get("brandColor") : saved.brandColor,
    socialLinks: Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, get(n)])) as Record<
      SocialNetwork,
      string
    >,
    logoUrl: data.get("removeLogo") === "on" ? null : logoUrl,
  };
}

/**
 * The sender settings with a live preview of the header and footer. Saved whole (a multipart
 * post, so the logo travels with it); checked in the browser as people leave a field and again
 * on the server. Read-only for members who may not edit.
 */
export function NewsletterSettingsForm({
  settings,
  canEdit,
}: {
  settings: NewsletterSettingsView;
  canEdit: boolean;
}) {
  const reply = useFormReply(NEWSLETTER_SAVE_INTENT);
  const saving = useIsPending({ intent: NEWSLETTER_SAVE_INTENT });
  const testing = useIsPending({ intent: NEWSLETTER_TEST_INTENT });
  const [form, fields] = useForm({
    id: NEWSLETTER_SAVE_INTENT,
    lastResult: reply,
    defaultValue: {
      fromName: settings.fromName,
      fromEmail: settings.fromEmail,
      replyToEmail: settings.replyToEmail,
      companyName: settings.companyName,
      companyAddress: settings.companyAddress,
      companyWebsite: settings.companyWebsite,
      footerText: settings.footerText,
      brandColor: settings.brandColor,
      ...settings.socialLinks,
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: getZodConstraint(newsletterSettingsSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newsletterSettingsSchema }),
  });
  const [preview, setPreview] = useState(settings);
  const [logoUrl, setLogoUrl] = useState(settings.logoUrl);
  const [colour, setColour] = useState(settings.brandColor);
  useEffect(() => setPreview(settings), [settings]);
  // A chosen file is previewed from memory until it is saved.
  useEffect(
    () => () => {
      if (logoUrl?.startsWith("blob:")) URL.revokeObjectURL(logoUrl);
    },
    [logoUrl],
  );

  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const formElement = event.currentTarget;
    const target = event.target as HTMLInputElement;
    let nextLogo = logoUrl;
    if (target.name === "logo" && target.files?.[0]) {
      nextLogo = URL.createObjectURL(target.files[0]);
      setLogoUrl(nextLogo);
    }
    if (target.name === "brandColorPicker") {
      const value = target.value;
      setColour(value);
      const text = formElement.elements.namedItem("brandColor");
      if (text instanceof HTMLInputElement) text.value = value;
    }
    if (target.name === "brandColor") setColour(target.value);
    setPreview(previewOf(formElement, settings, nextLogo));
  };

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,24rem)]">
      <IntentForm
        form={form}
        encType="multipart/form-data"
        className="space-y-6"
        onChange={onChange}
      >
        <fieldset className="space-y-4" disabled={!canEdit}>
          <legend className="text-lg font-semibold">Sender</legend>
          <TextInput meta={fields.fromName} label="Sender name" />
          <TextInput
            meta={fields.fromEmail}
            label="From e-mail"
            type="email"
            hint="Newsletters are sent from this address; its domain is the sender domain below."
          />
          <TextInput meta={fields.replyToEmail} label="Reply-to e-mail" type="email" />
        </fieldset>
        <fieldset className="space-y-4" disabled={!canEdit}>
          <legend className="text-lg font-semibold">Company</legend>
          <TextInput meta={fields.companyName} label="Company name" />
          <TextInput meta={fields.companyAddress} label="Company address" />
          <TextInput
            meta={fields.companyWebsite}
            label="Company website"
            type="url"
            placeholder="https://"
          />
        </fieldset>
        <fieldset className="space-y-4" disabled={!canEdit}>
          <legend className="text-lg font-semibold">Look</legend>
          <div className="flex items-end gap-3">
            <div className="flex-1">
              <TextInput
                meta={fields.brandColor}
                label="Brand colour"
                hint="A colour like #296EFF"
              />
            </div>
            <label className="mb-1 flex flex-col items-center text-xs text-slate-600 dark:text-slate-300">
              <span className="sr-only">Brand colour picker</span>
              <input
                type="color"
                name="brandColorPicker"
                value={/^#[0-9a-fA-F]{6}$/.test(colour) ? colour : settings.brandColor}
                onChange={() => {}}
                className="h-10 w-14 cursor-pointer rounded border border-slate-300 dark:border-slate-700"
              />
            </label>
          </div>
          <div>
            <Field
              label="Logo"
              name="logo"
              type="file"
              accept={LOGO_TYPES.join(",")}
              hint="PNG, JPEG, GIF or WebP, at most 512 KB."
              errors={fields.logo.errors}
            />
            {settings.logoUrl ? (
              <label className="mt-2 flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="removeLogo"
                  className="h-4 w-4 rounded border-slate-300"
                />
                Remove the current logo
              </label>
            ) : null}
          </div>
          <TextareaField
            label="Footer text"
            rows={3}
            errors={fields.footerText.errors}
            {...(() => {
              const { key: _key, ...p } = getTextareaProps(fields.footerText);
              return p;
            })()}
          />
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="enableUnsubscribeLink"
              defaultChecked={settings.enableUnsubscribeLink}
              className="h-4 w-4 rounded border-slate-300"
            />
            Show an unsubscribe link in the footer
          </label>
        </fieldset>
        <fieldset className="space-y-4" disabled={!canEdit}>
          <legend className="text-lg font-semibold">Social links</legend>
          {SOCIAL_NETWORKS.map((network) => (
            <TextInput
              key={network}
              meta={fields[network]}
              label={SOCIAL_LABEL[network]}
              type="url"
              placeholder="https://"
            />
          ))}
        </fieldset>
        {canEdit ? (
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={saving}>
              {saving ? "Saving..." : "Save settings"}
            </Button>
          </div>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Only admins can change the newsletter settings.
          </p>
        )}
      </IntentForm>
      <aside aria-labelledby="newsletter-preview-heading" className="space-y-3">
        <h2 id="newsletter-preview-heading" className="text-lg font-semibold">
          Preview
        </h2>
        <NewsletterPreview settings={{ ...preview, logoUrl: preview.logoUrl ?? null }} />
        <Form method="post" replace preventScrollReset>
          <input type="hidden" name="intent" value={NEWSLETTER_TEST_INTENT} />
          <Button type="submit" variant="secondary" disabled={testing}>
            {testing ? "Sending..." : "Send test e-mail"}
          </Button>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            Sends the saved header and footer to you.
          </p>
        </Form>
      </aside>
    </div>
  );
}
