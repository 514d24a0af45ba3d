import { useForm, type DefaultValue } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { $ZodType, input, output } from "zod/v4/core";
import { useFormReply } from "~/web/form-reply";

/**
 * The page form of one intent: conform's useForm with the id `intent`, the action's reply only
 * when it answers this form (useFormReply), and the constraints and checks of the zod schema the
 * action parses. The constraints become HTML attributes the browser applies before JavaScript
 * loads (`defaultNoValidate: false`); once hydrated, conform checks the schema itself.
 */
// The form's values as conform sees them: an object of the schema's input.
type Values<S extends $ZodType> = Extract<input<S>, Record<string, unknown>>;

const constraints = new WeakMap<$ZodType, ReturnType<typeof getZodConstraint>>();

/**
 * A schema's HTML constraints, worked out once per schema: a page renders many forms of one
 * schema (a role select per member row) and renders again on every refresh.
 */
export function constraintOf(schema: $ZodType): ReturnType<typeof getZodConstraint> {
  let found = constraints.get(schema);
  if (!found) constraints.set(schema, (found = getZodConstraint(schema)));
  return found;
}

export function useIntentForm<S extends $ZodType<Record<string, unknown>>>(
  intent: string,
  schema: S,
  options: {
    defaultValue?: DefaultValue<Values<S>>;
    /** A reply this form should show though it is not tagged with the intent. */
    lastResult?: ReturnType<typeof useFormReply>;
  } = {},
) {
  const reply = useFormReply(intent);
  return useForm<Values<S>, output<S>>({
    id: intent,
    lastResult: options.lastResult ?? reply,
    defaultValue: options.defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: constraintOf(schema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

export { ownAria } from "./own-aria";
