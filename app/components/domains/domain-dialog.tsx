import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useActionData, useFetcher, useLocation } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "~/utils/page-load";
import { Button } from "~/components/ui/button";
import { Dialog, DialogCancelLink } from "~/components/ui/dialog";
import { FieldError } from "~/components/ui/field";
import { normalizeDomain } from "~/services/domains";
import { domainFormSchema } from "~/services/domains";
import type { SiteDomain } from "~/services/domains/index.server";
import type { FormReply } from "~/web/form-reply";
import { DOMAIN_INTENT } from "./domain-intent";

export { DOMAIN_INTENT };

const PROVIDER_LABEL = { netlify: "Netlify", vercel: "Vercel" } as const;

/** What the dashboard action answers when the dialog stays open: the field's message. */
export type DomainActionData = FormReply & { intent: typeof DOMAIN_INTENT };

/**
 * The domain dialog: one field. Typed, Confirm sets it (action update); cleared, the button reads
 * 'Revert Domain' (action revert). With JavaScript Confirm is disabled while the value is
 * unchanged, or not empty and not a valid domain; the server checks the same rules either way.
 */
export function DomainDialog({
  studioId,
  site,
  perSite,
  back,
  onClose,
}: {
  studioId: string;
  site: SiteDomain;
  perSite: boolean;
  schemaVersion: number;
  back: string;
  onClose: () => void;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  const fetcher = useFetcher<DomainActionData>();
  const actionData = useActionData<DomainActionData | undefined>();
  const answer = fetcher.data ?? (actionData?.intent === "domain-change" ? actionData : null);
  const [typed, setTyped] = useState(() => {
    const initial = answer?.result?.initialValue?.domain;
    return typeof initial === "string" ? initial : (site.domain ?? "");
  });
  const [form, fields] = useForm({
    id: `domain-form-${site.provider}`,
    lastResult: answer?.result,
    defaultValue: { domain: site.domain ?? "" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: getZodConstraint(domainFormSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: domainFormSchema }),
  });
  const busy = fetcher.state !== "idle";
  const value = typed.trim();
  const reverting = value === "" && Boolean(site.domain);
  const normalized = value ? normalizeDomain(value) : null;
  const unchanged =
    value === ""
      ? !site.domain
      : normalized !== null && "domain" in normalized && normalized.domain === site.domain;
  const invalid = normalized !== null && "error" in normalized;
  const disabled = busy || (hydrated && (unchanged || invalid));
  const { key: domainKey, ...domainProps } = getInputProps(fields.domain, { type: "text" });

  return (
    <Dialog
      open
      onOpenChange={(next) => {
        if (!next && !busy) onClose();
      }}
      title="Custom domain"
      description={
        perSite
          ? `The domain of the ${PROVIDER_LABEL[site.provider]} site. Clear it to revert to the site's own address.`
          : "Clear the domain to revert to the site's own address."
      }
    >
      <fetcher.Form
        method="post"
        // This page's address: without JavaScript a refused domain comes back with the dialog open.
        action={`/sites/${studioId}${location.search}`}
        className="space-y-4"
        {...getFormProps(form)}
      >
        <input type="hidden" name="intent" value="domain-change" />
        <input type="hidden" name="redirectTo" value={back} />
        {perSite ? <input type="hidden" name="provider" value={site.provider} /> : null}
        <div>
          <label htmlFor={fields.domain.id} className="block text-sm font-medium">
            Domain
          </label>
          <input
            key={domainKey}
            {...domainProps}
            required={false}
            autoComplete="off"
            spellCheck={false}
            placeholder="www.example.com"
            aria-invalid={fields.domain.errors?.length ? true : undefined}
            aria-describedby={fields.domain.errors?.length ? fields.domain.errorId : undefined}
            onInput={(event) => setTyped(event.currentTarget.value)}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand focus:outline-none focus:ring-1 focus:ring-brand aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-900"
          />
          <FieldError id={fields.domain.errorId} errors={fields.domain.errors} />
        </div>
        <div className="flex justify-end gap-3">
          <DialogCancelLink back={back} busy={busy} onClose={onClose} />
          {/* Without JavaScript the label cannot follow the field: both actions are offered. */}
          {!hydrated && site.domain ? (
            <Button type="submit" name="action" value="revert" variant="danger">
              Revert Domain
            </Button>
          ) : null}
          <Button type="submit" disabled={disabled} variant={reverting ? "danger" : "primary"}>
            {busy ? "Saving..." : reverting ? "Revert Domain" : "Confirm"}
          </Button>
        </div>
      </fetcher.Form>
    </Dialog>
  );
}
