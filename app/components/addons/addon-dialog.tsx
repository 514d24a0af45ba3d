import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useActionData, useFetcher, useLocation } from "@remix-run/react";
import { useMemo, useState } from "react";
import { Button } from "~/components/ui/button";
import { Dialog, DialogCancelLink } from "~/components/ui/dialog";
import { FieldError } from "~/components/ui/field";
import { FailureToast } from "~/components/ui/toaster";
import { ADDONS, TOKEN_MESSAGES } from "~/services/addons";
import { addonFormSchema } from "~/services/addons";
import type { AddonCard } from "~/services/addons/index.server";
import type { FormReply } from "~/web/form-reply";

/** The intent the dialog posts; the dashboard's action hands it to its add-ons action. */
export const ADDON_INTENT = "addon-toggle";

/** What the dashboard action answers when the confirmation stays open: the token's message. */
export type AddonActionData = FormReply & { intent: typeof ADDON_INTENT };

/**
 * 'Enable X?' / 'Disable X?' before an add-on changes. Enabling Visual Tests the first time asks
 * for the Chromatic project token (chpt_..., stored encrypted, never shown again).
 */
export function AddonDialog({
  studioId,
  projectName,
  card,
  back,
  onClose,
}: {
  studioId: string;
  projectName: string;
  card: AddonCard;
  back: string;
  onClose: () => void;
}) {
  const location = useLocation();
  const fetcher = useFetcher<AddonActionData>();
  const actionData = useActionData<AddonActionData | undefined>();
  const answer = fetcher.data ?? (actionData?.intent === ADDON_INTENT ? actionData : null);
  const addon = ADDONS[card.key];
  const enabling = !card.enabled;
  const needsToken = card.key === "visualTests" && enabling && !card.hasToken;
  const [form, fields] = useForm({
    id: `addon-${card.key}`,
    lastResult: answer?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: getZodConstraint(addonFormSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addonFormSchema }),
  });
  // 'Invalid token format' after a refused submit: the browser's check, or the server's answer.
  const [refusedHere, setRefusedHere] = useState(false);
  const refused = refusedHere || Boolean(answer?.result?.error?.chromaticProjectToken);
  // Each refusal is the toast again (a new array is a new failure for FailureToast): one the
  // browser's check made, or a new answer of the server's that refuses the token.
  const [refusals, setRefusals] = useState(0);
  const serverRefusal = answer?.result?.error?.chromaticProjectToken ? answer : null;
  const toastErrors = useMemo(
    () => (needsToken && refused ? [TOKEN_MESSAGES.badSubmit] : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new refusal is a new toast
    [needsToken, refused, refusals, serverRefusal],
  );
  const formProps = getFormProps(form);
  const busy = fetcher.state !== "idle";
  const verb = enabling ? "Enable" : "Disable";
  const { key: tokenKey, ...tokenProps } = getInputProps(fields.chromaticProjectToken, {
    type: "password",
  });

  return (
    <>
      {/* The specification's toast, beside the words above the field; outside the dialog so it
          shows where toasts show, without JavaScript too. */}
      <FailureToast errors={toastErrors} />
      <Dialog
        open
        role="alertdialog"
        onOpenChange={(next) => {
          if (!next && !busy) onClose();
        }}
        title={`${verb} ${addon.label}?`}
        description={
          needsToken
            ? `Visual Tests compares screenshots with Chromatic. Enter the Chromatic project token of ${projectName} to set it up.`
            : `${addon.label} will be ${enabling ? "switched on" : "switched off"} for ${projectName}.`
        }
      >
        <fetcher.Form
          method="post"
          // This page's address: without JavaScript a refused token comes back with the dialog open.
          action={`/sites/${studioId}${location.search}`}
          className="space-y-4"
          {...formProps}
          onSubmit={(event) => {
            formProps.onSubmit(event);
            setRefusedHere(needsToken && event.defaultPrevented);
            if (needsToken && event.defaultPrevented) setRefusals((n) => n + 1);
          }}
        >
          <input type="hidden" name="intent" value="addon-toggle" />
          <input type="hidden" name="redirectTo" value={back} />
          <input type="hidden" name="addon" value={card.key} />
          <input type="hidden" name="enabled" value={String(enabling)} />
          {needsToken && refused ? (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
              {TOKEN_MESSAGES.badSubmit}
            </p>
          ) : null}
          {needsToken ? (
            <div>
              <label
                htmlFor={fields.chromaticProjectToken.id}
                className="block text-sm font-medium"
              >
                Project token
              </label>
              <input
                key={tokenKey}
                {...tokenProps}
                required
                autoComplete="off"
                placeholder="chpt_..."
                aria-invalid={fields.chromaticProjectToken.errors?.length ? true : undefined}
                aria-describedby={
                  fields.chromaticProjectToken.errors?.length
                    ? fields.chromaticProjectToken.errorId
                    : undefined
                }
                className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand focus:outline-none focus:ring-1 focus:ring-brand aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-900"
              />
              <FieldError
                id={fields.chromaticProjectToken.errorId}
                errors={fields.chromaticProjectToken.errors}
              />
            </div>
          ) : null}
          <div className="flex justify-end gap-3">
            <DialogCancelLink back={back} busy={busy} onClose={onClose} />
            <Button type="submit" variant={enabling ? "primary" : "danger"} disabled={busy}>
              {busy ? "Saving..." : `Yes, ${verb.toLowerCase()}`}
            </Button>
          </div>
        </fetcher.Form>
      </Dialog>
    </>
  );
}
