import { describe, expect, it } from "vitest";
import { errorStatus, failedRequestId, isNotFound } from "./route-error";

/** What useRouteError() gives for a thrown response (Remix's ErrorResponse shape). */
const errorResponse = (status: number, data: unknown) => ({
  status,
  statusText: "",
  internal: false,
  data,
});

describe("the error boundary's reading of an error", () => {
  it("takes the status of a thrown response, 500 for anything else", () => {
    expect(errorStatus(errorResponse(404, "Not Found"))).toBe(404);
    expect(isNotFound(errorResponse(404, "Not Found"))).toBe(true);
    expect(errorStatus(new Error("x"))).toBe(500);
    expect(isNotFound(new Error("x"))).toBe(false);
  });

  it("quotes the id a failed loader or action answered with", () => {
    expect(failedRequestId(errorResponse(500, { requestId: "req-1" }), "root-id")).toBe("req-1");
  });

  it("quotes the root loader's id for a server render that failed, and no id otherwise", () => {
    expect(failedRequestId(new Error("Unexpected Server Error"), "root-id")).toBe("root-id");
    // An error of the browser's own was never logged on the server.
    expect(failedRequestId(new TypeError("x is undefined"), "root-id")).toBeNull();
    expect(failedRequestId(errorResponse(503, "Down"), "root-id")).toBeNull();
    expect(failedRequestId(errorResponse(500, { requestId: 42 }), "root-id")).toBeNull();
    expect(failedRequestId(new Error("Unexpected Server Error"), null)).toBeNull();
  });
});
