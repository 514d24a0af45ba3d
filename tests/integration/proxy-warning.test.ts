/**
 * Behind a proxy that TRUST_PROXY does not cover, every client has the proxy's address, and one
 * stranger's failed logins lock the whole office out: the server says so in its log, at most once
 * a minute (server/middleware.mjs untrustedProxyWarning, mounted by server/index.mjs).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { shortProxyChainWarning, untrustedProxyWarning } from "../../server/middleware.mjs";

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A server trusting `trust` as server/index.mjs does; returns its URL and the lines it warned. */
async function serve(trust: string | number, clock: { now: number }) {
  const warned: string[] = [];
  const app = express();
  app.set("trust proxy", trust);
  app.use(
    untrustedProxyWarning(app.get("trust proxy fn"), {
      warn: (line) => warned.push(line),
      now: () => clock.now,
    }),
  );
  if (typeof trust === "number") {
    app.use(
      shortProxyChainWarning(trust, { warn: (line) => warned.push(line), now: () => clock.now }),
    );
  }
  app.get("*", (req, res) => res.json({ ip: req.ip }));
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server!.once("listening", () => resolve()));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, warned };
}

const viaProxy = (url: string) =>
  fetch(`${url}/sites`, { headers: { "X-Forwarded-For": "203.0.113.9" } });

describe("X-Forwarded-For from a peer TRUST_PROXY does not trust", () => {
  it("is logged once a minute, naming the peer and the setting", async () => {
    const clock = { now: 1_000_000 };
    // The proxy (127.0.0.1 here) is not among the trusted ones.
    const { url, warned } = await serve("10.0.0.0/8", clock);
    const first = await (await viaProxy(url)).json();
    expect(first.ip).toBe("127.0.0.1"); // every client would share this address
    await viaProxy(url);
    clock.now += 59_000;
    await viaProxy(url);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(
      /X-Forwarded-For from 127\.0\.0\.1, which TRUST_PROXY does not trust/,
    );
    clock.now += 1_000;
    await viaProxy(url);
    expect(warned).toHaveLength(2);
  });

  it("is not logged for a trusted proxy, nor for requests without the header", async () => {
    const clock = { now: 0 };
    const { url, warned } = await serve("loopback", clock);
    expect((await (await viaProxy(url)).json()).ip).toBe("203.0.113.9");
    await fetch(`${url}/sites`);
    expect(warned).toEqual([]);
  });
});

/**
 * A hop count longer than the proxy chain: express then reads the client's address from the
 * first X-Forwarded-For entry, which the client wrote itself when it sent the header. The
 * server says so, naming TRUST_PROXY, at most once a minute.
 */
describe("TRUST_PROXY hop count longer than the chain requests come through", () => {
  const forwardedFor = (url: string, chain: string) =>
    fetch(`${url}/sites`, { headers: { "X-Forwarded-For": chain } });

  it("is logged once a minute when a request's chain is shorter than the count", async () => {
    const clock = { now: 5_000_000 };
    // Two hops trusted; one proxy (127.0.0.1) in front: its header holds one address.
    const { url, warned } = await serve(2, clock);
    // A client that writes the header itself picks the address the limits count.
    expect((await (await forwardedFor(url, "198.51.100.7, 203.0.113.9")).json()).ip).toBe(
      "198.51.100.7",
    );
    expect(warned).toEqual([]);
    await forwardedFor(url, "203.0.113.9");
    await forwardedFor(url, "203.0.113.10");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(
      /^\[proxy\] TRUST_PROXY=2 trusts 2 proxy hops, but a request came through 1:/,
    );
    clock.now += 60_000;
    await forwardedFor(url, "203.0.113.11");
    expect(warned).toHaveLength(2);
  });

  it("is not logged when the chain is as long as the count, or without the header", async () => {
    const clock = { now: 0 };
    const { url, warned } = await serve(1, clock);
    expect((await (await forwardedFor(url, "203.0.113.9")).json()).ip).toBe("203.0.113.9");
    await forwardedFor(url, "10.0.0.1, 203.0.113.9");
    await fetch(`${url}/sites`);
    expect(warned).toEqual([]);
  });
});
