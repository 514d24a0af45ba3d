/**
 * Single sign-on against a real OpenID provider (oauth2-mock-server) on 127.0.0.1: our routes
 * run through their loaders/actions, the browser's part (following redirects, carrying cookies)
 * is played with fetch and the Set-Cookie headers.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { accessRequests, sessions, users } from "~/db/schema";
import { loader as logoutCallback } from "~/routes/api.auth.logout-callback";
import { loader as callbackLoader } from "~/routes/auth.oidc.callback";
import { action as startAction, loader as startLoader } from "~/routes/auth.oidc";
import { action as loginAction } from "~/routes/auth.login";
import { action as logoutAction } from "~/routes/auth.logout";
import { resetAuthenticator } from "~/web/auth.server";
import { resetEnv } from "~/utils/env.server";
import { readToast } from "~/utils/toast.server";
import { POLICIES } from "~/services/core/rate-limit.server";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";
import { locationOf } from "../setup/matchers";

const CLIENT_ID = "stackshift-dashboard";
let provider: OAuth2Server;
/** Who the provider says signs in next. */
let identity: Record<string, unknown> = {};

beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate("RS256");
  await provider.start(0, "127.0.0.1");
  provider.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, identity);
  });
  process.env.OIDC_ISSUER = provider.issuer.url!;
  process.env.OIDC_CLIENT_ID = CLIENT_ID;
  process.env.OIDC_CLIENT_SECRET = "test-client-secret";
  resetEnv();
  resetAuthenticator();
});

afterAll(async () => {
  delete process.env.OIDC_ISSUER;
  delete process.env.OIDC_CLIENT_ID;
  delete process.env.OIDC_CLIENT_SECRET;
  resetEnv();
  resetAuthenticator();
  await provider.stop();
});

let ip = 0;
beforeEach(() => {
  identity = {};
});

/** The cookies a browser would now send: Set-Cookie values applied to a jar. */
function applyCookies(jar: Map<string, string>, res: Response) {
  for (const line of res.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(";");
    const name = pair.slice(0, pair.indexOf("="));
    const expired = attributes.some((a) => /^\s*max-age=0$/i.test(a));
    if (expired) jar.delete(name);
    else jar.set(name, pair.slice(pair.indexOf("=") + 1));
  }
  return jar;
}
const cookieHeader = (jar: Map<string, string>) =>
  [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
/** The cookies a response sets, as a Cookie header for the next request. */
const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

/**
 * One single sign-on round trip. The provider vouches for the address (email_verified) unless
 * `who` says otherwise; `jar` holds the browser's cookies before it starts (a session, say).
 */
async function signIn(
  who: Record<string, unknown>,
  redirectTo = "/sites",
  jar = new Map<string, string>(),
) {
  identity = { email_verified: true, ...who };
  const start = await call(
    startAction,
    makeRequest("/auth/oidc", { form: { redirectTo }, cookie: cookieHeader(jar) || undefined }),
    {},
    { clientIp: `10.3.0.${++ip}` },
  );
  expect(start.status).toBe(302);
  const authorizeUrl = new URL(locationOf(start)!);
  applyCookies(jar, start);
  // The provider signs the user in and sends the browser back with code and state.
  const authorize = await fetch(authorizeUrl, { redirect: "manual" });
  expect(authorize.status).toBe(302);
  const back = new URL(locationOf(authorize)!);
  const callback = await call(
    callbackLoader,
    makeRequest(back.pathname + back.search, { cookie: cookieHeader(jar) }),
  );
  applyCookies(jar, callback);
  return { start, authorizeUrl, back, callback, jar };
}

async function approve(email: string) {
  await db()
    .insert(accessRequests)
    .values({ fullName: "SSO person", businessEmail: email, requestStatus: "Approved" });
}

describe("single sign-on login", () => {
  it("starts with authorization code + PKCE (S256) and a state, back to our callback", async () => {
    const { authorizeUrl, back } = await signIn({ sub: "pkce-1", email: "admin@example.com" });
    expect(authorizeUrl.origin).toBe(provider.issuer.url);
    expect(authorizeUrl.pathname).toBe("/authorize");
    const q = authorizeUrl.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe(CLIENT_ID);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(q.get("state")).toBeTruthy();
    expect(q.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["openid", "email"]));
    expect(q.get("redirect_uri")).toBe("http://localhost:3000/auth/oidc/callback");
    expect(back.pathname).toBe("/auth/oidc/callback");
    expect(back.searchParams.get("state")).toBe(q.get("state"));
  });

  it("creates the account and a session holding the id token, then returns to redirectTo", async () => {
    await approve("sso.person@example.com");
    const { callback, jar } = await signIn({
      sub: "subject-42",
      email: "SSO.Person@example.com",
      name: "Sso Person",
    });
    expect(callback.status).toBe(302);
    expect(callback).toHaveRedirect("/sites");
    const [user] = await db().select().from(users).where(eq(users.oidcSubject, "subject-42"));
    expect(user).toMatchObject({ email: "sso.person@example.com", name: "Sso Person" });
    expect(user.passwordHash).toBeNull();
    const [session] = await db().select().from(sessions).where(eq(sessions.userId, user.id));
    expect(session.idToken?.split(".")).toHaveLength(3);
    // The attempt's state and return cookies are spent; the session cookie remains, and the
    // known-device cookie every sign-in leaves (decision 041).
    expect([...jar.keys()].sort()).toEqual(["stackshift_device", "stackshift_session"]);
  });

  it("links an existing account with the same e-mail only for its signed-in holder, ending its other sessions", async () => {
    const existing = await createUser({ email: "linked@example.com" });
    // A session someone opened with the account's password before its owner used single sign-on.
    await sessionCookie(existing.id);
    // The address alone links nothing: the browser is not signed in to the account.
    const refused = await signIn({ sub: "subject-linked", email: "linked@example.com" });
    expect(refused.callback).toHaveRedirect("/auth/login");
    expect(cookiesOf(refused.callback)).not.toContain("stackshift_session=");
    const [unlinked] = await db().select().from(users).where(eq(users.id, existing.id));
    expect(unlinked.oidcSubject).toBeNull();
    // Someone else's session does not link it either.
    const other = await createUser();
    const otherJar = new Map([
      ["stackshift_session", (await sessionCookie(other.id)).split("=")[1]],
    ]);
    const wrongHolder = await signIn(
      { sub: "subject-linked", email: "linked@example.com" },
      "/sites/user-settings",
      otherJar,
    );
    expect(wrongHolder.callback).toHaveRedirect("/auth/login");
    // The holder, signed in with the password, links it from the settings.
    const holderJar = new Map([
      ["stackshift_session", (await sessionCookie(existing.id)).split("=")[1]],
    ]);
    const { callback } = await signIn(
      { sub: "subject-linked", email: "linked@example.com" },
      "/sites/user-settings",
      holderJar,
    );
    expect(callback).toHaveRedirect("/sites/user-settings");
    const rows = await db().select().from(users).where(eq(users.email, "linked@example.com"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: existing.id, oidcSubject: "subject-linked" });
    const left = await db().select().from(sessions).where(eq(sessions.userId, existing.id));
    // Only the session single sign-on has just opened.
    expect(left).toHaveLength(1);
    expect(cookiesOf(callback)).toContain("stackshift_session=");
  });

  it("does not link an account whose address was never confirmed", async () => {
    const unconfirmed = await createUser({ email: "unconfirmed@example.com" });
    await db().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, unconfirmed.id));
    const { callback } = await signIn({
      sub: "subject-unconfirmed",
      email: "unconfirmed@example.com",
    });
    expect(callback).toHaveRedirect("/auth/login");
    expect(cookiesOf(callback)).not.toContain("stackshift_session=");
    const [row] = await db().select().from(users).where(eq(users.id, unconfirmed.id));
    expect(row.oidcSubject).toBeNull();
  });

  it("never re-links an account that belongs to another identity of the provider", async () => {
    await approve("owned@example.com");
    expect(
      (await signIn({ sub: "subject-owner", email: "owned@example.com" })).callback.headers.get(
        "Location",
      ),
    ).toBe("/sites");
    const { callback } = await signIn({ sub: "subject-intruder", email: "owned@example.com" });
    expect(callback).toHaveRedirect("/auth/login");
    expect(cookiesOf(callback)).not.toContain("stackshift_session=");
    const [row] = await db().select().from(users).where(eq(users.email, "owned@example.com"));
    expect(row.oidcSubject).toBe("subject-owner");
  });

  it("gives no account to someone who may not sign up, and says so on the login page", async () => {
    const { callback } = await signIn({ sub: "subject-outsider", email: "outsider@example.com" });
    expect(callback.status).toBe(302);
    expect(callback).toHaveRedirect("/auth/login");
    expect(cookiesOf(callback)).not.toContain("stackshift_session=");
    const { toast } = await readToast(makeRequest("/auth/login", { cookie: cookiesOf(callback) }));
    expect(toast).toMatchObject({
      type: "error",
      title: "This email has no access to StackShift yet",
    });
    expect(toast?.description).toMatch(/Request access first/);
    expect(await db().select().from(users).where(eq(users.email, "outsider@example.com"))).toEqual(
      [],
    );
  });

  it("refuses an address the provider has not verified", async () => {
    await approve("unverified@example.com");
    const { callback } = await signIn({
      sub: "subject-unverified",
      email: "unverified@example.com",
      email_verified: false,
    });
    expect(callback).toHaveRedirect("/auth/login");
    expect(
      await db().select().from(users).where(eq(users.email, "unverified@example.com")),
    ).toEqual([]);
  });

  it("refuses an address without an email_verified claim, unless OIDC_TRUST_EMAIL=true", async () => {
    await approve("noclaim@example.com");
    const missing = await signIn({
      sub: "subject-noclaim",
      email: "noclaim@example.com",
      email_verified: undefined,
    });
    expect(missing.callback).toHaveRedirect("/auth/login");
    const { toast } = await readToast(
      makeRequest("/auth/login", { cookie: cookiesOf(missing.callback) }),
    );
    expect(toast?.description).toMatch(/Verify your email address/);
    expect(await db().select().from(users).where(eq(users.email, "noclaim@example.com"))).toEqual(
      [],
    );
    process.env.OIDC_TRUST_EMAIL = "true";
    resetEnv();
    try {
      const trusted = await signIn({
        sub: "subject-noclaim",
        email: "noclaim@example.com",
        email_verified: undefined,
      });
      expect(trusted.callback).toHaveRedirect("/sites");
      // An explicit "not verified" is refused whatever the setting.
      await approve("said-no@example.com");
      const saidNo = await signIn({
        sub: "subject-said-no",
        email: "said-no@example.com",
        email_verified: false,
      });
      expect(saidNo.callback).toHaveRedirect("/auth/login");
    } finally {
      delete process.env.OIDC_TRUST_EMAIL;
      resetEnv();
    }
  });

  it("refuses a callback whose state does not match the browser's cookie", async () => {
    identity = { sub: "subject-forged", email: "admin@example.com" };
    const attacker = await call(
      startAction,
      makeRequest("/auth/oidc", { form: { redirectTo: "/" } }),
      {},
      { clientIp: `10.3.0.${++ip}` },
    );
    const authorize = await fetch(locationOf(attacker)!, { redirect: "manual" });
    const back = new URL(locationOf(authorize)!);
    // The victim's browser has a login attempt of its own (another state) or none at all.
    const victim = applyCookies(
      new Map(),
      await call(
        startAction,
        makeRequest("/auth/oidc", { form: {} }),
        {},
        { clientIp: "10.3.9.9" },
      ),
    );
    for (const cookie of [cookieHeader(victim), undefined]) {
      const res = await call(callbackLoader, makeRequest(back.pathname + back.search, { cookie }));
      expect(res.status).toBe(302);
      expect(res).toHaveRedirect("/auth/login");
      const { toast } = await readToast(makeRequest("/", { cookie: cookiesOf(res) }));
      expect(toast?.title).toBe("Single sign-on expired");
    }
    expect(await db().select().from(users).where(eq(users.oidcSubject, "subject-forged"))).toEqual(
      [],
    );
  });

  it("turns a provider error (access_denied) into a message, not a 500", async () => {
    const start = await call(
      startAction,
      makeRequest("/auth/oidc", { form: {} }),
      {},
      { clientIp: `10.3.0.${++ip}` },
    );
    const jar = applyCookies(new Map(), start);
    const state = new URL(locationOf(start)!).searchParams.get("state")!;
    const res = await call(
      callbackLoader,
      makeRequest(`/auth/oidc/callback?error=access_denied&state=${encodeURIComponent(state)}`, {
        cookie: cookieHeader(jar),
      }),
    );
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/auth/login");
    const { toast } = await readToast(makeRequest("/", { cookie: cookiesOf(res) }));
    expect(toast?.description).toBe("The sign-on provider refused the request (access_denied).");
  });

  it("limits how often one IP may start a login (429 with Retry-After)", async () => {
    const start = () =>
      call(startAction, makeRequest("/auth/oidc", { form: {} }), {}, { clientIp: "10.3.200.1" });
    for (let i = 0; i < POLICIES.oidcAddress.points; i += 1)
      expect((await start()).status).toBe(302);
    const limited = await start();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await limited.json()).result.error[""][0]).toMatch(/Too many attempts/);
  });

  it("answers 503 with a message when the provider is down, and password login still works", async () => {
    // A port that was just free: nothing answers there.
    const closed = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => closed.once("listening", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    process.env.OIDC_ISSUER = `http://127.0.0.1:${port}`;
    resetEnv();
    resetAuthenticator();
    try {
      const res = await call(
        startAction,
        makeRequest("/auth/oidc", { form: {} }),
        {},
        { clientIp: `10.3.0.${++ip}` },
      );
      expect(res.status).toBe(503);
      expect((await res.json()).result.error[""][0]).toMatch(
        /Single sign-on is unavailable right now/,
      );

      const user = await createUser();
      const login = await call(
        loginAction,
        makeRequest("/auth/login", { form: { email: user.email, password: user.password } }),
        {},
        { clientIp: "10.3.100.1" },
      );
      expect(login.status).toBe(302);
    } finally {
      process.env.OIDC_ISSUER = provider.issuer.url!;
      resetEnv();
      resetAuthenticator();
    }
  });

  it("never starts a login from a GET", async () => {
    const start = await call(startLoader, makeRequest("/auth/oidc"));
    expect(start.status).toBe(200);
    expect(start).not.toHaveRedirect();
    const callback = await call(callbackLoader, makeRequest("/auth/oidc/callback"));
    expect(callback).toHaveRedirect("/auth/login");
  });
});

describe("single sign-on logout", () => {
  it("ends the local session, then goes to the provider's end-session endpoint", async () => {
    await approve("logout@example.com");
    const { jar } = await signIn({ sub: "subject-logout", email: "logout@example.com" });
    const [user] = await db().select().from(users).where(eq(users.oidcSubject, "subject-logout"));
    const [session] = await db().select().from(sessions).where(eq(sessions.userId, user.id));

    const res = await call(
      logoutAction,
      makeRequest("/auth/logout", { method: "POST", cookie: cookieHeader(jar) }),
    );
    expect(res.status).toBe(302);
    const endSession = new URL(locationOf(res)!);
    expect(endSession.origin + endSession.pathname).toBe(`${provider.issuer.url}/endsession`);
    expect(endSession.searchParams.get("id_token_hint")).toBe(session.idToken);
    expect(endSession.searchParams.get("post_logout_redirect_uri")).toBe(
      "http://localhost:3000/api/auth/logout-callback",
    );
    expect(res.headers.get("Set-Cookie")).toMatch(/stackshift_session=;/);
    expect(await db().select().from(sessions).where(eq(sessions.id, session.id))).toEqual([]);
    // The row is keyed by the sha256 of the id, never the cookie's value.
    expect(session.id).toMatch(/^[0-9a-f]{64}$/);

    // The provider ends its session and sends the browser to our callback, which shows login.
    const provided = await fetch(endSession, { redirect: "manual" });
    const back = new URL(locationOf(provided)!);
    expect(back.pathname).toBe("/api/auth/logout-callback");
    const done = await call(logoutCallback, makeRequest(back.pathname + back.search));
    expect(done).toHaveRedirect("/auth/login");
  });

  it("logs a password user out locally, without the provider", async () => {
    const user = await createUser();
    const login = await call(
      loginAction,
      makeRequest("/auth/login", { form: { email: user.email, password: user.password } }),
      {},
      { clientIp: "10.3.7.7" },
    );
    const cookie = login.headers.get("Set-Cookie")!.split(";")[0];
    const res = await call(logoutAction, makeRequest("/auth/logout", { method: "POST", cookie }));
    expect(res).toHaveRedirect("/auth/login");
  });
});
