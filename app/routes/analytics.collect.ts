import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { recordPageView, type PageViewReport } from "~/services/analytics/index.server";
import { ServiceError, InvalidError } from "~/services/core";
import { methodNotAllowed } from "~/web/api.server";
import { apiError, readBody } from "~/web/http.server";

/** Reports come from the site's own origins; a browser may read the answer from those only. */
function cors(origin: string | null): Record<string, string> {
  return origin
    ? {
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Methods": "POST, OPTIONS",
        "Access-Control-Allow-Headers": "Content-Type",
        "Access-Control-Max-Age": "600",
        Vary: "Origin",
      }
    : { Vary: "Origin" };
}

/** A transparent 1x1 GIF: the answer to the <noscript> pixel. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

function reportOf(request: Request, clientIp: unknown, fields: Record<string, unknown>) {
  return {
    key: fields.k,
    path: fields.p,
    referrer: fields.r,
    origin: request.headers.get("origin"),
    userAgent: request.headers.get("user-agent"),
    clientIp: typeof clientIp === "string" ? clientIp : "unknown",
  } satisfies PageViewReport;
}

async function answer(run: () => Promise<Response>, headers: Record<string, string>) {
  try {
    return await run();
  } catch (error) {
    let response: Response;
    if (error instanceof Response) response = error;
    else if (error instanceof ServiceError) response = apiError(error);
    else throw error;
    for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
    return response;
  }
}

/**
 * POST /analytics/collect: a page view from a site's script, JSON `{k, p, r}` (the analytics key,
 * the page's path, its referrer) sent as text/plain by sendBeacon or as application/json; 204.
 * Unknown keys 404, another site's origin 403, bodies over 2 KB 413, floods 429.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const method = request.method.toUpperCase();
  if (method !== "POST" && method !== "OPTIONS") return methodNotAllowed("GET, POST, OPTIONS");
  const origin = request.headers.get("origin");
  // A preflight carries no key to check the origin against; the POST itself is checked.
  if (method === "OPTIONS") return new Response(null, { status: 204, headers: cors(origin) });
  const refused = cors(null);
  return answer(async () => {
    const text = await readBody(request, 2048);
    let fields: unknown;
    try {
      fields = JSON.parse(text);
    } catch {
      throw new InvalidError("Request body must be valid JSON");
    }
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
      throw new InvalidError("Request body must be a JSON object");
    }
    await recordPageView(reportOf(request, context.clientIp, fields as Record<string, unknown>));
    // Counted (or a robot's, dropped): the origin was the site's own.
    return new Response(null, { status: 204, headers: cors(origin) });
  }, refused);
}

/**
 * GET /analytics/collect?k=&p=&r=: the same report from the <noscript> pixel of a page
 * viewed without JavaScript; answered with a transparent GIF (or the error status).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const headers = { "Cache-Control": "no-store" };
  return answer(async () => {
    await recordPageView(
      reportOf(request, context.clientIp, {
        k: params.get("k"),
        p: params.get("p") ?? "/",
        r: params.get("r") ?? "",
      }),
    );
    return new Response(PIXEL, { headers: { ...headers, "Content-Type": "image/gif" } });
  }, headers);
}
