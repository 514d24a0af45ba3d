import { describe, expect, it } from "vitest";
import { invariantResponse, notFound } from "./responses.server";
import { errorLogFields, loggablePath, requestIdOf } from "./request-id.server";

function thrown(fn: () => unknown): Response {
  try {
    fn();
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a thrown Response");
}

describe("notFound", () => {
  it("throws a 404 with the message as its body", async () => {
    const res = thrown(() => notFound());
    expect(res.status).toBe(404);
    expect(res.statusText).toBe("Not Found");
    expect(await res.text()).toBe("Not Found");
    expect(await thrown(() => notFound("No such project")).text()).toBe("No such project");
  });

  it("stays a 404 whatever init says", () => {
    expect(thrown(() => notFound("x", { status: 500 })).status).toBe(404);
  });
});

describe("invariantResponse", () => {
  it("does nothing when the condition holds", () => {
    expect(() => invariantResponse({ id: 1 }, "gone")).not.toThrow();
  });

  it("throws a 404 by default, or the given status", async () => {
    const missing = thrown(() => invariantResponse(null, "No such studio"));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("No such studio");
    const refused = thrown(() => invariantResponse(false, () => "Too late", { status: 410 }));
    expect(refused.status).toBe(410);
    expect(await refused.text()).toBe("Too late");
  });
});

describe("request ids in logs", () => {
  it("reads the id from the load context", () => {
    expect(requestIdOf({ requestId: "abc" })).toBe("abc");
    expect(requestIdOf({})).toBeNull();
    expect(requestIdOf(undefined)).toBeNull();
  });

  it("logs the method and path, without the query or long secrets in the path", () => {
    expect(loggablePath("http://x/sites/abc123?token=secret")).toBe("/sites/abc123");
    expect(loggablePath("http://x/auth/reset/AAAAAAAAAAAAAAAAAAAAAAAAAAAA")).toBe(
      "/auth/reset/:redacted",
    );
    const request = new Request("http://x/sites/abc?q=1", { method: "POST" });
    expect(errorLogFields(request)).toEqual({ method: "POST", path: "/sites/abc" });
  });
});
