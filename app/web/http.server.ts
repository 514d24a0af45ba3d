import type { FormReply } from "./form-reply";
import { data } from "@remix-run/node";
import type { z } from "zod";
import {
  ConflictError,
  ServiceError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  UpstreamError,
  type FieldErrors,
} from "~/services/core";
import { env } from "~/utils/env.server";

export function statusOf(error: ServiceError): number {
  if (error instanceof InvalidError) return 400;
  if (error instanceof UnauthorizedError) return 401;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ConflictError) return 409;
  if (error instanceof RateLimitedError) return 429;
  if (error instanceof UpstreamError) return error.retryable ? 503 : 502;
  return 400;
}

/** Retry-After for a rate limit, and for an outside service that said when to come back. */
function headersOf(error: ServiceError): HeadersInit | undefined {
  const seconds =
    error instanceof RateLimitedError || error instanceof UpstreamError
      ? error.retryAfterSeconds
      : undefined;
  return seconds === undefined ? undefined : { "Retry-After": String(seconds) };
}

/** JSON body of every API error: `{ error, fieldErrors? }`. */
export function apiError(error: ServiceError) {
  const body: { error: string; fieldErrors?: FieldErrors } = { error: error.message };
  if (error instanceof InvalidError && Object.keys(error.fieldErrors).length > 0) {
    body.fieldErrors = error.fieldErrors;
  }
  return Response.json(body, { status: statusOf(error), headers: headersOf(error) });
}

/**
 * Runs an API handler; domain errors become 4xx JSON. Anything else is a bug and propagates to
 * the error boundary (logged, generic 500), never leaking details.
 */
export async function handleApi(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ServiceError) return apiError(error);
    if (error instanceof Response) return error;
    throw error;
  }
}

/** A 4xx JSON response thrown from request parsing: Remix returns thrown Responses as-is. */
function badRequest(message: string, status = 400) {
  return Response.json({ error: message }, { status });
}

const tooLarge = () => badRequest("Request body is too large", 413);

/**
 * The body's bytes, counted while they arrive: past `maxBytes` it stops reading and throws 413,
 * whatever Content-Length claims (or when there is none). The rest is left unread rather than
 * cancelled: cancelling destroys the socket, and the client would never see the 413.
 */
async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge();
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    throw badRequest("Request body could not be read");
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

// A cross-site form cannot send this type without a CORS preflight, which we never allow.
const JSON_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-?8"?\s*)?$/i;

/**
 * Reads a JSON API body (`Content-Type: application/json`). Malformed JSON, another type or a
 * body over `maxBytes` is a thrown 400/415/413 Response, never a crash; so is JSON that is not an
 * object. An empty body reads as {}.
 */
export async function readJson(request: Request, maxBytes = 64 * 1024): Promise<unknown> {
  const text = new TextDecoder().decode(await readCapped(request, maxBytes));
  if (!text.trim()) return {};
  if (!JSON_TYPE.test(request.headers.get("content-type")?.trim() ?? "")) {
    throw badRequest("Content-Type must be application/json", 415);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest("Request body must be valid JSON");
  }
  if (/\\u0000/i.test(text) || text.includes("\u0000")) throw badRequest(NUL_MESSAGE);
  // Every body the product reads is an object of named fields: `null`, a list or a bare value
  // would reach code that reads fields of it.
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    const message = "Request body must be a JSON object";
    // The API's error shape: the message once more as the whole form's field error.
    throw Response.json({ error: message, fieldErrors: { form: [message] } }, { status: 400 });
  }
  return parsed;
}

/**
 * PostgreSQL cannot store or compare text holding the NUL character (nor jsonb its \u0000
 * escape): a JSON or text body carrying one is refused where it is read, as a 400, instead of
 * failing a query further in; a form's fields lose it (readForm). No field has a use for it.
 */
const NUL_MESSAGE = "Text must not contain the NUL character";

/** The body as text, whatever its type (at most `maxBytes`; 413 past it). */
export async function readBody(request: Request, maxBytes: number): Promise<string> {
  const text = new TextDecoder().decode(await readCapped(request, maxBytes));
  if (text.includes("\u0000")) throw badRequest(NUL_MESSAGE);
  return text;
}

/** Reads a form body (the route's forms are small), refusing oversized or unreadable ones. */
export async function readForm(request: Request, maxBytes = 64 * 1024): Promise<FormData> {
  const bytes = await readCapped(request, maxBytes);
  const type = request.headers.get("content-type") ?? "";
  let form: FormData;
  if (type.toLowerCase().includes("multipart/form-data")) {
    try {
      form = await new Response(bytes, { headers: { "content-type": type } }).formData();
    } catch {
      throw badRequest("Request body must be a form");
    }
  } else {
    form = new FormData();
    for (const [key, value] of new URLSearchParams(new TextDecoder().decode(bytes))) {
      form.append(key, value);
    }
  }
  // NUL characters are dropped from fields (see NUL_MESSAGE): a form answers with its own field
  // messages, never a bare 400, and nobody means to type one.
  if (
    [...form].some(
      ([key, value]) =>
        key.includes("\u0000") || (typeof value === "string" && value.includes("\u0000")),
    )
  ) {
    const clean = new FormData();
    for (const [key, value] of form) {
      clean.append(
        key.replaceAll("\u0000", ""),
        typeof value === "string" ? value.replaceAll("\u0000", "") : value,
      );
    }
    return clean;
  }
  return form;
}

/** The /local/* stand-in pages (studio, hosted sites) exist only with PROVIDERS=local. */
export function requireLocalProviders() {
  if (env().PROVIDERS !== "local") throw new Response("Not Found", { status: 404 });
}

/** zod issues -> field errors keyed by the top-level field name. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : "form";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** Parses with zod, throwing InvalidError with per-field messages. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw new InvalidError("Invalid input", fieldErrorsOf(result.error));
  return result.data;
}

export type { FormReply } from "./form-reply";

/**
 * The one answer of a form action that does not redirect (pages and their forms, not the JSON
 * API, which answers through handleApi/apiError). `body.result` is conform's `submission.reply()`
 * (field and form errors: the form reads it as useForm's `lastResult`, or with `formErrorOf`),
 * beside any data the page needs. `failure` sets the status: a domain error's own (429 with
 * Retry-After for RateLimitedError, 502/503 for an outside service), or a number; none is 200.
 */
export function formReply<T extends FormReply>(body: T, failure?: ServiceError | number) {
  if (failure === undefined) return data(body);
  if (typeof failure === "number") return data(body, { status: failure });
  return data(body, { status: statusOf(failure), headers: headersOf(failure) });
}
