import { describe, expect, it } from "vitest";
import { apiRoute } from "./api.server";

const route = apiRoute({
  GET: async () => Response.json({ read: true }),
  DELETE: async () => Response.json({ deleted: true }),
});
const call = (method: string, headers: Record<string, string> = {}) => {
  const request = new Request("http://localhost/api/example", { method, headers });
  const handler = method === "GET" || method === "HEAD" ? route.loader : route.action;
  return handler({ request, params: {} });
};

describe("apiRoute, the JSON API's one route shape", () => {
  it("answers another method with 405 and the methods it does answer, before asking who calls", async () => {
    for (const method of ["POST", "PUT", "PATCH"]) {
      const response = await call(method);
      expect(response.status, method).toBe(405);
      expect(response.headers.get("Allow")).toBe("GET, DELETE");
      expect(await response.json()).toEqual({ error: "Method not allowed" });
    }
  });

  it("asks for a session or a token on the methods it answers, HEAD as GET", async () => {
    for (const method of ["GET", "HEAD", "DELETE"]) {
      const response = await call(method);
      expect(response.status, method).toBe(401);
    }
    const response = await call("GET", { Authorization: "Basic abc" });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: "Send the token as 'Authorization: Bearer <token>'",
    });
  });
});
