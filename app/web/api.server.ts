import type { LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import type { User } from "~/services/accounts/index.server";
import { handleApi, parseInput, readJson } from "./http.server";
import { requireApiUser } from "./session.server";

/** 405 with the methods the route does answer. */
export function methodNotAllowed(allow: string) {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: allow } });
}

type Params = LoaderFunctionArgs["params"];
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a handler of the JSON API gets: the request, its path parameters, the signed-in caller. */
export type ApiArgs = { request: Request; params: Params; user: User };
export type ApiHandler = (args: ApiArgs) => Promise<Response>;

/**
 * The JSON API's one route shape: a handler per method. Another method is a 405 naming the ones
 * the route answers (HEAD is GET); then the caller must be signed in or hold a token (401), and
 * the handler's typed errors become their 4xx/5xx JSON answer through handleApi. A route module
 * is `const api = apiRoute({ POST: ... })`, then `export const loader = api.loader` and the same
 * for `action` (Remix strips named `loader`/`action` exports from the browser build; it does not
 * recognise them in a destructuring).
 */
export function apiRoute(handlers: Partial<Record<Method, ApiHandler>>) {
  const allow = Object.keys(handlers).join(", ");
  const answer = ({ request, params }: { request: Request; params: Params }) => {
    const name = request.method.toUpperCase();
    const handler = handlers[(name === "HEAD" ? "GET" : name) as Method];
    if (!handler) return Promise.resolve(methodNotAllowed(allow));
    return handleApi(async () => handler({ request, params, user: await requireApiUser(request) }));
  };
  return { loader: answer, action: answer };
}

/** The JSON body checked against `schema` (400 with field errors; 413/415 from readJson). */
export async function jsonBody<T extends z.ZodType>(
  request: Request,
  schema: T,
  maxBytes = 16 * 1024,
): Promise<z.output<T>> {
  return parseInput(schema, await readJson(request, maxBytes));
}

/**
 * The named query parameters checked against `schema`. An empty (or blank) parameter means "not
 * given", as an HTML form would send it.
 */
export function queryInput<T extends z.ZodType>(
  request: Request,
  schema: T,
  names: readonly string[],
): z.output<T> {
  const search = new URL(request.url).searchParams;
  return parseInput(
    schema,
    Object.fromEntries(
      names.map((name) => {
        const value = search.get(name);
        return [name, value?.trim() ? value : undefined];
      }),
    ),
  );
}
