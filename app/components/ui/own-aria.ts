// Apart from use-intent-form.ts so that field.tsx does not bring zod with it.

/**
 * conform's control props without its aria attributes and key: the field frame sets the aria
 * attributes itself, from the same errors, and also points at the hint.
 */
export function ownAria<
  T extends { key?: unknown; "aria-invalid"?: unknown; "aria-describedby"?: unknown },
>(props: T): Omit<T, "key" | "aria-invalid" | "aria-describedby"> {
  const { key: _key, "aria-invalid": _invalid, "aria-describedby": _describedBy, ...rest } = props;
  return rest;
}
