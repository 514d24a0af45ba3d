import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type FieldMetadata,
} from "@conform-to/react";
import { FailureToast } from "./toaster";
import { ownAria } from "./use-intent-form";
import {
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
 * The frame every field shares: the label, the control (`render` gets the attributes that tie it
 * to its label and messages), the hint and the error message.
 */
function FieldFrame({
  label,
  errors,
  hint,
  id,
  render,
}: Common & { id?: string; render: (control: ControlProps) => ReactNode }) {
  const fallback = useId();
  const inputId = id ?? fallback;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const invalid = Boolean(errors?.length);
  return (
    <div>
      <label htmlFor={inputId} className="block text-sm font-medium">
        {label}
      </label>
      {render({
        id: inputId,
        className: inputClass,
        "aria-invalid": invalid || undefined,
        "aria-describedby":
          [invalid ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined,
      })}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} errors={errors} />
    </div>
  );
}

/** A labelled input with its error message beside it (aria-describedby ties them together). */
export function Field({
  label,
  errors,
  hint,
  id,
  field,
  ...props
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  const type = (props.type ?? "text") as InputType;
  const conform = field ? ownAria(getInputProps(field, { type })) : undefined;
  return (
    <FieldFrame
      label={label}
      errors={errors ?? field?.errors}
      hint={hint}
      id={id ?? conform?.id}
      render={(control) => <input key={field?.key} {...control} {...conform} {...props} />}
    />
  );
}

export function TextareaField({
  label,
  errors,
  hint,
  id,
  field,
  ...props
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const conform = field ? ownAria(getTextareaProps(field)) : undefined;
  return (
    <FieldFrame
      label={label}
      errors={errors ?? field?.errors}
      hint={hint}
      id={id ?? conform?.id}
      render={(control) => <textarea key={field?.key} {...control} {...conform} {...props} />}
    />
  );
}

/** A labelled select with its error message beside it. */
export function SelectField({
  label,
  errors,
  hint,
  id,
  field,
  ...props
}: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  const conform = field ? ownAria(getSelectProps(field)) : undefined;
  return (
    <FieldFrame
      label={label}
      errors={errors ?? field?.errors}
      hint={hint}
      id={id ?? conform?.id}
      render={(control) => <select key={field?.key} {...control} {...conform} {...props} />}
    />
  );
}

/**
 * A form's failure that is no field's (a refusal, a limit, an outside service): a toast, by the
 * forms rule (field errors beside the field, other failures as a toast).
 */
export function FormError({ message, errors }: { message?: string | null; errors?: string[] }) {
  return <FailureToast message={message} errors={errors} />;
}
