import { describe, expect, it } from "vitest";
import { readForm, readJson } from "./http.server";

const URL_ = "http://localhost:3000/x";
const CHUNK = 16 * 1024;

/**
 * A body that never ends, one 16 KiB chunk per pull, counting what the reader took: a reader that
 * buffered the whole body first would never return.
 */
function endlessBody(fill = "a".charCodeAt(0)) {
  const stats = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      stats.pulled += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(fill));
    },
  });
  return { stream, stats };
}

function streamed(body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new Request(URL_, { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

/** The Response a reader threw, with its JSON body. */
async function refusal(promise: Promise<unknown>) {
  const thrown = await promise.then(
    () => {
      throw new Error("expected a thrown Response");
    },
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(Response);
  const res = thrown as Response;
  return { status: res.status, body: (await res.json()) as { error: string } };
}

describe("readForm", () => {
  it("reads a url-encoded form", async () => {
    const form = await readForm(
      new Request(URL_, { method: "POST", body: new URLSearchParams({ a: "1", b: "é" }) }),
    );
    expect(form.get("a")).toBe("1");
    expect(form.get("b")).toBe("é");
  });

  it("reads a multipart form, files included", async () => {
    const sent = new FormData();
    sent.append("name", "Acme");
    sent.append("file", new File(["hello"], "hello.txt", { type: "text/plain" }));
    const form = await readForm(new Request(URL_, { method: "POST", body: sent }));
    expect(form.get("name")).toBe("Acme");
    expect(await (form.get("file") as File).text()).toBe("hello");
  });

  it("stops reading an endless body without Content-Length just past the limit: 413", async () => {
    const { stream, stats } = endlessBody();
    const res = await refusal(
      readForm(streamed(stream, { "Content-Type": "application/x-www-form-urlencoded" }), 64_000),
    );
    expect(res).toEqual({ status: 413, body: { error: "Request body is too large" } });
    // The limit plus at most the chunk that crossed it and one the stream queued ahead.
    expect(stats.pulled).toBeLessThanOrEqual(64_000 + 2 * CHUNK);
  });

  it("stops at the limit when Content-Length lies", async () => {
    const { stream, stats } = endlessBody();
    const res = await refusal(readForm(streamed(stream, { "Content-Length": "10" }), 64_000));
    expect(res.status).toBe(413);
    expect(stats.pulled).toBeLessThanOrEqual(64_000 + 2 * CHUNK);
  });

  it("refuses a declared Content-Length over the limit before reading", async () => {
    const { stream, stats } = endlessBody();
    const res = await refusal(readForm(streamed(stream, { "Content-Length": "70000" }), 64_000));
    expect(res.status).toBe(413);
    expect(stats.pulled).toBeLessThanOrEqual(CHUNK);
  });

  it("caps a multipart body while streaming too", async () => {
    const { stream, stats } = endlessBody();
    const res = await refusal(
      readForm(streamed(stream, { "Content-Type": "multipart/form-data; boundary=x" }), 64_000),
    );
    expect(res.status).toBe(413);
    expect(stats.pulled).toBeLessThanOrEqual(64_000 + 2 * CHUNK);
  });

  it("answers a multipart body it cannot parse with 400", async () => {
    const res = await refusal(
      readForm(
        new Request(URL_, {
          method: "POST",
          body: "garbage",
          headers: { "Content-Type": "multipart/form-data" },
        }),
      ),
    );
    expect(res).toEqual({ status: 400, body: { error: "Request body must be a form" } });
  });

  it("drops the NUL character from fields and names; refuses JSON holding it with 400", async () => {
    const nul = { status: 400, body: { error: "Text must not contain the NUL character" } };
    const form = await readForm(new Request(URL_, { method: "POST", body: "na%00me=a%00b&x=1" }));
    expect([...form]).toEqual([
      ["name", "ab"],
      ["x", "1"],
    ]);
    const multipart = new FormData();
    multipart.append("name", "a\u0000b");
    const parsed = await readForm(new Request(URL_, { method: "POST", body: multipart }));
    expect(parsed.get("name")).toBe("ab");
    expect(
      await refusal(
        readJson(
          new Request(URL_, {
            method: "POST",
            body: '{"name":"a\\u0000b"}',
            headers: { "Content-Type": "application/json" },
          }),
        ),
      ),
    ).toEqual(nul);
  });

  it("accepts a body of exactly the limit", async () => {
    const body = `a=${"x".repeat(98)}`;
    const form = await readForm(new Request(URL_, { method: "POST", body }), 100);
    expect(form.get("a")).toHaveLength(98);
    expect(
      (await refusal(readForm(new Request(URL_, { method: "POST", body: `${body}x` }), 100)))
        .status,
    ).toBe(413);
  });
});

describe("readJson", () => {
  // Bytes, not a string: a string body would get a default text/plain type.
  const json = (body: string, type?: string) =>
    new Request(URL_, {
      method: "POST",
      body: new TextEncoder().encode(body),
      headers: type === undefined ? {} : { "Content-Type": type },
    });

  it("reads JSON sent as application/json, with or without a charset", async () => {
    expect(await readJson(json('{"a":1}', "application/json"))).toEqual({ a: 1 });
    expect(await readJson(json('{"a":"é"}', "application/json; charset=utf-8"))).toEqual({
      a: "é",
    });
    expect(await readJson(json('{"b":[1]}', "Application/JSON;charset=UTF-8"))).toEqual({ b: [1] });
  });

  it("answers JSON that is not an object (null, a list, a bare value) with 400", async () => {
    for (const body of ["null", "[1]", "5", '"text"', "true"]) {
      const thrown = await readJson(json(body, "application/json")).catch((e: unknown) => e);
      expect(thrown, body).toBeInstanceOf(Response);
      expect((thrown as Response).status, body).toBe(400);
      expect(await (thrown as Response).json()).toEqual({
        error: "Request body must be a JSON object",
        fieldErrors: { form: ["Request body must be a JSON object"] },
      });
    }
  });

  it("answers another or a missing Content-Type with 415", async () => {
    expect(json("{}").headers.get("content-type")).toBeNull();
    for (const type of [
      undefined,
      "text/plain",
      "text/plain; charset=utf-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonp",
      "application/json; charset=latin1",
    ]) {
      const res = await refusal(readJson(json('{"a":1}', type)));
      expect(res, String(type)).toEqual({
        status: 415,
        body: { error: "Content-Type must be application/json" },
      });
    }
  });

  it("reads an empty body as {}, whatever its type", async () => {
    expect(await readJson(json(""))).toEqual({});
    expect(await readJson(json("  ", "text/plain"))).toEqual({});
    expect(await readJson(new Request(URL_, { method: "POST" }))).toEqual({});
  });

  it("answers malformed JSON with 400", async () => {
    expect(await refusal(readJson(json('{"a":', "application/json")))).toEqual({
      status: 400,
      body: { error: "Request body must be valid JSON" },
    });
  });

  it("stops reading an endless JSON body just past the limit: 413", async () => {
    const { stream, stats } = endlessBody(" ".charCodeAt(0));
    const res = await refusal(
      readJson(streamed(stream, { "Content-Type": "application/json" }), 16_000),
    );
    expect(res).toEqual({ status: 413, body: { error: "Request body is too large" } });
    expect(stats.pulled).toBeLessThanOrEqual(16_000 + 2 * CHUNK);
  });
});
