/**
 * Two-factor sign-in (docs/decisions/038-second-factors.md): the authenticator app set up from
 * User Settings, the second step after the password, recovery codes, and wrong codes counted like
 * wrong passwords. Through the route modules, on the real database.
 */
import { generateTOTP } from "@epic-web/totp";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/db/client.server";
import { recoveryCodes, totpFactors, users } from "~/db/schema";
import { action as loginAction } from "~/routes/auth.login";
import { action as stepAction, loader as stepLoader } from "~/routes/auth.two-factor";
import {
  action as settingsAction,
  loader as settingsLoader,
} from "~/routes/_app.sites.user-settings_.two-factor";
import { POLICIES } from "~/services/core/rate-limit.server";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";

const PAGE = "/sites/user-settings/two-factor";

/** The app's code for `secret`, `steps` 30-second steps from now. */
async function codeFor(secret: string, steps = 0) {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + steps * 30_000 });
  try {
    return (await generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" })).otp;
  } finally {
    vi.useRealTimers();
  }
}

/** Cookies of a response merged over `cookie` (the session cookie is replaced, never added twice). */
function cookieAfter(response: Response, cookie = "") {
  const jar = new Map(
    cookie
      .split("; ")
      .filter(Boolean)
      .map((c) => [c.split("=")[0], c] as const),
  );
  for (const set of response.headers.getSetCookie()) {
    const pair = set.split(";")[0];
    jar.set(pair.split("=")[0], pair);
  }
  return [...jar.values()].join("; ");
}

/** Sets up the authenticator app for a new person through the page; returns what they hold. */
async function personWithApp() {
  const person = await createUser();
  let cookie = await sessionCookie(person.id);
  const started = await call(
    settingsAction,
    makeRequest(PAGE, { cookie, form: { intent: "totp-start" } }),
  );
  expect(started.status).toBe(302);
  cookie = cookieAfter(started, cookie);
  const page = await (await call(settingsLoader, makeRequest(PAGE, { cookie }))).json();
  expect(page.setup.qrSvg).toContain("<svg");
  const secret = (page.setup.key as string).replace(/ /g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const enabled = await call(
    settingsAction,
    makeRequest(PAGE, { cookie, form: { intent: "totp-enable", code: await codeFor(secret) } }),
  );
  expect(enabled.status).toBe(200);
  const { recoveryCodes: codes } = await enabled.json();
  expect(codes).toHaveLength(10);
  return { person, cookie, secret, codes: codes as string[] };
}

function login(email: string, password: string, clientIp = "203.0.113.50") {
  return call(
    loginAction,
    makeRequest("/auth/login", { form: { email, password, redirectTo: "/sites/support" } }),
    {},
    { clientIp },
  );
}

function secondStep(cookie: string, code: string, clientIp = "203.0.113.50") {
  return call(
    stepAction,
    makeRequest("/auth/two-factor", { cookie, form: { code } }),
    {},
    {
      clientIp,
    },
  );
}

describe("the authenticator app", () => {
  it("is set up by a first code, keeps its secret encrypted, and comes with ten recovery codes", async () => {
    const { person, secret, codes } = await personWithApp();
    const [row] = await db().select().from(totpFactors).where(eq(totpFactors.userId, person.id));
    expect(row.secret).not.toContain(secret);
    expect(row.secret).toMatch(/^v1\./);
    const [account] = await db().select().from(users).where(eq(users.id, person.id));
    expect(account.twoFactorSince).not.toBeNull();
    const stored = await db()
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, person.id));
    expect(stored).toHaveLength(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
      expect(JSON.stringify(stored)).not.toContain(code.replace(/-/g, ""));
    }
  });

  it("refuses a wrong first code beside the field and stays off", async () => {
    const person = await createUser();
    let cookie = await sessionCookie(person.id);
    cookie = cookieAfter(
      await call(settingsAction, makeRequest(PAGE, { cookie, form: { intent: "totp-start" } })),
      cookie,
    );
    const wrong = await call(
      settingsAction,
      makeRequest(PAGE, { cookie, form: { intent: "totp-enable", code: "000000" } }),
    );
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).result.error.code[0]).toMatch(/This code is not right/);
    const [account] = await db().select().from(users).where(eq(users.id, person.id));
    expect(account.twoFactorSince).toBeNull();
  });
});

describe("signing in with a second factor", () => {
  it("asks for the code after the password, and signs in with it", async () => {
    const { person, secret } = await personWithApp();
    const first = await login(person.email, person.password);
    expect(first).toHaveRedirect("/auth/two-factor");
    const waiting = cookieAfter(first);
    // The password alone is no session: the waiting one carries no user.
    expect((await call(settingsLoader, makeRequest(PAGE, { cookie: waiting }))).status).toBe(302);
    expect(
      (await call(stepLoader, makeRequest("/auth/two-factor", { cookie: waiting }))).status,
    ).toBe(200);
    const done = await secondStep(waiting, await codeFor(secret, 1));
    expect(done).toHaveRedirect("/sites/support");
    const signedIn = cookieAfter(done, waiting);
    expect((await call(settingsLoader, makeRequest(PAGE, { cookie: signedIn }))).status).toBe(200);
  });

  it("refuses a wrong code and a code used before", async () => {
    const { person, secret } = await personWithApp();
    const waiting = cookieAfter(await login(person.email, person.password));
    const wrong = await secondStep(waiting, "123456");
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).result.error.code[0]).toBe(
      "This code is not right, or it was used already",
    );
    const code = await codeFor(secret, 1);
    expect(await secondStep(waiting, code)).toHaveRedirect("/sites/support");
    // The same code again, on a new sign-in: refused (and an older one too).
    const again = cookieAfter(await login(person.email, person.password));
    expect((await secondStep(again, code)).status).toBe(400);
    expect((await secondStep(again, await codeFor(secret, 0))).status).toBe(400);
  });

  it("accepts the same code once when it is sent twice at once", async () => {
    const { person, secret } = await personWithApp();
    const a = cookieAfter(await login(person.email, person.password));
    const b = cookieAfter(await login(person.email, person.password, "203.0.113.51"));
    const code = await codeFor(secret, 1);
    const answers = await Promise.all([secondStep(a, code), secondStep(b, code, "203.0.113.51")]);
    expect(answers.map((r) => r.status).sort()).toEqual([302, 400]);
  });

  it("takes a recovery code once, however it is typed", async () => {
    const { person, codes } = await personWithApp();
    const waiting = cookieAfter(await login(person.email, person.password));
    const typed = codes[3].toUpperCase().replace(/-/g, " ");
    const done = await secondStep(waiting, typed);
    expect(done).toHaveRedirect("/sites/support");
    expect(done).toSendToast({ title: "You signed in with a recovery code" });
    const again = cookieAfter(await login(person.email, person.password));
    expect((await secondStep(again, codes[3])).status).toBe(400);
    expect(await secondStep(again, codes[4])).toHaveRedirect("/sites/support");
  });

  it("counts wrong codes like wrong passwords: the 6th try from one address is refused", async () => {
    const { person, secret } = await personWithApp();
    const ip = "203.0.113.77";
    const waiting = cookieAfter(await login(person.email, person.password, ip));
    for (let i = 0; i < POLICIES.loginFailuresAccount.points; i += 1) {
      expect((await secondStep(waiting, `00000${i}`, ip)).status).toBe(400);
    }
    const refused = await secondStep(waiting, await codeFor(secret, 1), ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("sends a browser with no password step waiting back to the login page", async () => {
    expect(await call(stepLoader, makeRequest("/auth/two-factor"))).toHaveRedirect("/auth/login");
    expect(await secondStep("", "123456")).toHaveRedirect("/auth/login");
  });
});

describe("turning the app off", () => {
  it("signs in with the password alone again, and drops the recovery codes", async () => {
    const { person, cookie } = await personWithApp();
    const off = await call(
      settingsAction,
      makeRequest(PAGE, { cookie, form: { intent: "totp-disable" } }),
    );
    expect(off).toHaveRedirect(PAGE);
    const [account] = await db().select().from(users).where(eq(users.id, person.id));
    expect(account.twoFactorSince).toBeNull();
    expect(
      await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, person.id)),
    ).toHaveLength(0);
    expect(await login(person.email, person.password)).toHaveRedirect("/sites/support");
  });

  it("makes a new set of recovery codes that replaces the old one", async () => {
    const { person, cookie, codes } = await personWithApp();
    const made = await call(
      settingsAction,
      makeRequest(PAGE, { cookie, form: { intent: "recovery-codes-new" } }),
    );
    const fresh = (await made.json()).recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[0]);
    const waiting = cookieAfter(await login(person.email, person.password));
    expect((await secondStep(waiting, codes[0])).status).toBe(400);
    expect(await secondStep(waiting, fresh[0])).toHaveRedirect("/sites/support");
  });

  it("asks a session whose proof is older than 10 minutes to confirm it's them first", async () => {
    const { person } = await personWithApp();
    const stale = await sessionCookie(person.id, { proofAt: Date.now() - 11 * 60_000 });
    for (const intent of ["totp-disable", "recovery-codes-new"]) {
      const asked = await call(
        settingsAction,
        makeRequest(PAGE, { cookie: stale, form: { intent } }),
      );
      expect(asked).toHaveRedirect(`/auth/confirm?returnTo=${encodeURIComponent(PAGE)}`);
    }
    const [account] = await db().select().from(users).where(eq(users.id, person.id));
    expect(account.twoFactorSince).not.toBeNull();
    expect(
      await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, person.id)),
    ).toHaveLength(10);
  });
});
