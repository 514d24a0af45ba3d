/**
 * One POST to a webhook's address, the only way the app sends one: the host is resolved once
 * and checked (address-guard.server.ts), and the connection goes to that checked address
 * through the request's own `lookup`, so nothing resolves it again behind our back. 10 seconds
 * for the whole exchange, redirects are answers (never followed), and only the response's first
 * 1 KB is read.
 */
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { RefusedAddressError, resolvePublicAddress, urlProblem } from "./address-guard.server";

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const RESPONSE_KEEP_BYTES = 1024;

export type PostOutcome = {
  /** The HTTP status, or null when no answer came (refused, unreachable, timed out). */
  status: number | null;
  durationMs: number;
  /** The response's first 1 KB, or why there was no response. */
  body: string;
  ok: boolean;
  /** Not sent: the address is not allowed (address-guard.server.ts). */
  refused: boolean;
};

export async function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  { timeoutMs = WEBHOOK_TIMEOUT_MS } = {},
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const problem = urlProblem(target);
  if (problem) return { status: null, durationMs: 0, body: problem, ok: false, refused: true };
  const url = new URL(target);
  let resolved;
  try {
    resolved = await resolvePublicAddress(url.hostname);
  } catch (error) {
    if (!(error instanceof RefusedAddressError)) throw error;
    return { status: null, durationMs: elapsed(), body: error.message, ok: false, refused: true };
  }
  // Node asks with `all` when it may try several families (autoSelectFamily): one answer either way.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        resolved,
      ]);
    } else callback(null, resolved.address, resolved.family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, "durationMs" | "ok" | "refused">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      resolve({ ...outcome, durationMs: elapsed(), ok, refused: false });
    };
    const request = client.request(
      url,
      {
        method: "POST",
        lookup,
        agent: false,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "StackShift-Webhooks/1.0",
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () => {
          const text = Buffer.concat(chunks).subarray(0, RESPONSE_KEEP_BYTES).toString("utf8");
          finish({ status: response.statusCode ?? null, body: text });
          response.destroy();
        };
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.length;
          if (kept >= RESPONSE_KEEP_BYTES) done();
        });
        response.on("end", done);
        response.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, body: `No answer within ${timeoutMs / 1000} s` });
      request.destroy();
    }, timeoutMs);
    request.on("error", (error) => finish({ status: null, body: error.message.slice(0, 500) }));
    request.end(body);
  });
}
