/**
 * The ceiling per account (decision 041): wrong passwords from 200 addresses in 200 different
 * /64s (and /48s, so no per-address limit stops them) push the account past its ceiling; from
 * then on the right password from a browser that never signed in gets no session, only a mailed
 * link, while the owner's known browser signs in at once and the link's page signs in once.
 * Requests come through an HTTP server that believes X-Forwarded-For from its proxy as
 * server/index.mjs does with TRUST_PROXY, and hands the login action throttleAddress(req.ip).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { outbox, signInLinks, users } from "~/db/schema";
import { action as loginAction } from "~/routes/auth.login";
import { action as linkAction, loader as linkLoader } from "~/routes/auth.sign-in.$token";
import { POLICIES } from "~/services/core/rate-limit.server";
import { parseEnv } from "~/utils/env.server";
import { SIGN_IN_LINK_SENT } from "~/web/account-ceiling.server";
import { throttleAddress } from "../../server/middleware.mjs";
import { call, createUser, makeRequest, newestMailTo } from "../helpers";

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  // As server/index.mjs: which X-Forwarded-For hops to believe comes from TRUST_PROXY.
  app.set("trust proxy", parseEnv({ ...process.env, TRUST_PROXY: "loopback" }).TRUST_PROXY);
  app.post("/auth/login", express.urlencoded({ extended: false }), async (req, res) => {
    const answer = await call(
      loginAction,
      makeRequest("/auth/login", { form: req.body, cookie: req.headers.cookie }),
      {},
      { clientIp: throttleAddress(req.ip) },
    );
    res.status(answer.status);
    for (const cookie of answer.headers.getSetCookie()) res.append("Set-Cookie", cookie);
    const location = answer.headers.get("Location");
    if (location) res.set("Location", location);
    res.send(await answer.text());
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** A login form sent from `client` through the proxy, with the browser's cookies. */
async function login(email: string, password: string, client: string, cookie?: string) {
  const res = await fetch(`${base}/auth/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": client,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams({ email, password, redirectTo: "/sites" }),
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  return {
    status: res.status,
    location: res.headers.get("Location"),
    session: cookies.find((c) => c.startsWith("stackshift_session=")) ?? null,
    device: cookies.find((c) => c.startsWith("stackshift_device=")) ?? null,
  };
}

/** The i-th guesser: an address in a /64 (and /48) of its own. */
const guesser = (i: number) => `2001:db8:${(0x1000 + i).toString(16)}:7::${(i % 250) + 1}`;

async function pushPastCeiling(email: string, addresses = 200) {
  for (let i = 0; i < addresses; i += 20) {
    const batch = Array.from({ length: Math.min(20, addresses - i) }, (_, j) => i + j);
    const answers = await Promise.all(batch.map((n) => login(email, `guess ${n}`, guesser(n))));
    // Every guess is checked and wrong: the ceiling refuses nobody.
    expect(answers.map((a) => a.status)).toEqual(batch.map(() => 401));
  }
}

const mailsTo = async (email: string) =>
  (await db().select().from(outbox).where(eq(outbox.to, email))).length;

describe("the ceiling per account", () => {
  it("holds against 200 addresses over 200 /64s while the owner signs in from a known device", async () => {
    const owner = await createUser();
    expect(new Set(Array.from({ length: 200 }, (_, i) => throttleAddress(guesser(i)))).size).toBe(
      200,
    );
    // The owner signed in from their laptop before: the browser keeps the known-device cookie.
    const laptop = await login(owner.email, owner.password, "2001:db8:ffff:1::10");
    expect(laptop.status).toBe(302);
    expect(laptop.device).toBeTruthy();

    await pushPastCeiling(owner.email);

    // The right password from a browser that never signed in: no session, a link is mailed.
    const mailsBefore = await mailsTo(owner.email);
    const stranger = await login(owner.email, owner.password, "2001:db8:eeee:1::1");
    expect(stranger.status).toBe(302);
    expect(stranger.location).toBe(SIGN_IN_LINK_SENT);
    expect(stranger.session).toBeNull();
    expect(await mailsTo(owner.email)).toBe(mailsBefore + 1);
    // A wrong password says what it always says.
    expect((await login(owner.email, "guess again", "2001:db8:eeee:2::1")).status).toBe(401);

    // The owner's laptop, from a new address (a train's wifi): signed in at once.
    const back = await login(owner.email, owner.password, "2001:db8:dddd:1::1", laptop.device!);
    expect(back.status).toBe(302);
    expect(back.location).toBe("/sites");
    expect(back.session).toBeTruthy();
  }, 120_000);

  it("a known-device cookie of another account, or a made-up one, does not count", async () => {
    const owner = await createUser();
    const other = await createUser();
    const theirs = await login(other.email, other.password, "2001:db8:fffe:1::1");
    expect(theirs.device).toBeTruthy();
    await pushPastCeiling(owner.email, POLICIES.loginCeilingAccount.points);
    const replayed = await login(owner.email, owner.password, "2001:db8:fffe:2::1", theirs.device!);
    expect(replayed.location).toBe(SIGN_IN_LINK_SENT);
    expect(replayed.session).toBeNull();
    const madeUp = `stackshift_device=${Buffer.from(JSON.stringify({ accounts: [owner.id] })).toString("base64")}`;
    const forged = await login(owner.email, owner.password, "2001:db8:fffe:3::1", madeUp);
    expect(forged.location).toBe(SIGN_IN_LINK_SENT);
    expect(forged.session).toBeNull();
  }, 60_000);

  it("below the ceiling nothing changes; an account with a second factor is only asked for it", async () => {
    const owner = await createUser();
    await pushPastCeiling(owner.email, POLICIES.loginCeilingAccount.points - 1);
    const fine = await login(owner.email, owner.password, "2001:db8:fffd:1::1");
    expect(fine.location).toBe("/sites");
    expect(fine.session).toBeTruthy();

    const guarded = await createUser();
    await db().update(users).set({ twoFactorSince: new Date() }).where(eq(users.id, guarded.id));
    await pushPastCeiling(guarded.email, POLICIES.loginCeilingAccount.points);
    const asked = await login(guarded.email, guarded.password, "2001:db8:fffd:2::1");
    expect(asked.location).toBe("/auth/two-factor");
  }, 60_000);

  it("the mailed link shows a page; its POST signs that browser in, once", async () => {
    const owner = await createUser();
    await pushPastCeiling(owner.email, POLICIES.loginCeilingAccount.points);
    expect((await login(owner.email, owner.password, "2001:db8:fffc:1::1")).location).toBe(
      SIGN_IN_LINK_SENT,
    );
    const mail = await newestMailTo(owner.email);
    expect(mail.subject).toBe("Finish signing in to StackShift");
    const token = mail.text.match(/\/auth\/sign-in\/([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeTruthy();
    const path = `/auth/sign-in/${token}`;

    // Opening it (a mail scanner, HEAD or GET) changes nothing.
    for (const method of ["GET", "HEAD"]) {
      const shown = await call(linkLoader, makeRequest(path, { method }), { token: token! });
      expect(shown.status).toBe(200);
      expect(shown.headers.getSetCookie()).toEqual([]);
    }
    expect(
      await call(linkLoader, makeRequest(path), { token: token! }).then((r) => r.json()),
    ).toEqual({ email: owner.email });
    const [unused] = await db().select().from(signInLinks).where(eq(signInLinks.userId, owner.id));
    expect(unused.usedAt).toBeNull();
    expect(unused.expiresAt.getTime() - unused.createdAt.getTime()).toBeLessThanOrEqual(
      15 * 60_000 + 1000,
    );

    const signedIn = await call(linkAction, makeRequest(path, { form: {} }), { token: token! });
    expect(signedIn).toHaveRedirect("/sites");
    const cookies = signedIn.headers.getSetCookie().join("\n");
    expect(cookies).toContain("stackshift_session=");
    // The browser is known from now on.
    expect(cookies).toContain("stackshift_device=");

    const again = await call(linkAction, makeRequest(path, { form: {} }), { token: token! });
    expect(again.status).toBe(400);
    expect(again.headers.getSetCookie().join("\n")).not.toContain("stackshift_session=");
    expect((await call(linkLoader, makeRequest(path), { token: token! })).status).toBe(400);
  }, 60_000);
});
