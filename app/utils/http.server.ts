import { data } from "@remix-run/node";
import type { z } from "zod";
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  type FieldErrors,
} from "~/services/errors";

export function statusOf(error: DomainError): number {
  if (error instanceof InvalidError) return 400;
  if (error instanceof UnauthorizedError) return 401;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ConflictError) return 409;
  if (error instanceof RateLimitedError) return 429;
  return 400;
}

function headersOf(error: DomainError): HeadersInit | undefined {
  return error instanceof RateLimitedError
    ? { "Retry-After": String(error.retryAfterSeconds) }
    : undefined;
}

/** JSON body of every API error: `{ error, fieldErrors? }`. */
export function apiError(error: DomainError) {
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
    if (error instanceof DomainError) return apiError(error);
    if (error instanceof Response) return error;
    throw error;
  }
}

/** A 4xx JSON response thrown from request parsing: Remix returns thrown Responses as-is. */
function badRequest(message: string, status = 400) {
  return Response.json({ error: message }, { status });
}

/**
 * Reads a JSON API body. Malformed JSON or a body over `maxBytes` is a thrown 400/413 Response,
 * never a crash.
 */
export async function readJson(request: Request, maxBytes = 64 * 1024): Promise<unknown> {
  const text = await request.text();
  if (text.length > maxBytes) throw badRequest("Request body is too large", 413);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("Request body must be valid JSON");
  }
}

/** Reads a form body (the route's forms are small), refusing oversized or unreadable ones. */
export async function readForm(request: Request, maxBytes = 64 * 1024): Promise<FormData> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxBytes) throw badRequest("Request body is too large", 413);
  let text: string;
  try {
    const type = request.headers.get("content-type") ?? "";
    if (type.includes("multipart/form-data")) {
      const form = await request.formData();
      let size = 0;
      for (const [, value] of form) size += typeof value === "string" ? value.length : value.size;
      if (size > maxBytes) throw badRequest("Request body is too large", 413);
      return form;
    }
    text = await request.text();
  } catch (error) {
    if (error instanceof Response) throw error;
    throw badRequest("Request body must be a form");
  }
  if (text.length > maxBytes) throw badRequest("Request body is too large", 413);
  const form = new FormData();
  for (const [key, value] of new URLSearchParams(text)) form.append(key, value);
  return form;
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

/** For UI actions: a domain error turned into a data() response the form can render. */
export function actionError(error: unknown) {
  if (error instanceof DomainError) {
    return data(
      {
        status: "error" as const,
        message: error.message,
        fieldErrors: error instanceof InvalidError ? error.fieldErrors : {},
      },
      { status: statusOf(error), headers: headersOf(error) },
    );
  }
  throw error;
}
