/**
 * The client's retry rule and its typed errors, through its `fetch` option: 429 and 503 are
 * tried again after the answer's Retry-After, any other status is returned at once.
 */
import { describe, expect, it } from "vitest";
import {
  StackShiftApiError,
  createStackShiftClient,
  retryAfterMs,
  retryingFetch,
  unwrap,
} from "./index";

/** A fetch answering with `answers` in turn, recording each request's method, URL and body. */
function answering(...answers: Response[]) {
  const seen: { method: string; url: string; body: string; auth: string | null }[] = [];
  const fetch = async (request: Request) => {
    seen.push({
      method: request.method,
      url: request.url,
      body: await request.text(),
      auth: request.headers.get("authorization"),
    });
    const next = answers.shift();
    if (!next) throw new Error("no answer left");
    return next;
  };
  return { fetch, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers });

function client(fetch: (r: Request) => Promise<Response>, waits: number[], retries?: number) {
  return createStackShiftClient({
    baseUrl: "https://dashboard.example/",
    token: "stackshift_pat_test",
    fetch,
    retry: {
      ...(retries === undefined ? {} : { retries }),
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
  });
}

describe("retries", () => {
  it("retries a 429 after its Retry-After seconds, resending the same body", async () => {
    const { fetch, seen } = answering(
      json(429, { error: "Too many requests" }, { "Retry-After": "2" }),
      json(201, { studioId: "s1" }),
    );
    const waits: number[] = [];
    const body = { name: "Bakery", idempotencyKey: "k1" };
    const result = await client(fetch, waits).POST("/api/app/create", { body });
    expect(result.response.status).toBe(201);
    expect(waits).toEqual([2000]);
    expect(seen.map((s) => [s.method, s.url, JSON.parse(s.body)])).toEqual([
      ["POST", "https://dashboard.example/api/app/create", body],
      ["POST", "https://dashboard.example/api/app/create", body],
    ]);
    expect(seen.every((s) => s.auth === "Bearer stackshift_pat_test")).toBe(true);
  });

  it("retries a 503 whose Retry-After is a date, and backs off 1 s, 2 s without one", async () => {
    const at = new Date(Date.now() + 3000).toUTCString();
    const { fetch, seen } = answering(
      json(503, { error: "Provider down" }, { "Retry-After": at }),
      json(503, { error: "Provider down" }),
      json(200, { id: "u1", email: "a@example.com" }),
    );
    const waits: number[] = [];
    const result = await client(fetch, waits).GET("/api/user");
    expect(result.response.status).toBe(200);
    expect(seen).toHaveLength(3);
    expect(waits[0]).toBeGreaterThan(1000);
    expect(waits[0]).toBeLessThanOrEqual(3000);
    expect(waits[1]).toBe(2000);
  });

  it("never retries another status: 400, 401, 404, 409 and 500 come back at once", async () => {
    for (const status of [400, 401, 404, 409, 500]) {
      const { fetch, seen } = answering(
        json(status, { error: `no ${status}` }, { "Retry-After": "1" }),
      );
      const waits: number[] = [];
      const result = await client(fetch, waits).GET("/api/user");
      expect(result.response.status).toBe(status);
      expect(result.error).toEqual({ error: `no ${status}` });
      expect(seen).toHaveLength(1);
      expect(waits).toEqual([]);
    }
  });

  it("gives up after 3 retries, and does not wait longer than the ceiling", async () => {
    const busy = () => json(429, { error: "Too many requests" }, { "Retry-After": "1" });
    const { fetch, seen } = answering(busy(), busy(), busy(), busy());
    const waits: number[] = [];
    const result = await client(fetch, waits).GET("/api/user");
    expect(result.response.status).toBe(429);
    expect(seen).toHaveLength(4);
    expect(waits).toEqual([1000, 1000, 1000]);

    const long = answering(json(503, { error: "Later" }, { "Retry-After": "3600" }));
    const none: number[] = [];
    expect((await client(long.fetch, none).GET("/api/user")).response.status).toBe(503);
    expect(none).toEqual([]);
    expect(long.seen).toHaveLength(1);
  });

  it("reads Retry-After as seconds or a date, and nothing else", () => {
    expect(retryAfterMs("5")).toBe(5000);
    expect(
      retryAfterMs("Thu, 01 Jan 2099 00:00:10 GMT", Date.parse("Thu, 01 Jan 2099 00:00:00 GMT")),
    ).toBe(10_000);
    expect(retryAfterMs("soon")).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });

  it("can be turned off", async () => {
    const { fetch, seen } = answering(json(429, { error: "Too many" }, { "Retry-After": "1" }));
    const waits: number[] = [];
    const wrapped = retryingFetch(fetch, { retries: 0, sleep: async (ms) => void waits.push(ms) });
    expect((await wrapped(new Request("https://dashboard.example/api/user"))).status).toBe(429);
    expect(seen).toHaveLength(1);
  });
});

describe("typed errors", () => {
  it("unwrap returns the data, or throws the document's error body with the status and request id", async () => {
    const ok = answering(json(200, { id: "u1", email: "a@example.com" }));
    expect(unwrap(await client(ok.fetch, []).GET("/api/user"))).toMatchObject({ id: "u1" });

    const body = { error: "Invalid input", fieldErrors: { name: ["Name is required"] } };
    const bad = answering(json(400, body, { "X-Request-Id": "req-1" }));
    const result = await client(bad.fetch, []).POST("/api/app/create", {
      body: { name: "", idempotencyKey: "k" },
    });
    expect(result.error?.fieldErrors?.name).toEqual(["Name is required"]);
    let thrown: unknown;
    try {
      unwrap(result);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StackShiftApiError);
    expect(thrown).toMatchObject({
      status: 400,
      body,
      requestId: "req-1",
      message: "Invalid input",
    });
  });
});
