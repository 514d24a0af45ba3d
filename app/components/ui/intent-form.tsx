import { getFormProps, type FormMetadata } from "@conform-to/react";
import { Form, type FormProps } from "@remix-run/react";
import { FormError } from "./field";

/**
 * A page form of one intent, the house pattern: a conform form (from useIntentForm, whose id is
 * the intent) that posts its intent to the page's action, shows its own failure as a toast and
 * stays where it is on the page. Its children are the fields and the buttons.
 */
export function IntentForm({
  form,
  children,
  ...props
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any form's values
  form: FormMetadata<any, string[]>;
} & Omit<FormProps, "method" | "id" | "onSubmit" | "noValidate">) {
  return (
    <Form method="post" replace preventScrollReset {...props} {...getFormProps(form)}>
      <input type="hidden" name="intent" value={form.id} />
      <FormError errors={form.errors} />
      {children}
    </Form>
  );
}
