import { describe, expect, it } from "vitest";
import { action as loginAction } from "~/routes/auth.login";
import { call, createUser, makeRequest } from "../helpers";

describe("login", () => {
  it("starts a database session for the right password and redirects back", async () => {
    const user = await createUser();
    const res = await call(
      loginAction,
      makeRequest("/auth/login", {
        form: { email: user.email, password: user.password, redirectTo: "/sites" },
      }),
    );
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/sites");
    expect(res.headers.get("Set-Cookie")).toMatch(/stackshift_session=.+HttpOnly/i);
  });

  it("refuses a wrong password with a message and no session", async () => {
    const user = await createUser();
    const res = await call(
      loginAction,
      makeRequest("/auth/login", { form: { email: user.email, password: "wrong password" } }),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("Set-Cookie")).toBeNull();
    const body = await res.json();
    expect(JSON.stringify(body)).toContain("Invalid email or password");
  });

  it("answers a malformed email with a field error", async () => {
    const res = await call(
      loginAction,
      makeRequest("/auth/login", { form: { email: "not-an-email", password: "x" } }),
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("Enter a valid email address");
  });
});
