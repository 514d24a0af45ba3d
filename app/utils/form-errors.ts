import type { SubmissionResult } from "@conform-to/react";

/**
 * The message of a form action's reply (`formReply` in http.server.ts: conform's
 * `submission.reply()`) for the pages that show it without a conform form, whose fields are
 * hidden inputs: the form-level message, else the first field's. (useForm reads the same reply
 * as `lastResult` and shows `form.errors` and each field's errors.)
 */
export function formErrorOf(result: SubmissionResult<string[]> | null | undefined) {
  const errors = result?.error;
  if (!errors) return undefined;
  return errors[""]?.[0] ?? Object.values(errors).find((messages) => messages?.length)?.[0];
}
