import type { SubmissionResult } from "@conform-to/react";
import { useActionData } from "@remix-run/react";

/**
 * What every form action answers when it does not redirect: conform's reply under `result`, and
 * `form`, the intent of the form it answers when the page has several (the intent dispatcher,
 * app/web/intents.server.ts, sets it). A reply without `form` is for the page's only form.
 */
export type FormReply = { result: SubmissionResult<string[]>; form?: string };

function isFormReply(value: unknown): value is FormReply {
  return typeof value === "object" && value !== null && "result" in value;
}

/**
 * The action's reply when it answers the form `formId` (its intent), for useForm's `lastResult`:
 * a page with several forms shows each reply under its own form only.
 */
export function useFormReply(formId: string): SubmissionResult<string[]> | undefined {
  const reply: unknown = useActionData();
  if (!isFormReply(reply)) return undefined;
  return reply.form === undefined || reply.form === formId ? reply.result : undefined;
}
