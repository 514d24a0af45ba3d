/**
 * Passkeys through their routes, with a software authenticator (passkey-authenticator.ts): adding
 * one (and the recovery codes of a first factor), signing in with it alone, as the second step
 * after a password and as a proof; the counter, single-use challenges, and deleting the last one.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { passkeys, recoveryCodes, users } from "~/db/schema";
import { action as loginAction } from "~/routes/auth.login";
import { action as passkeyAction } from "~/routes/auth.passkey";
import { action as settingsAction } from "~/routes/resources.passkeys";
import { POLICIES } from "~/services/core/rate-limit.server";
import {
  PASSKEY_NOT_RIGHT,
  PASSKEY_NOT_YOURS,
  PASSKEY_UNKNOWN,
  RECOVERY_CODE_COUNT,
} from "~/services/two-factor/index.server";
import { CHALLENGE_GONE } from "~/web/passkeys.server";
import { sessionStorage } from "~/web/session.server";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";
import { SoftAuthenticator, strangerKey } from "./passkey-authenticator";

let ipSeq = 0;
/** A client address of its own for each test, so login counters never meet. */
const freshIp = () => `203.0.113.${(ipSeq += 1)}`;

/** The cookie a response sets, as the next request's Cookie header (or the one before). */
function nextCookie(res: Response, before?: string) {
  const line = res.headers.getSetCookie().find((c) => c.includes("session="));
  return line ? line.split(";")[0] : before;
}

async function sessionData(cookie: string | undefined) {
  const session = await sessionStorage().getSession(cookie);
  return session.data as Record<string, unknown>;
}

function settingsJson(cookie: string, json: unknown) {
  return call(settingsAction, makeRequest("/resources/passkeys", { cookie, json }));
}

function passkeyJson(json: unknown, cookie?: string, clientIp = "127.0.0.1") {
  return call(passkeyAction, makeRequest("/auth/passkey", { cookie, json }), {}, { clientIp });
}

/** Adds a passkey for the signed-in `cookie`'s account; returns the answer's body. */
async function addPasskey(cookie: string, authenticator: SoftAuthenticator, name = "Laptop") {
  const res = await settingsJson(cookie, { intent: "registration-options" });
  expect(res.status).toBe(200);
  const { options } = (await res.json()) as {
    options: { challenge: string; user: { id: string } };
  };
  const cookieNow = nextCookie(res, cookie)!;
  const added = await settingsJson(cookieNow, {
    intent: "registration-verify",
    name,
    response: authenticator.create(options),
  });
  expect(added.status, JSON.stringify(await added.clone().json())).toBe(201);
  return (await added.json()) as {
    passkey: { id: string; name: string };
    recoveryCodes: string[] | null;
  };
}

/** Starts a passkey ceremony on /auth/passkey: the options and the cookie holding the challenge. */
async function start(purpose: string, cookie?: string, clientIp?: string) {
  const res = await passkeyJson({ purpose, step: "options" }, cookie, clientIp);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  const { options } = (await res.json()) as {
    options: {
      challenge: string;
      allowCredentials?: { id: string }[];
      userVerification?: string;
    };
  };
  return { options, cookie: nextCookie(res, cookie)! };
}

async function userWithPasskey() {
  const user = await createUser();
  const cookie = await sessionCookie(user.id);
  const authenticator = new SoftAuthenticator();
  const added = await addPasskey(cookie, authenticator);
  return { user, cookie, authenticator, added };
}

describe("adding a passkey", () => {
  it("keeps the public key, sets two_factor_since, and gives ten recovery codes with the first factor only", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    const options = await settingsJson(cookie, { intent: "registration-options" });
    const body = (await options.json()) as {
      options: {
        rp: { id: string; name: string };
        user: { id: string; name: string };
        authenticatorSelection: { residentKey: string; userVerification: string };
        excludeCredentials: unknown[];
      };
    };
    expect(body.options.rp).toEqual({ id: "localhost", name: "StackShift" });
    expect(Buffer.from(body.options.user.id, "base64url").toString()).toBe(user.id);
    expect(body.options.user.name).toBe(user.email);
    expect(body.options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "preferred",
    });
    expect(body.options.excludeCredentials).toEqual([]);

    const first = new SoftAuthenticator();
    const added = await settingsJson(nextCookie(options, cookie)!, {
      intent: "registration-verify",
      name: "  Work laptop ",
      response: first.create(body.options as never),
    });
    expect(added.status).toBe(201);
    const result = (await added.json()) as {
      passkey: { id: string; name: string };
      recoveryCodes: string[];
    };
    expect(result.passkey).toMatchObject({ id: first.id, name: "Work laptop" });
    expect(result.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);

    const [row] = await db().select().from(passkeys).where(eq(passkeys.id, first.id));
    expect(row).toMatchObject({ userId: user.id, counter: 0, transports: ["internal"] });
    expect(row.publicKey).toMatch(/^[A-Za-z0-9_-]+$/);
    const [account] = await db().select().from(users).where(eq(users.id, user.id));
    expect(account.twoFactorSince).toBeInstanceOf(Date);

    // A second passkey: the first is excluded, no new codes.
    const second = await addPasskey(cookie, new SoftAuthenticator(), "Phone");
    expect(second.recoveryCodes).toBeNull();
    const again = await settingsJson(cookie, { intent: "registration-options" });
    const { options: next } = (await again.json()) as {
      options: { excludeCredentials: { id: string }[] };
    };
    expect(next.excludeCredentials.map((c) => c.id).sort()).toEqual(
      [first.id, second.passkey.id].sort(),
    );
    expect(
      await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id)),
    ).toHaveLength(RECOVERY_CODE_COUNT);
  });

  it("refuses an answer made for another origin, a malformed one, and anyone signed out (4xx JSON)", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    const options = await settingsJson(cookie, { intent: "registration-options" });
    const { options: o } = (await options.json()) as {
      options: { challenge: string; user: { id: string } };
    };
    const elsewhere = await settingsJson(cookie, {
      intent: "registration-verify",
      name: "Phishing",
      response: new SoftAuthenticator("https://evil.example").create(o),
    });
    expect(elsewhere.status).toBe(400);
    expect((await elsewhere.json()).error).toMatch(/could not be added/);

    for (const response of [null, "text", { id: "x" }, { id: "!!", rawId: "!!" }]) {
      await settingsJson(cookie, { intent: "registration-options" });
      const res = await settingsJson(cookie, {
        intent: "registration-verify",
        name: "Bad",
        response,
      });
      expect(res.status).toBe(400);
    }
    const signedOut = await call(
      settingsAction,
      makeRequest("/resources/passkeys", { json: { intent: "registration-options" } }),
    );
    expect(signedOut.status).toBe(401);
    expect(await db().select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([]);
  });
});

describe("signing in with a passkey alone", () => {
  it("signs in without an e-mail, requires user verification, and moves the counter", async () => {
    const { user, authenticator } = await userWithPasskey();
    const ip = freshIp();
    const { options, cookie } = await start("sign-in", undefined, ip);
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe("required");

    const res = await passkeyJson(
      {
        purpose: "sign-in",
        step: "verify",
        response: authenticator.get(options),
        redirectTo: "/sites",
      },
      cookie,
      ip,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ redirectTo: "/sites" });
    const signedIn = await sessionData(nextCookie(res));
    expect(signedIn.userId).toBe(user.id);
    expect(typeof signedIn.proofAt).toBe("number");
    const [row] = await db().select().from(passkeys).where(eq(passkeys.id, authenticator.id));
    expect(row.counter).toBe(1);
    expect(row.lastUsedAt).toBeInstanceOf(Date);

    // Without user verification (a key with no PIN asked): refused when it is the only factor.
    const noUv = await start("sign-in", undefined, ip);
    const refused = await passkeyJson(
      {
        purpose: "sign-in",
        step: "verify",
        response: authenticator.get(noUv.options, { userVerified: false }),
      },
      noUv.cookie,
      ip,
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toBe(PASSKEY_NOT_RIGHT);
  });

  it("refuses a counter that did not move forward (a cloned authenticator)", async () => {
    const { authenticator } = await userWithPasskey();
    const ip = freshIp();
    const signIn = async (counter?: number) => {
      const { options, cookie } = await start("sign-in", undefined, ip);
      return passkeyJson(
        { purpose: "sign-in", step: "verify", response: authenticator.get(options, { counter }) },
        cookie,
        ip,
      );
    };
    expect((await signIn(5)).status).toBe(200);
    const cloned = await signIn(5);
    expect(cloned.status).toBe(400);
    expect((await cloned.json()).error).toBe(PASSKEY_NOT_RIGHT);
    expect((await signIn(3)).status).toBe(400);
    const [row] = await db().select().from(passkeys).where(eq(passkeys.id, authenticator.id));
    expect(row.counter).toBe(5);
    expect((await signIn(6)).status).toBe(200);
  });

  it("uses a challenge once: a replayed answer, two at once, or a challenge for another purpose", async () => {
    const { authenticator } = await userWithPasskey();
    const ip = freshIp();
    const { options, cookie } = await start("sign-in", undefined, ip);
    const answer = authenticator.get(options);
    const body = { purpose: "sign-in", step: "verify", response: answer };
    expect((await passkeyJson(body, cookie, ip)).status).toBe(200);
    const replay = await passkeyJson(body, cookie, ip);
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe(CHALLENGE_GONE);

    // The same answer sent twice at once: one is checked.
    const twice = await start("sign-in", undefined, ip);
    const both = { ...body, response: authenticator.get(twice.options) };
    const results = await Promise.all([
      passkeyJson(both, twice.cookie, ip),
      passkeyJson(both, twice.cookie, ip),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);

    // No challenge at all (no session), and one kept for adding a passkey.
    const none = await passkeyJson(
      { ...body, response: authenticator.get(options) },
      undefined,
      ip,
    );
    expect(none.status).toBe(400);
    expect((await none.json()).error).toBe(CHALLENGE_GONE);
  });

  it("refuses an expired challenge", async () => {
    const { authenticator } = await userWithPasskey();
    const ip = freshIp();
    const { options, cookie } = await start("sign-in", undefined, ip);
    // Five minutes and a second ago, as the session row holds it.
    const session = await sessionStorage().getSession(cookie);
    const entry = session.get("passkeyChallenge") as { at: number };
    session.set("passkeyChallenge", { ...entry, at: entry.at - 5 * 60_000 - 1_000 });
    await sessionStorage().commitSession(session);
    const res = await passkeyJson(
      { purpose: "sign-in", step: "verify", response: authenticator.get(options) },
      cookie,
      ip,
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(CHALLENGE_GONE);
  });

  it("says so for a passkey nobody here has, and counts forged answers like wrong passwords", async () => {
    const ip = freshIp();
    const stranger = new SoftAuthenticator();
    const unknown = await start("sign-in", undefined, ip);
    const res = await passkeyJson(
      { purpose: "sign-in", step: "verify", response: stranger.get(unknown.options) },
      unknown.cookie,
      ip,
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(PASSKEY_UNKNOWN);

    const { authenticator } = await userWithPasskey();
    const forged = async () => {
      const { options, cookie } = await start("sign-in", undefined, ip);
      return passkeyJson(
        {
          purpose: "sign-in",
          step: "verify",
          response: authenticator.get(options, { signWith: strangerKey() }),
        },
        cookie,
        ip,
      );
    };
    for (let i = 0; i < POLICIES.loginFailuresAccount.points; i += 1) {
      expect((await forged()).status).toBe(400);
    }
    // The account is locked for this address now, even for the real passkey.
    const { options, cookie } = await start("sign-in", undefined, ip);
    const locked = await passkeyJson(
      { purpose: "sign-in", step: "verify", response: authenticator.get(options) },
      cookie,
      ip,
    );
    expect(locked.status).toBe(429);
    expect(locked.headers.get("Retry-After")).toMatch(/^\d+$/);
  });

  it("answers bad bodies with 4xx JSON, never a 500", async () => {
    for (const json of [
      {},
      { purpose: "nope", step: "options" },
      { purpose: "sign-in", step: "x" },
    ]) {
      expect((await passkeyJson(json)).status).toBe(400);
    }
    const { cookie } = await start("sign-in", undefined, freshIp());
    for (const response of [
      null,
      1,
      "x",
      { id: "a" },
      { id: "a", rawId: "b", type: "public-key" },
    ]) {
      await start("sign-in", cookie);
      const res = await passkeyJson({ purpose: "sign-in", step: "verify", response }, cookie);
      expect(res.status).toBe(400);
    }
    const notJson = await call(
      passkeyAction,
      makeRequest("/auth/passkey", {
        body: "purpose=sign-in",
        headers: { "Content-Type": "text/plain" },
      }),
    );
    expect(notJson.status).toBe(415);
  });
});

describe("a passkey as the second step after a password", () => {
  async function passwordStep(user: { email: string; password: string }, ip: string) {
    const res = await call(
      loginAction,
      makeRequest("/auth/login", {
        form: { email: user.email, password: user.password, redirectTo: "/sites/domains" },
      }),
      {},
      { clientIp: ip },
    );
    expect(res).toHaveRedirect("/auth/two-factor");
    return nextCookie(res)!;
  }

  it("accepts only the pending account's passkey, then starts its session", async () => {
    const owner = await userWithPasskey();
    const other = await userWithPasskey();
    const ip = freshIp();
    const pending = await passwordStep(owner.user, ip);

    const { options, cookie } = await start("second-factor", pending, ip);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([owner.authenticator.id]);
    expect(options.userVerification).toBe("preferred");

    // Another account's passkey (real, with a valid signature) is refused and counted.
    const wrong = await passkeyJson(
      { purpose: "second-factor", step: "verify", response: other.authenticator.get(options) },
      cookie,
      ip,
    );
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe(PASSKEY_NOT_YOURS);
    expect((await sessionData(cookie)).userId).toBeUndefined();
    const [otherRow] = await db()
      .select()
      .from(passkeys)
      .where(eq(passkeys.id, other.authenticator.id));
    expect(otherRow.lastUsedAt).toBeNull();

    const again = await start("second-factor", cookie, ip);
    const res = await passkeyJson(
      {
        purpose: "second-factor",
        step: "verify",
        response: owner.authenticator.get(again.options, { userVerified: false }),
      },
      again.cookie,
      ip,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ redirectTo: "/sites/domains" });
    const session = await sessionData(nextCookie(res));
    expect(session.userId).toBe(owner.user.id);
    expect(session.pendingSignIn).toBeUndefined();
  });

  it("needs a pending sign-in", async () => {
    const res = await passkeyJson({ purpose: "second-factor", step: "options" });
    expect(res.status).toBe(401);
  });
});

describe("a passkey as a proof", () => {
  it("sets the session's proofAt for the signed-in account's own passkey only", async () => {
    const me = await userWithPasskey();
    const other = await userWithPasskey();
    const session = await sessionStorage().getSession(me.cookie);
    session.set("proofAt", 1);
    await sessionStorage().commitSession(session);

    const wrong = await start("proof", me.cookie);
    expect(
      (
        await passkeyJson(
          { purpose: "proof", step: "verify", response: other.authenticator.get(wrong.options) },
          wrong.cookie,
        )
      ).status,
    ).toBe(400);
    expect((await sessionData(me.cookie)).proofAt).toBe(1);

    const { options, cookie } = await start("proof", me.cookie);
    const before = Date.now();
    const res = await passkeyJson(
      { purpose: "proof", step: "verify", response: me.authenticator.get(options) },
      cookie,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const data = await sessionData(me.cookie);
    expect(data.proofAt).toBeGreaterThanOrEqual(before);
    expect(data.userId).toBe(me.user.id);
    expect(data.passkeyChallenge).toBeUndefined();

    expect((await passkeyJson({ purpose: "proof", step: "options" })).status).toBe(401);
  });
});

describe("renaming and deleting (forms, without JavaScript)", () => {
  const form = (cookie: string, fields: Record<string, string>) =>
    call(settingsAction, makeRequest("/resources/passkeys", { cookie, form: fields }));

  it("renames one's own passkey only", async () => {
    const me = await userWithPasskey();
    const other = await userWithPasskey();
    const renamed = await form(me.cookie, {
      intent: "passkey-rename",
      passkeyId: me.authenticator.id,
      name: "Old phone",
      redirectTo: "/sites/user-settings",
    });
    expect(renamed).toHaveRedirect("/sites/user-settings");
    await expect(renamed).toSendToast({ type: "success" });
    const refused = await form(me.cookie, {
      intent: "passkey-rename",
      passkeyId: other.authenticator.id,
      name: "Mine now",
    });
    await expect(refused).toSendToast({ type: "error" });
    const rows = await db().select().from(passkeys);
    expect(rows.find((r) => r.id === me.authenticator.id)?.name).toBe("Old phone");
    expect(rows.find((r) => r.id === other.authenticator.id)?.name).toBe("Laptop");
    // An empty name is refused beside a toast, not a 500.
    const empty = await form(me.cookie, {
      intent: "passkey-rename",
      passkeyId: me.authenticator.id,
      name: "  ",
    });
    await expect(empty).toSendToast({ type: "error", title: "Give the passkey a name" });
  });

  it("deleting the last factor clears two_factor_since and the recovery codes", async () => {
    const me = await userWithPasskey();
    const other = await userWithPasskey();
    const second = new SoftAuthenticator();
    await addPasskey(me.cookie, second, "Phone");

    const notMine = await form(me.cookie, {
      intent: "passkey-delete",
      passkeyId: other.authenticator.id,
    });
    await expect(notMine).toSendToast({ type: "error" });
    expect(
      await db().select().from(passkeys).where(eq(passkeys.id, other.authenticator.id)),
    ).toHaveLength(1);

    const first = await form(me.cookie, { intent: "passkey-delete", passkeyId: second.id });
    expect(first).toHaveRedirect("/sites/user-settings");
    const account = async () =>
      (await db().select().from(users).where(eq(users.id, me.user.id)))[0];
    expect((await account()).twoFactorSince).toBeInstanceOf(Date);

    const last = await form(me.cookie, {
      intent: "passkey-delete",
      passkeyId: me.authenticator.id,
      redirectTo: "/sites/user-settings/two-factor",
    });
    expect(last).toHaveRedirect("/sites/user-settings/two-factor");
    await expect(last).toSendToast({
      type: "success",
      description: expect.stringMatching(/no second factor/),
    });
    expect((await account()).twoFactorSince).toBeNull();
    expect(
      await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, me.user.id)),
    ).toEqual([]);

    // The deleted passkey signs in no more.
    const ip = freshIp();
    const { options, cookie } = await start("sign-in", undefined, ip);
    const res = await passkeyJson(
      { purpose: "sign-in", step: "verify", response: me.authenticator.get(options) },
      cookie,
      ip,
    );
    expect(res.status).toBe(400);
  });

  it("sends the signed-out to login and a stranger's redirectTo home", async () => {
    const anonymous = await call(
      settingsAction,
      makeRequest("/resources/passkeys", { form: { intent: "passkey-delete", passkeyId: "abc" } }),
    );
    expect(anonymous).toHaveRedirect(/^\/auth\/login/);
    const me = await userWithPasskey();
    const res = await form(me.cookie, {
      intent: "passkey-rename",
      passkeyId: me.authenticator.id,
      name: "X",
      redirectTo: "https://evil.example/",
    });
    expect(res).toHaveRedirect("/sites/user-settings");
  });
});
