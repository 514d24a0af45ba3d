import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type FieldMetadata,
} from "@conform-to/react";
import { FailureToast } from "./toaster";
import { ownAria } from "./own-aria";
import {
  Fragment,
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";

const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand focus:outline-none focus:ring-1 focus:ring-brand aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-900";

export function FieldError({ id, errors }: { id: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-600 dark:text-red-400">
      {errors[0]}
    </p>
  );
}

type Common = {
  label: ReactNode;
  errors?: string[] | null;
  hint?: ReactNode;
  /**
   * The conform field it shows (from useIntentForm): its name, id, constraints, default value,
   * errors and key come from there, so a form's fields are written once, in its schema.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any field of any form
  field?: FieldMetadata<any, any, string[]>;
};

/** The text-like input types (a checkbox or radio is written as its own control). */
type InputType = Exclude<Parameters<typeof getInputProps>[1]["type"], "checkbox" | "radio">;

/** The attributes that tie a control to its label, hint and error message. */
type ControlProps = {
  id: string;
  className: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
};

/**
 * The frame every field shares: the label, the control, the hint and the error message. The
 * control gets, in this order, conform's attributes of `field` (name, constraints, default), the
 * attributes that tie it to its label and messages, and the caller's own (which win).
 */
function FieldFrame<P extends { id?: string }>({
  label,
  errors,
  hint,
  field,
  conform,
  props,
  render,
}: Common & {
  conform: ({ id?: string; key?: unknown; "aria-invalid"?: unknown } & object) | undefined;
  props: P;
  render: (attributes: ControlProps & P) => ReactNode;
}) {
  const fallback = useId();
  const inputId = props.id ?? conform?.id ?? fallback;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const shown = errors ?? field?.errors;
  const invalid = Boolean(shown?.length);
  return (
    <div>
      <label htmlFor={inputId} className="block text-sm font-medium">
        {label}
      </label>
      {/* A new key from conform (a reset form) starts the control afresh. */}
      <Fragment key={field?.key}>
        {render({
          ...(conform ? ownAria(conform) : {}),
          ...props,
          id: inputId,
          className: inputClass,
          "aria-invalid": invalid || undefined,
          "aria-describedby":
            [invalid ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined,
        })}
      </Fragment>
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} errors={shown} />
    </div>
  );
}

/** A labelled input with its error message beside it (aria-describedby ties them together). */
export function Field({
  label,
  errors,
  hint,
  field,
  ...props
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  const conform = field && getInputProps(field, { type: (props.type ?? "text") as InputType });
  const frame = { label, errors, hint, field, conform, props };
  return <FieldFrame {...frame} render={(attributes) => <input {...attributes} />} />;
}

export function TextareaField({
  label,
  errors,
  hint,
  field,
  ...props
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const frame = { label, errors, hint, field, conform: field && getTextareaProps(field), props };
  return <FieldFrame {...frame} render={(attributes) => <textarea {...attributes} />} />;
}

/** A labelled select with its error message beside it. */
export function SelectField({
  label,
  errors,
  hint,
  field,
  ...props
}: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  const frame = { label, errors, hint, field, conform: field && getSelectProps(field), props };
  return <FieldFrame {...frame} render={(attributes) => <select {...attributes} />} />;
}

/**
 * A form's failure that is no field's (a refusal, a limit, an outside service): a toast, by the
 * forms rule (field errors beside the field, other failures as a toast).
 */
export function FormError({ message, errors }: { message?: string | null; errors?: string[] }) {
  return <FailureToast message={message} errors={errors} />;
}
