import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConflictError, RateLimitedError, UpstreamError } from "~/services/core/errors";
import { formErrorOf } from "~/utils/form-errors";
import { apiError, formReply } from "./http.server";

const schema = z.object({ email: z.email("Enter a valid email address") });
const submit = (email: string) => {
  const form = new FormData();
  form.set("email", email);
  return parseWithZod(form, { schema });
};

/** What Remix sends for a data() result: its status, headers and JSON body. */
function sent(result: ReturnType<typeof formReply>) {
  return {
    status: result.init?.status ?? 200,
    headers: new Headers(result.init?.headers),
    body: JSON.parse(JSON.stringify(result.data)),
  };
}

describe("formReply: the one answer of a form action", () => {
  it("carries conform's reply and the page's data, 200 by default", () => {
    const reply = sent(formReply({ result: submit("a@example.com").reply(), extra: 1 }));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ result: { status: "success" }, extra: 1 });
  });

  it("keeps field errors beside their field, with the status given", () => {
    const reply = sent(formReply({ result: submit("nope").reply() }, 400));
    expect(reply.status).toBe(400);
    expect(reply.body.result.error.email).toEqual(["Enter a valid email address"]);
  });

  it("takes a domain error's status, and Retry-After from a rate limit", () => {
    const limited = new RateLimitedError("Please wait 3 minutes and try again.", 180);
    const reply = sent(
      formReply(
        { result: submit("a@example.com").reply({ formErrors: [limited.message] }) },
        limited,
      ),
    );
    expect(reply.status).toBe(429);
    expect(reply.headers.get("Retry-After")).toBe("180");
    expect(formErrorOf(reply.body.result)).toBe(limited.message);

    const conflict = sent(
      formReply({ result: submit("a@example.com").reply() }, new ConflictError("x")),
    );
    expect(conflict.status).toBe(409);
    expect(conflict.headers.get("Retry-After")).toBeNull();
  });

  it("answers an outside service's failure 502, or 503 with its Retry-After when worth retrying", () => {
    const down = sent(
      formReply({ result: submit("a@example.com").reply() }, new UpstreamError("down", true, 30)),
    );
    expect(down.status).toBe(503);
    expect(down.headers.get("Retry-After")).toBe("30");
    const refused = sent(
      formReply({ result: submit("a@example.com").reply() }, new UpstreamError("no", false)),
    );
    expect(refused.status).toBe(502);
    expect(refused.headers.get("Retry-After")).toBeNull();
  });
});

describe("apiError: the JSON API's answer for the same errors", () => {
  it("sets the same statuses and Retry-After", async () => {
    const limited = apiError(new RateLimitedError("Too many", 42));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("42");
    expect(await limited.json()).toEqual({ error: "Too many" });
    const down = apiError(new UpstreamError("down", true, 7));
    expect(down.status).toBe(503);
    expect(down.headers.get("Retry-After")).toBe("7");
  });
});

describe("formErrorOf", () => {
  it("reads the form's message, else the first field's, else nothing", () => {
    expect(formErrorOf(submit("nope").reply({ formErrors: ["Form says"] }))).toBe("Form says");
    expect(formErrorOf(submit("nope").reply())).toBe("Enter a valid email address");
    expect(formErrorOf(submit("a@example.com").reply())).toBeUndefined();
    expect(formErrorOf(undefined)).toBeUndefined();
  });
});
