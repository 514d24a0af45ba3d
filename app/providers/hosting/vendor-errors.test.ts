import { describe, expect, it } from "vitest";
import { codeForStatus, httpProviderError, retryAfterSeconds } from "./vendor-errors.server";

const NOW = Date.parse("2026-01-01T00:00:00Z");

describe("retryAfterSeconds", () => {
  it("reads Retry-After in seconds or as an HTTP date", () => {
    expect(retryAfterSeconds({ retryAfter: "17" }, NOW)).toBe(17);
    expect(retryAfterSeconds({ retryAfter: "2.2" }, NOW)).toBe(3);
    expect(retryAfterSeconds({ retryAfter: new Date(NOW + 30_000).toUTCString() }, NOW)).toBe(30);
    expect(retryAfterSeconds({ retryAfter: new Date(NOW - 5_000).toUTCString() }, NOW)).toBe(0);
  });

  it("falls back to X-RateLimit-Reset (Unix seconds)", () => {
    expect(retryAfterSeconds({ rateLimitReset: String(NOW / 1000 + 42) }, NOW)).toBe(42);
    expect(retryAfterSeconds({ rateLimitReset: String(NOW / 1000 - 10) }, NOW)).toBe(0);
    expect(
      retryAfterSeconds({ retryAfter: "5", rateLimitReset: String(NOW / 1000 + 42) }, NOW),
    ).toBe(5);
  });

  it("ignores garbage", () => {
    expect(retryAfterSeconds({ retryAfter: "soon", rateLimitReset: "later" }, NOW)).toBeUndefined();
    expect(retryAfterSeconds({}, NOW)).toBeUndefined();
  });
});

describe("httpProviderError", () => {
  it("names the status and keeps the vendor's code and message", () => {
    const error = httpProviderError("vercel", 422, { message: "Bad", code: "invalid_name" });
    expect(error.message).toBe("Bad");
    expect(error.details).toEqual({ provider: "vercel", status: 422, code: "invalid_name" });
    expect(error.retryable).toBe(false);
    expect(httpProviderError("netlify", 404, {}).details.code).toBe("not_found");
    expect(httpProviderError("netlify", 404, {}).message).toBe("netlify answered HTTP 404");
  });

  it("gives every 429 a wait, a minute when the vendor names none", () => {
    expect(httpProviderError("netlify", 429, {}).details.retryAfterSeconds).toBe(60);
    expect(httpProviderError("netlify", 429, { retryAfter: "3" }).details.retryAfterSeconds).toBe(
      3,
    );
    expect(httpProviderError("netlify", 429, {}).retryable).toBe(true);
  });

  it.each([
    [401, "unauthorized"],
    [403, "forbidden"],
    [409, "conflict"],
    [502, "vendor_unavailable"],
    [418, "vendor_error"],
  ])("codeForStatus(%i) = %s", (status, code) => {
    expect(codeForStatus(status)).toBe(code);
  });
});
