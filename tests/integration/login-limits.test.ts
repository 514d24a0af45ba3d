/**
 * Rate limits that stop attackers and not teams (decision record 004): login counts failures per
 * account and client address and per address; successes never count.
 */
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { accessRequests } from "~/db/schema";
import { action } from "~/routes/auth.login";
import { action as confirmAction } from "~/routes/auth.verify.$token";
import { action as signupAction } from "~/routes/signup";
import { ipv6Block48, lockoutSeconds, POLICIES } from "~/services/core/rate-limit.server";
import { throttleAddress } from "../../server/middleware.mjs";
import { call, createUser, makeRequest, newestMailTo } from "../helpers";

function login(email: string, password: string, clientIp: string) {
  return call(
    action,
    makeRequest("/auth/login", { form: { email, password, redirectTo: "/sites" } }),
    {},
    { clientIp },
  );
}

describe("login limits", () => {
  it("lets 30 people of one office log in within a minute", async () => {
    const office = "198.51.100.10";
    const people = await Promise.all(Array.from({ length: 30 }, () => createUser()));
    for (const person of people) {
      const res = await login(person.email, person.password, office);
      expect(res.status, person.email).toBe(302);
      expect(res).toHaveRedirect("/sites");
    }
  });

  it("lets one person log in 15 times in a row", async () => {
    const person = await createUser();
    for (let i = 0; i < 15; i += 1) {
      expect((await login(person.email, person.password, "198.51.100.11")).status).toBe(302);
    }
  });

  it("never refuses the right password because strangers failed on the same e-mail elsewhere", async () => {
    const victim = await createUser();
    for (let i = 0; i < 10; i += 1) {
      const res = await login(victim.email, `guess ${i}`, `192.0.2.${i + 1}`);
      expect(res.status).toBe(401);
    }
    // Ten more from one stranger's address: that address is locked, the victim's is not.
    for (let i = 0; i < 10; i += 1) await login(victim.email, `guess ${i}`, "192.0.2.99");
    expect((await login(victim.email, victim.password, "192.0.2.99")).status).toBe(429);
    expect((await login(victim.email, victim.password, "198.51.100.12")).status).toBe(302);
  });

  it("refuses the 6th try after 5 wrong passwords from one address, with Retry-After", async () => {
    const person = await createUser();
    const ip = "198.51.100.13";
    for (let i = 0; i < POLICIES.loginFailuresAccount.points; i += 1) {
      const res = await login(person.email, "wrong password", ip);
      expect(res.status).toBe(401);
      expect((await res.json()).result.error[""][0]).toBe("Invalid email or password");
    }
    const refused = await login(person.email, person.password, ip);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await refused.json()).result.error[""][0]).toMatch(
      /Too many failed attempts\. Please wait 15 minutes and try again\./,
    );
  });

  it("clears an account's failures from an address when the right password comes", async () => {
    const person = await createUser();
    const ip = "198.51.100.14";
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < POLICIES.loginFailuresAccount.points - 1; i += 1) {
        expect((await login(person.email, "typo", ip)).status).toBe(401);
      }
      expect((await login(person.email, person.password, ip)).status).toBe(302);
    }
  });

  it("refuses an address that fails on many accounts (password spraying)", async () => {
    const ip = "198.51.100.15";
    const { points } = POLICIES.loginFailuresAddress;
    for (let i = 0; i < points; i += 1) {
      expect((await login(`nobody${i}@example.com`, "spray", ip)).status).toBe(401);
    }
    const person = await createUser();
    const refused = await login(person.email, person.password, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Everyone else is unaffected.
    expect((await login(person.email, person.password, "198.51.100.16")).status).toBe(302);
  }, 60_000);

  it("evaluates at most 5 of 40 wrong passwords sent at once from one address", async () => {
    const person = await createUser();
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await login(person.email, `wrong guess ${i}`, "198.51.100.17");
        return { status: res.status, message: (await res.json()).result.error[""][0] as string };
      }),
    );
    const evaluated = answers.filter((a) => a.message === "Invalid email or password");
    const refused = answers.filter((a) => a.status === 429);
    expect(evaluated.length).toBeLessThanOrEqual(POLICIES.loginFailuresAccount.points);
    expect(evaluated.length).toBeGreaterThan(0);
    expect(evaluated.every((a) => a.status === 401)).toBe(true);
    expect(refused.length).toBe(40 - evaluated.length);
    expect(refused.every((a) => a.message.startsWith("Too many failed attempts."))).toBe(true);
    // The lockout holds afterwards, the right password included.
    expect((await login(person.email, person.password, "198.51.100.17")).status).toBe(429);
    expect((await login(person.email, person.password, "198.51.100.18")).status).toBe(302);
  }, 60_000);

  it("evaluates at most 5 of 40 wrong passwords sent at once to a signup's confirmation page", async () => {
    const email = `confirm-race-${Date.now()}@example.com`;
    await db()
      .insert(accessRequests)
      .values({ fullName: "Racer", businessEmail: email, requestStatus: "Approved" });
    const password = "the password typed at signup";
    const signedUp = await call(
      signupAction,
      makeRequest("/signup", {
        form: { name: "Racer", email, password, confirmPassword: password },
      }),
      {},
      { clientIp: "198.51.100.19" },
    );
    expect(signedUp.status).toBe(302);
    const token = (await newestMailTo(email))?.text.match(/\/auth\/verify\/([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeTruthy();
    const confirm = (pass: string) =>
      call(
        confirmAction,
        makeRequest(`/auth/verify/${token}`, { form: { password: pass } }),
        { token: token! },
        { clientIp: "198.51.100.20" },
      );
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await confirm(`not it ${i}`);
        return { status: res.status, body: await res.json() };
      }),
    );
    const evaluated = answers.filter((a) => a.body.result.error?.password);
    const refused = answers.filter((a) => a.status === 429);
    expect(evaluated.length).toBeLessThanOrEqual(POLICIES.loginFailuresAccount.points);
    expect(evaluated.length).toBeGreaterThan(0);
    expect(refused.length).toBe(40 - evaluated.length);
    expect(refused.every((a) => /^Too many failed attempts\./.test(a.body.message))).toBe(true);
  }, 60_000);

  it("doubles each further lockout within a day, up to a day", () => {
    expect([1, 2, 3, 4].map(lockoutSeconds)).toEqual([900, 1800, 3600, 7200]);
    expect(lockoutSeconds(20)).toBe(86_400);
  });
});

describe("client addresses as the throttles count them", () => {
  // The server hands every action throttleAddress(req.ip) as its clientIp (server/index.mjs).
  it("cuts IPv6 to its /64 and reads IPv4-mapped addresses as IPv4", () => {
    const addresses = Array.from(
      { length: 40 },
      (_, i) => `2001:db8:77:1:${i.toString(16)}:9::${i + 1}`,
    );
    expect(new Set(addresses.map(throttleAddress))).toEqual(new Set(["2001:db8:77:1::/64"]));
    expect(throttleAddress("2001:db8:77:2::1")).toBe("2001:db8:77:2::/64");
    expect(throttleAddress("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(throttleAddress("203.0.113.9")).toBe("203.0.113.9");
  });

  it("40 addresses of one /64 share one throttle; the next /64 has its own", async () => {
    const person = await createUser();
    const addresses = Array.from(
      { length: 40 },
      (_, i) => `2001:db8:99:1::${(i + 1).toString(16)}`,
    );
    const { points } = POLICIES.loginFailuresAccount;
    for (const address of addresses.slice(0, points)) {
      expect((await login(person.email, "wrong password", throttleAddress(address))).status).toBe(
        401,
      );
    }
    // Every other address of the block is refused now, the right password included.
    for (const address of addresses.slice(points)) {
      expect((await login(person.email, person.password, throttleAddress(address))).status).toBe(
        429,
      );
    }
    const neighbour = throttleAddress("2001:db8:99:2::1");
    expect((await login(person.email, person.password, neighbour)).status).toBe(302);
  });

  it("cuts a /64 (or an address) to its /48, and leaves IPv4 alone", () => {
    expect(ipv6Block48("2001:db8:77:1::/64")).toBe("2001:db8:77::/48");
    expect(ipv6Block48(throttleAddress("2001:db8:77:ffff:1::9"))).toBe("2001:db8:77::/48");
    expect(ipv6Block48("2001:db8:77:1::5")).toBe("2001:db8:77::/48");
    expect(ipv6Block48("203.0.113.9")).toBeNull();
    expect(ipv6Block48("unknown")).toBeNull();
  });

  it("one account: 20 failures from one /48 refuse its other /64s; another /48 is not touched", async () => {
    const person = await createUser();
    const { points } = POLICIES.loginFailuresAccountBlock;
    const perSubnet = POLICIES.loginFailuresAccount.points;
    expect(points).toBeGreaterThan(perSubnet);
    // Failures spread over /64s of one /48, each /64 below its own limit of 5.
    const subnets = Array.from(
      { length: points },
      (_, i) => `2001:db8:480:${(i + 1).toString(16)}::/64`,
    );
    for (const [i, subnet] of subnets.entries()) {
      const res = await login(person.email, `wrong ${i}`, subnet);
      expect(res.status, subnet).toBe(401);
    }
    // A fresh /64 of the same /48, the right password included: refused.
    const refused = await login(person.email, person.password, "2001:db8:480:ff00::/64");
    expect(refused.status).toBe(429);
    expect((await refused.json()).result.error[""][0]).toMatch(/^Too many failed attempts\./);
    // The owner elsewhere signs in.
    expect((await login(person.email, person.password, "2001:db8:481:1::/64")).status).toBe(302);
  }, 60_000);

  it("any account: 300 failures from one /48 refuse it; another /48 is not touched", async () => {
    const { points } = POLICIES.loginFailuresBlock;
    expect(points).toBeGreaterThan(POLICIES.loginFailuresAddress.points);
    const stamp = Date.now();
    // Spraying: one guess per made-up account, each /64 of the /48 used 50 times.
    for (let i = 0; i < points; i += 1) {
      const subnet = `2001:db8:482:${Math.floor(i / 50) + 1}::/64`;
      const res = await login(`spray${stamp}-${i}@example.com`, "spray", subnet);
      expect(res.status, `${i} from ${subnet}`).toBe(401);
    }
    const person = await createUser();
    expect((await login(person.email, person.password, "2001:db8:482:99::/64")).status).toBe(429);
    expect((await login(person.email, person.password, "2001:db8:483:1::/64")).status).toBe(302);
  }, 120_000);
});
