/**
 * A customer's webhook endpoint on 127.0.0.1 for the webhooks tests: it records what it is sent
 * and answers 200, or what `answers` says next ("hang" never answers). Reaching it needs
 * WEBHOOKS_ALLOW_PRIVATE_ADDRESSES, which each test starts with on (refusal tests turn it off).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll } from "vitest";
import { resetEnv } from "~/utils/env.server";

export type Received = { headers: http.IncomingHttpHeaders; body: string };

export function allowPrivateAddresses(on: boolean) {
  process.env.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = on ? "1" : "0";
  resetEnv();
}

/** Starts the receiver for the file's tests; `received` and `answers` are emptied after each. */
export function startReceiver() {
  const hook = { url: "", received: [] as Received[], answers: [] as (number | "hang")[] };
  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        hook.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        const answer = hook.answers.shift() ?? 200;
        if (answer === "hang") return;
        res.writeHead(answer, { "content-type": "text/plain" }).end(`answer ${answer}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    hook.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    allowPrivateAddresses(true);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    allowPrivateAddresses(false);
  });
  afterEach(() => {
    hook.received.length = 0;
    hook.answers.length = 0;
    allowPrivateAddresses(true);
  });
  return hook;
}
