import { openApiDocument } from "~/services/api/index.server";

/** GET /api/openapi.json: the OpenAPI 3.1 document of the JSON API (public, like the docs). */
export function loader() {
  return Response.json(openApiDocument(), {
    headers: { "Cache-Control": "public, max-age=300" },
  });
}
