/**
 * Security properties across the account routes (rate limits, no account enumeration, server-side
 * session ends) and the HTTP server's middlewares (CSRF origin check, security headers), the
 * latter mounted on a small Express app on an ephemeral port.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { outbox, sessions } from "~/db/schema";
import { action as forgotAction } from "~/routes/auth.forgot";
import { action as loginAction } from "~/routes/auth.login";
import { action as logoutAction } from "~/routes/auth.logout";
import { action as resetAction } from "~/routes/auth.reset.$token";
import { action as signupAction } from "~/routes/signup";
import { getOptionalUser } from "~/web/session.server";
import { noNulInUrl, sameOrigin, securityHeaders } from "../../server/middleware.mjs";
import { PASSWORD_RESET_JOB } from "~/services/accounts/account-tokens.server";
import { POLICIES } from "~/services/core/rate-limit.server";
import { call, createUser, makeRequest, runQueuedJobs, sessionCookie } from "../helpers";

type Action = Parameters<typeof call>[0];

/** Calls `action` until it answers 429; returns that response and how many came before it. */
async function untilLimited(
  action: Action,
  path: string,
  form: () => Record<string, string>,
  ip: string,
  most: number,
) {
  for (let attempt = 0; attempt <= most; attempt += 1) {
    const res = await call(action, makeRequest(path, { form: form() }), {}, { clientIp: ip });
    if (res.status === 429) return { res, allowed: attempt };
  }
  throw new Error(`${path} never answered 429`);
}

// Login limits (failures per account and address) are in login-limits.test.ts.
describe("rate limits an office never reaches", () => {
  it("signup answers 429 with a message and Retry-After only past 300 an hour from one address", async () => {
    let n = 0;
    const { res, allowed } = await untilLimited(
      signupAction,
      "/signup",
      () => ({ name: "Someone", email: `signup${++n}@example.com`, password: "long password" }),
      "10.9.2.1",
      POLICIES.signupAddress.points,
    );
    expect(allowed).toBe(POLICIES.signupAddress.points);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(JSON.stringify(await res.json())).toMatch(/Too many attempts/);
  });

  it("forgot answers 429 with a message and Retry-After only past 300 an hour from one address", async () => {
    let n = 0;
    const perIp = await untilLimited(
      forgotAction,
      "/auth/forgot",
      () => ({ email: `forgot${++n}@example.com` }),
      "10.9.3.1",
      POLICIES.forgotAddress.points,
    );
    expect(perIp.allowed).toBe(POLICIES.forgotAddress.points);
    expect(Number(perIp.res.headers.get("Retry-After"))).toBeGreaterThan(3000);
    expect(JSON.stringify(await perIp.res.json())).toMatch(/Too many attempts/);
    await runQueuedJobs(PASSWORD_RESET_JOB);
  });

  it("a stranger asking resets for someone's e-mail from many addresses never gets a 429 to show", async () => {
    // The per-e-mail limit is applied silently in the job: the page always answers the same.
    for (let i = 0; i < 10; i += 1) {
      const ok = await call(
        forgotAction,
        makeRequest("/auth/forgot", { form: { email: "target@example.com" } }),
        {},
        { clientIp: `10.9.4.${i}` },
      );
      expect(ok.status).toBe(200);
    }
    await runQueuedJobs(PASSWORD_RESET_JOB);
  });
});

describe("no account enumeration", () => {
  it("the forgot page answers identically for an existing and an unknown e-mail", async () => {
    const user = await createUser();
    const ask = (email: string, ip: string) =>
      call(forgotAction, makeRequest("/auth/forgot", { form: { email } }), {}, { clientIp: ip });
    const known = await ask(user.email, "10.9.5.1");
    const unknown = await ask("no-such-account@example.com", "10.9.5.2");
    await runQueuedJobs(PASSWORD_RESET_JOB);
    expect(known.status).toBe(unknown.status);
    expect([...known.headers]).toEqual([...unknown.headers]);
    expect(await known.text()).toBe(await unknown.text());
    // ...while only the real account got mail.
    expect(await db().select().from(outbox).where(eq(outbox.to, user.email))).toHaveLength(1);
  });
});

describe("sessions end on the server", () => {
  it("logout deletes the session row, so the old cookie is worthless", async () => {
    const user = await createUser();
    const login = await call(
      loginAction,
      makeRequest("/auth/login", { form: { email: user.email, password: user.password } }),
      {},
      { clientIp: "10.9.6.1" },
    );
    const cookie = login.headers.get("Set-Cookie")!.split(";")[0];
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);

    const res = await call(logoutAction, makeRequest("/auth/logout", { method: "POST", cookie }));
    expect(res.status).toBe(302);
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await getOptionalUser(makeRequest("/", { cookie }))).toBeNull();
  });

  it("a password reset ends every session of the user", async () => {
    const user = await createUser();
    const other = await createUser();
    const laptop = await sessionCookie(user.id);
    const phone = await sessionCookie(user.id);
    const bystander = await sessionCookie(other.id);

    await call(
      forgotAction,
      makeRequest("/auth/forgot", { form: { email: user.email } }),
      {},
      { clientIp: "10.9.7.1" },
    );
    await runQueuedJobs(PASSWORD_RESET_JOB);
    const [mail] = await db().select().from(outbox).where(eq(outbox.to, user.email));
    const token = mail.text.match(/\/auth\/reset\/([\w-]+)/)![1];
    const res = await call(
      resetAction,
      makeRequest(`/auth/reset/${token}`, {
        form: { password: "a fresh password", confirmPassword: "a fresh password" },
        cookie: laptop,
      }),
      { token },
    );
    expect(res.status).toBe(302);

    expect(await getOptionalUser(makeRequest("/", { cookie: laptop }))).toBeNull();
    expect(await getOptionalUser(makeRequest("/", { cookie: phone }))).toBeNull();
    expect((await getOptionalUser(makeRequest("/", { cookie: bystander })))?.id).toBe(other.id);
    // Only the session the reset itself started remains, on a new id.
    const rows = await db().select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    const fresh = res.headers.getSetCookie().find((c) => c.startsWith("stackshift_session="))!;
    expect((await getOptionalUser(makeRequest("/", { cookie: fresh.split(";")[0] })))?.id).toBe(
      user.id,
    );
  });
});

describe("server middlewares", () => {
  const APP_URL = "http://localhost:3000";
  let server: Server;
  let base = "";

  /** An app like server/index.mjs: headers, then the CSRF check, then a handler. */
  function app(options: { secure: boolean }) {
    const a = express();
    a.use(
      securityHeaders({
        dev: false,
        secure: options.secure,
        oidcIssuer: "https://id.example.com/realm",
        formTargets: ["https://*.sanity.studio"],
      }),
    );
    a.use(noNulInUrl());
    a.use(sameOrigin(APP_URL));
    a.get("/missing", (_req, res) => {
      res.status(404).send("nope");
    });
    a.all("*", (_req, res) => {
      res.json({ ok: true, nonce: res.locals.cspNonce });
    });
    return a;
  }

  async function listen(options: { secure: boolean }) {
    const s = app(options).listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => s.once("listening", () => resolve()));
    return { s, url: `http://127.0.0.1:${(s.address() as AddressInfo).port}` };
  }

  beforeAll(async () => {
    ({ s: server, url: base } = await listen({ secure: false }));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (headers: Record<string, string>) =>
    fetch(`${base}/auth/logout`, { method: "POST", headers, body: "x=1" });

  it("answers an address holding %00 (path or query) with 400, before any route", async () => {
    for (const url of ["/sites/%00", "/sites/a%00b/activity", "/api/app?q=%00"]) {
      const res = await fetch(`${base}${url}`);
      expect(res.status, url).toBe(400);
      expect(await res.json()).toEqual({
        error: "The address must not contain the NUL character (%00)",
      });
    }
    expect((await fetch(`${base}/sites/%2500`)).status).toBe(200);
  });

  it("refuses a cross-origin POST with 403", async () => {
    const res = await post({ Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Cross-origin request refused" });
    expect((await post({ Origin: "null" })).status).toBe(403);
    expect((await post({ Origin: "" })).status).toBe(403);
    // Same host, another port or scheme: another origin.
    expect((await post({ Origin: "http://localhost:3001" })).status).toBe(403);
    expect((await post({ Origin: "https://localhost:3000" })).status).toBe(403);
    expect((await post({ "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    // A foreign Origin is refused even when Sec-Fetch-Site claims same-origin.
    expect(
      (await post({ Origin: "https://evil.example", "Sec-Fetch-Site": "same-origin" })).status,
    ).toBe(403);
  });

  it("refuses a POST that names no origin at all, or only a same-site one", async () => {
    const bare = await post({});
    expect(bare.status).toBe(403);
    expect(await bare.json()).toEqual({ error: "Cross-origin request refused" });
    expect((await post({ "Sec-Fetch-Site": "same-site" })).status).toBe(403);
    expect((await post({ "Sec-Fetch-Site": "none" })).status).toBe(403);
  });

  it("lets RFC 8058's one-click unsubscribe POST through without an origin, and only that path", async () => {
    const oneClick = (path: string, method = "POST") =>
      fetch(`${base}${path}`, {
        method,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
    expect((await oneClick("/notifications/unsubscribe/some-token")).status).toBe(200);
    // The route holds its own page's form to the same rule (notifications.test.ts).
    expect((await oneClick("/notifications/unsubscribe/some-token/more")).status).toBe(403);
    expect((await oneClick("/notifications/unsubscribe/some-token", "PUT")).status).toBe(403);
    expect((await oneClick("/notifications/other")).status).toBe(403);
  });

  it("refuses every state-changing method, not only POST", async () => {
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const res = await fetch(`${base}/api/app/members`, { method, body: "{}" });
      expect(res.status, method).toBe(403);
      const ok = await fetch(`${base}/api/app/members`, {
        method,
        body: "{}",
        headers: { Origin: APP_URL },
      });
      expect(ok.status, method).toBe(200);
    }
  });

  it("lets a same-origin POST through", async () => {
    expect((await post({ Origin: APP_URL })).status).toBe(200);
    expect((await post({ Origin: APP_URL, "Sec-Fetch-Site": "same-origin" })).status).toBe(200);
    // Browsers may leave Origin out of a same-origin request; Sec-Fetch-Site vouches for it.
    expect((await post({ "Sec-Fetch-Site": "same-origin" })).status).toBe(200);
  });

  it("lets GET, HEAD and OPTIONS through, whatever their origin", async () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      const res = await fetch(`${base}/sites`, {
        method,
        headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      });
      expect(res.status, method).toBe(200);
    }
    expect((await fetch(`${base}/sites`)).status).toBe(200);
  });

  it("sends a CSP with a fresh nonce, frame-ancestors 'none' and the provider as form target", async () => {
    const first = await fetch(`${base}/`);
    const { nonce } = (await first.json()) as { nonce: string };
    const csp = first.headers.get("Content-Security-Policy")!;
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' https://*.sanity.studio https://id.example.com");
    expect(csp).toContain("object-src 'none'");
    const second = (await (await fetch(`${base}/`)).json()) as { nonce: string };
    expect(second.nonce).not.toBe(nonce);
  });

  it("sends nosniff (and the other headers) on every response, refused and missing ones too", async () => {
    for (const res of [
      await fetch(`${base}/`),
      await fetch(`${base}/missing`),
      await post({ Origin: "https://evil.example" }),
    ]) {
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(res.headers.get("X-Frame-Options")).toBe("DENY");
      expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    }
  });

  it("sends HSTS only when the app is served over https", async () => {
    expect((await fetch(`${base}/`)).headers.get("Strict-Transport-Security")).toBeNull();
    const https = await listen({ secure: true });
    try {
      const res = await fetch(`${https.url}/`);
      expect(res.headers.get("Strict-Transport-Security")).toBe(
        "max-age=31536000; includeSubDomains",
      );
    } finally {
      await new Promise((resolve) => https.s.close(resolve));
    }
  });
});
