import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { ServiceError } from "~/services/core";
import {
  acceptSubmission,
  allowedOrigin,
  intakeForm,
  type IntakeForm,
} from "~/services/forms/index.server";
import { MAX_SUBMISSION_BYTES } from "~/services/forms";
import { methodNotAllowed } from "~/web/api.server";
import { apiError, readForm, readJson } from "~/web/http.server";

/** CORS headers for an allowed site origin (none for requests without Origin). */
function cors(origin: string | null): Record<string, string> {
  return origin
    ? {
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Methods": "POST, OPTIONS",
        "Access-Control-Allow-Headers": "Content-Type, Accept",
        "Access-Control-Max-Age": "600",
        Vary: "Origin",
      }
    : { Vary: "Origin" };
}

const wantsJson = (request: Request) =>
  /application\/json/i.test(request.headers.get("accept") ?? "") ||
  /application\/json/i.test(request.headers.get("content-type") ?? "");

/**
 * Where a plain HTML post goes next: the form's own address when set, else the page the site
 * names in `_next` (on one of its own origins: no open redirect), else a thank-you page.
 */
function afterSubmit(form: IntakeForm, next: unknown) {
  if (form.redirectUrl) return form.redirectUrl;
  // The parsed address, not the text as posted: URL parsing drops the CR and LF a decoded
  // `%0D%0A` brings, which a Location header cannot carry (that answered 500 after storing).
  const url = typeof next === "string" && URL.canParse(next) ? new URL(next) : null;
  if (url && form.origins.includes(url.origin)) return url.href;
  return `/forms/${form.id}/thanks`;
}

/**
 * POST /forms/{formId}: a submission of a hosted site's form, as a plain HTML post (answered
 * with a 303 redirect) or from fetch (answered with JSON). Browsers may post only from the
 * project's site addresses (CORS; OPTIONS answers the preflight); bodies over 64 KB are refused
 * with 413; a filled honeypot is thanked and dropped; 30 a minute per form and client address.
 * Fields starting with an underscore are instructions, not data (`_next`: where to go after).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const method = request.method.toUpperCase();
  if (method !== "POST" && method !== "OPTIONS") return methodNotAllowed("POST, OPTIONS");
  const origin = request.headers.get("origin");
  let form: IntakeForm;
  let allowed: string | null;
  try {
    form = await intakeForm(params.formId ?? "");
    allowed = allowedOrigin(form, origin);
  } catch (error) {
    if (error instanceof ServiceError) return apiError(error);
    throw error;
  }
  const headers = cors(allowed);
  if (method === "OPTIONS") return new Response(null, { status: 204, headers });
  try {
    const type = request.headers.get("content-type") ?? "";
    const entries: [string, unknown][] = /application\/json/i.test(type)
      ? Object.entries((await readJson(request, MAX_SUBMISSION_BYTES)) as Record<string, unknown>)
      : [...(await readForm(request, MAX_SUBMISSION_BYTES)).entries()];
    const clientIp = typeof context.clientIp === "string" ? context.clientIp : "unknown";
    // Where to go next is settled before anything is stored or mailed.
    const next = afterSubmit(form, entries.find(([key]) => key === "_next")?.[1]);
    const { id } = await acceptSubmission(form, entries, clientIp);
    if (wantsJson(request)) return Response.json({ ok: true, id }, { status: 201, headers });
    return redirect(next, { status: 303, headers });
  } catch (error) {
    if (error instanceof Response) {
      // A body too large or unreadable: keep the status, add CORS so the page can read it.
      return new Response(error.body, {
        status: error.status,
        headers: { ...Object.fromEntries(error.headers), ...headers },
      });
    }
    if (!(error instanceof ServiceError)) throw error;
    const response = apiError(error);
    for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
    return response;
  }
}

export const loader = () => methodNotAllowed("POST, OPTIONS");
