import { ServiceError } from "~/services/core";
import { ProjectNotFoundError } from "~/services/permissions/index.server";
import { notFound } from "~/utils/responses.server";
import { formReply, readForm, type FormReply } from "./http.server";

/** The answer to a form the page does not have (a stale or hand-made post). */
export const UNKNOWN_FORM = "Unknown form";

/**
 * A handler's caught error as the failure its form answers (a ServiceError: a refusal, a limit,
 * an outside service). Anything else is thrown on: the hidden project to dispatchIntent, which
 * answers it with the page's 404, and a fault to the error boundary.
 */
export function formFailure(error: unknown): ServiceError {
  if (error instanceof ServiceError && !(error instanceof ProjectNotFoundError)) return error;
  throw error;
}

/** The one 400 reply to an intent the page does not have. */
export function unknownForm(intent: string) {
  return formReply(
    { result: { status: "error", error: { "": [UNKNOWN_FORM] } }, form: intent },
    400,
  );
}

/** What a handler gets: the form read once, its intent, and `reply` tagged with that intent. */
export type IntentContext = {
  formData: FormData;
  intent: string;
  /** formReply with `form: intent`, so only the form that posted shows it (useFormReply). */
  reply: <T extends FormReply>(
    body: T,
    failure?: ServiceError | number,
  ) => ReturnType<typeof formReply<T & { form: string }>>;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers answer in their own shapes
type Handler = (context: IntentContext) => Promise<any>;

type Options = {
  /** The body's cap, as readForm's. */
  maxBytes: number;
  /** The form, when the route has read it already (to pick a dispatcher by another field). */
  formData?: FormData;
  /**
   * A ServiceError no handler answered (the project hidden from the user aside, which is the 404
   * here): the page's shared failure, usually a toast.
   */
  onError?: (error: ServiceError, context: IntentContext) => unknown;
};

/**
 * A page action with several forms: reads the form once and runs the handler of its `intent`.
 * An unknown intent is one 400 reply ('Unknown form'); a ProjectNotFoundError from any handler
 * is the page's 404, so routes do not repeat either.
 */
export async function dispatchIntent<H extends Record<string, Handler>>(
  request: Request,
  handlers: H,
  options: Options,
): Promise<
  Awaited<ReturnType<H[keyof H]>> | ReturnType<typeof formReply<FormReply & { form: string }>>
> {
  const formData = options.formData ?? (await readForm(request, options.maxBytes));
  const raw = formData.get("intent");
  const intent = typeof raw === "string" ? raw : "";
  const handler = Object.hasOwn(handlers, intent) ? handlers[intent] : undefined;
  if (!handler) return unknownForm(intent);
  const context: IntentContext = {
    formData,
    intent,
    reply: (body, failure) => formReply({ ...body, form: intent }, failure),
  };
  try {
    return await handler(context);
  } catch (error) {
    if (error instanceof ProjectNotFoundError) notFound();
    if (options.onError && error instanceof ServiceError) {
      return (await options.onError(error, context)) as Awaited<ReturnType<H[keyof H]>>;
    }
    throw error;
  }
}
