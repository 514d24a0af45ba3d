import { describe, expect, it } from "vitest";
import { ProviderError } from "~/providers/errors";
import { captureLogs } from "~/utils/logger.server";
import { apiError } from "~/web/http.server";
import { ServiceError, UpstreamError } from "./errors";
import { asUpstream, callProvider } from "./provider-failure.server";

const refusal = (status?: number, retryAfterSeconds?: number) =>
  new ProviderError("vendor says: token abc is bad", {
    provider: "vendor",
    status,
    retryAfterSeconds,
  });

describe("asUpstream: a provider failure as members see it", () => {
  it("answers 503 with the vendor's Retry-After when trying again may work", async () => {
    const error = asUpstream(refusal(429, 12), "The service is busy.");
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ message: "The service is busy.", retryable: true });
    const response = apiError(error);
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("12");
    expect(JSON.stringify(await response.json())).not.toContain("token abc");
  });

  it("answers 502 for a refusal, and 503 for no answer at all", () => {
    expect(apiError(asUpstream(refusal(400), "Refused.")).status).toBe(502);
    expect(apiError(asUpstream(refusal(undefined), "Down.")).status).toBe(503);
  });

  it("keeps the place's own semantics: forced retryable, no Retry-After, its subclass", () => {
    class StudioDown extends UpstreamError {}
    const error = asUpstream(refusal(503, 30), "Studio failed.", {
      retryable: false,
      retryAfter: false,
      errorClass: StudioDown,
    });
    expect(error).toBeInstanceOf(StudioDown);
    expect(error.retryable).toBe(false);
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it("logs the vendor's words under the place's label, never in the message", () => {
    const logs = captureLogs();
    try {
      const error = asUpstream(refusal(500), "Try again.", {
        log: { area: "area", msg: "adding x failed", name: "x" },
      });
      expect(logs.records).toEqual([
        expect.objectContaining({
          level: "warn",
          area: "area",
          name: "x",
          msg: "adding x failed",
          reason: "vendor says: token abc is bad",
        }),
      ]);
      expect(error.message).toBe("Try again.");
    } finally {
      logs.restore();
    }
  });

  it("rethrows anything that is not a provider failure as it is", () => {
    const ours = new ServiceError("ours");
    expect(() => asUpstream(ours, "x")).toThrow(ours);
    const bug = new TypeError("bug");
    expect(() => asUpstream(bug, "x")).toThrow(bug);
  });
});

describe("callProvider", () => {
  it("passes the answer through and translates the failure", async () => {
    await expect(callProvider(() => 42, "x")).resolves.toBe(42);
    await expect(
      callProvider(() => Promise.reject(refusal(502, 5)), "Down."),
    ).rejects.toMatchObject({ message: "Down.", retryable: true, retryAfterSeconds: 5 });
  });
});
