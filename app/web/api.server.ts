import type { z } from "zod";
import type { User } from "~/services/accounts.server";
import { handleApi, parseInput, readJson } from "./http.server";
import { requireApiUser } from "./session.server";

/** 405 with the methods the route does answer. */
export function methodNotAllowed(allow: string) {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: allow } });
}

/**
 * The JSON API's POST routes in one shape: only POST (else 405), a signed-in caller (401), a JSON
 * body of at most `maxBytes` checked against `schema` (400 with field errors), then `run`; domain
 * errors become their 4xx/5xx answer through handleApi. A route module is then
 * `export const loader = () => methodNotAllowed("POST")` and an action that calls this.
 */
export function apiPost<T extends z.ZodType>(
  request: Request,
  schema: T,
  run: (user: User, input: z.output<T>) => Promise<Response>,
  { maxBytes = 16 * 1024 }: { maxBytes?: number } = {},
): Promise<Response> {
  if (request.method !== "POST") return Promise.resolve(methodNotAllowed("POST"));
  return handleApi(async () => {
    const user = await requireApiUser(request);
    return run(user, parseInput(schema, await readJson(request, maxBytes)));
  });
}
