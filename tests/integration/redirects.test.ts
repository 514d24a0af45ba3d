/**
 * Redirect targets (redirectTo in forms and query strings) stay on the app's own origin
 * (APP_URL http://localhost:3000 in tests): safeRedirect directly, and the login page that
 * sends a signed-in visitor on to ?redirectTo=.
 */
import { describe, expect, it } from "vitest";
import { loader as loginLoader } from "~/routes/auth.login";
import { safeRedirect } from "~/web/session.server";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";

describe("safeRedirect", () => {
  it.each([
    ["/\t/evil.example", "a tab, which URL parsing drops (//evil.example)"],
    ["/\n/evil.example", "a newline"],
    ["/\u0000/evil.example", "a NUL"],
    ["/\u007f/evil.example", "a DEL"],
    ["//evil.example", "a protocol-relative URL"],
    ["/\\evil.example", "a backslash, which browsers read as a slash"],
    ["\\\\evil.example", "two backslashes"],
    ["https://evil.example", "another origin"],
    ["https://evil.example/sites/abc", "another origin with an app path"],
    ["http://localhost:3001/sites", "another port of the same host"],
    ["https://localhost:3000/sites", "another scheme of the same host"],
    ["javascript:alert(1)", "a javascript: URL"],
    ["/.//evil.example", "a path that normalises to //evil.example"],
    ["/a/..//evil.example", "a dot segment before //"],
    ["/%2e%2e//evil.example", "an encoded dot segment before //"],
  ])("refuses %j (%s)", (to) => {
    expect(safeRedirect(to)).toBe("/");
    expect(safeRedirect(to, "/sites")).toBe("/sites");
  });

  it("refuses /%09/evil.example as it arrives decoded from a query string", () => {
    const decoded = new URL("http://localhost:3000/x?redirectTo=/%09/evil.example").searchParams;
    expect(decoded.get("redirectTo")).toBe("/\t/evil.example");
    expect(safeRedirect(decoded.get("redirectTo"))).toBe("/");
  });

  it("keeps a same-origin path with its search and hash", () => {
    expect(safeRedirect("/sites/abc?x=1#y")).toBe("/sites/abc?x=1#y");
    expect(safeRedirect("/")).toBe("/");
    expect(safeRedirect("/sites/%2F%2Fevil.example")).toBe("/sites/%2F%2Fevil.example");
  });

  it("takes only paths: relative and absolute URLs give the fallback, even on the app's origin", () => {
    expect(safeRedirect("sites")).toBe("/");
    expect(safeRedirect("http://localhost:3000/sites/abc")).toBe("/");
    expect(safeRedirect("?x=1", "/sites")).toBe("/sites");
  });

  it("gives the fallback for missing or non-string values", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined, "/sites")).toBe("/sites");
    expect(safeRedirect("", "/sites")).toBe("/sites");
    expect(safeRedirect(new File(["x"], "x.txt"))).toBe("/");
  });
});

describe("GET /auth/login signed in", () => {
  async function loginRedirect(query: string) {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    return call(loginLoader, makeRequest(`/auth/login?${query}`, { cookie }));
  }

  it("sends the user to / for ?redirectTo=/%09/evil.example", async () => {
    const res = await loginRedirect("redirectTo=/%09/evil.example");
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/");
  });

  it("sends the user on to a same-origin ?redirectTo=", async () => {
    const res = await loginRedirect(`redirectTo=${encodeURIComponent("/sites/abc?x=1#y")}`);
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/sites/abc?x=1#y");
  });
});
