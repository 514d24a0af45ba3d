import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { useHydrated } from "~/utils/page-load";
import { pageWithoutDialog } from "~/components/shell/shell-helpers";
import { Button, buttonClass } from "~/components/ui/button";
import { Dialog } from "~/components/ui/dialog";
import { Field, FormError } from "~/components/ui/field";
import { reviewProjectSchema, sanitizeProjectNameInput } from "~/services/projects";
import { SITE_TYPE_LABEL, type SiteType } from "~/services/projects";

/** Where the dialog posts: the action of app/routes/_app.sites._index.tsx. */
export const CREATE_PROJECT_ACTION = "/sites?index";

/** What that action answers when it does not redirect (a review, or an error). */
export type CreateProjectActionData = {
  result: SubmissionResult<string[]>;
  /** Set after a valid first submit: the confirmation to show, with its idempotency key. */
  confirm?: { name: string; siteType: SiteType; idempotencyKey: string } | null;
  redirectTo?: string;
};

type Confirm = NonNullable<CreateProjectActionData["confirm"]>;

/** A key for the create request; getRandomValues works on plain http too (randomUUID does not). */
function clientIdempotencyKey() {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The 'Create New' modal: idle -> confirming (the first submit asks
 * 'Create a Business project named "X"?') -> creating (the second submit) -> idle, form cleared.
 *
 * Without JavaScript the first submit goes to the server (intent "review"), which validates, adds
 * an idempotency key and renders the confirmation inline; `lastResult` carries that answer. With
 * JavaScript the first step happens here and the create is a fetcher submission. Either way the
 * confirmation holds one key, so a double-click creates one project.
 */
export function CreateProjectDialog({
  open,
  onOpenChange,
  isAdmin,
  lastResult,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  isAdmin: boolean;
  /** The action's answer to a no-JavaScript submit, when this page rendered it. */
  lastResult?: CreateProjectActionData | null;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  const fetcher = useFetcher<CreateProjectActionData>();
  // After a successful create the fetcher still holds its previous answer; `stale` hides it.
  const [stale, setStale] = useState<CreateProjectActionData | null>(null);
  const answer = fetcher.data ?? lastResult ?? null;
  const serverData = answer && answer !== stale ? answer : null;
  const redirectTo = serverData?.redirectTo ?? pageWithoutDialog(location);

  const [confirm, setConfirm] = useState<Confirm | null>(lastResult?.confirm ?? null);
  const initialName = serverData?.result?.initialValue?.name;
  const [name, setName] = useState(typeof initialName === "string" ? initialName : "");
  // Bumped after a successful create: remounts the form empty, ready for the next project.
  const [generation, setGeneration] = useState(0);

  const formId = `create-project-${useId().replace(/:/g, "")}-${generation}`;
  const [form, fields] = useForm({
    id: formId,
    lastResult: serverData?.result,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    constraint: getZodConstraint(reviewProjectSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: reviewProjectSchema }),
    onSubmit(event, { submission }) {
      // With JavaScript the review step is local: no round trip before the confirmation.
      event.preventDefault();
      if (submission?.status !== "success") return;
      setConfirm({
        name: submission.value.name,
        siteType: submission.value.siteType ?? "business",
        idempotencyKey: clientIdempotencyKey(),
      });
    },
  });

  // Track the create request: new data means the server refused it; none means it redirected.
  const pending = useRef<{ data: unknown } | null>(null);
  useEffect(() => {
    if (fetcher.state !== "idle") {
      pending.current ??= { data: fetcher.data };
      return;
    }
    if (!pending.current) return;
    const refused = fetcher.data !== pending.current.data;
    pending.current = null;
    setConfirm(null);
    if (!refused) {
      setStale(fetcher.data ?? lastResult ?? null);
      setName("");
      setGeneration((g) => g + 1);
      if (open) onOpenChange(false);
    }
  }, [fetcher.state, fetcher.data, lastResult, open, onOpenChange]);

  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirm && hydrated) confirmButton.current?.focus();
  }, [confirm, hydrated]);

  const creating = fetcher.state !== "idle";
  const confirming = Boolean(confirm);
  const { key: nameKey, ...nameProps } = getInputProps(fields.name, { type: "text" });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // Escape while confirming steps back to the form instead of closing everything.
        if (!next && confirming && !creating) return setConfirm(null);
        onOpenChange(next);
      }}
      title="Create New"
      description="Start a new StackShift project: a content studio paired with a hosted website."
      width="max-w-[768px]"
    >
      <form
        key={generation}
        method="post"
        action={CREATE_PROJECT_ACTION}
        className="space-y-4"
        {...getFormProps(form)}
      >
        <FormError message={form.errors?.[0]} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          key={nameKey}
          label="Name"
          autoComplete="off"
          required
          readOnly={confirming}
          errors={fields.name.errors}
          {...nameProps}
          // While confirming, show the name as it will be saved (the server sanitized it).
          defaultValue={confirm?.name ?? nameProps.defaultValue}
          onInput={(event) => {
            const input = event.currentTarget;
            const clean = sanitizeProjectNameInput(input.value);
            if (clean !== input.value) {
              // Keep the caret where it was, less what was removed before it.
              const caret = input.selectionStart ?? clean.length;
              const removed = input.value.length - clean.length;
              input.value = clean;
              const at = Math.max(0, Math.min(clean.length, caret - removed));
              input.setSelectionRange(at, at);
            }
            setName(clean);
          }}
        />
        {/* Disabled radios are not submitted; the reviewed choice travels in a hidden input. */}
        {confirm ? <input type="hidden" name="siteType" value={confirm.siteType} /> : null}
        {isAdmin ? (
          <SiteTypeChoice
            name={fields.siteType.name}
            initial={fields.siteType.initialValue === "enterprise" ? "enterprise" : "business"}
            disabled={confirming}
            errors={fields.siteType.errors}
          />
        ) : null}

        <div className="flex flex-wrap items-center justify-end gap-3">
          <Link
            to={redirectTo}
            className={buttonClass("secondary")}
            onClick={(event) => {
              if (!hydrated) return;
              event.preventDefault();
              onOpenChange(false);
            }}
          >
            Close
          </Link>
          <Button
            type="submit"
            name="intent"
            value="review"
            disabled={confirming || creating || (hydrated && !name.trim())}
          >
            Create
          </Button>
        </div>
      </form>

      {confirm ? (
        <div
          role="alertdialog"
          aria-labelledby={`${formId}-confirm-title`}
          className="relative mt-4 rounded-lg border border-slate-200 bg-white p-4 shadow-lg dark:border-slate-700 dark:bg-slate-800"
        >
          {/* The arrow makes the region read as a popover attached to the Create button. */}
          <span
            aria-hidden="true"
            className="absolute -top-2 right-8 h-4 w-4 rotate-45 border-l border-t border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-800"
          />
          <p id={`${formId}-confirm-title`} className="text-sm font-medium">
            Create a {SITE_TYPE_LABEL[confirm.siteType]} project named &quot;{confirm.name}&quot;?
          </p>
          <fetcher.Form
            method="post"
            action={CREATE_PROJECT_ACTION}
            className="mt-3 flex justify-end gap-3"
          >
            <input type="hidden" name="intent" value="create" />
            <input type="hidden" name="name" value={confirm.name} />
            <input type="hidden" name="siteType" value={confirm.siteType} />
            <input type="hidden" name="idempotencyKey" value={confirm.idempotencyKey} />
            {/* With JavaScript the page stays (back to idle, form cleared); without, the action
                falls back to the new project's page. */}
            {hydrated ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
            {/* Without JavaScript, Cancel re-submits the form above as "edit": back to idle. */}
            <Button
              type="submit"
              form={formId}
              name="intent"
              value="edit"
              variant="secondary"
              disabled={creating}
              onClick={(event) => {
                if (!hydrated) return;
                event.preventDefault();
                setConfirm(null);
              }}
            >
              Cancel
            </Button>
            <Button ref={confirmButton} type="submit" disabled={creating}>
              {creating ? "Creating..." : "Yes, create"}
            </Button>
          </fetcher.Form>
        </div>
      ) : null}
    </Dialog>
  );
}

function SiteTypeChoice({
  name,
  initial,
  disabled,
  errors,
}: {
  name: string;
  initial: SiteType;
  disabled: boolean;
  errors?: string[];
}) {
  const id = useId();
  return (
    <fieldset aria-describedby={errors?.length ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium">Site type</legend>
      <div className="mt-2 flex gap-6">
        {(["business", "enterprise"] as const).map((type) => (
          <label key={type} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={name}
              value={type}
              defaultChecked={initial === type}
              disabled={disabled}
              className="h-4 w-4 accent-brand"
            />
            {SITE_TYPE_LABEL[type]}
          </label>
        ))}
      </div>
      {errors?.length ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {errors[0]}
        </p>
      ) : null}
    </fieldset>
  );
}
