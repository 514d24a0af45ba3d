/**
 * The HTTP part shared by the hosting stand-ins: a node:http server on 127.0.0.1 that records
 * every request, answers through the stand-in's handler, and can be told to fail the next
 * matching requests (status, body, headers), optionally after doing the work, which is how a
 * vendor looks when its answer is lost on the way back.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Recorded = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
};

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

export type FailureRule = {
  method?: string;
  path?: RegExp;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests fail (default 1). */
  times?: number;
  /** Do the work, then answer with the failure (a lost response). */
  afterHandling?: boolean;
};

export type StandInServer = {
  url: string;
  requests: Recorded[];
  fail(rule: FailureRule): void;
  close(): Promise<void>;
};

export async function startStandInServer(options: {
  handle: (request: Recorded) => Reply | Promise<Reply>;
  /** The vendor's error body for a status and message. */
  errorBody: (status: number, message: string) => unknown;
  /** Where the API lives under the server's root, e.g. "/api/v1". */
  prefix?: string;
}): Promise<StandInServer> {
  const requests: Recorded[] = [];
  const rules: (FailureRule & { left: number })[] = [];
  const prefix = options.prefix ?? "";

  function send(res: http.ServerResponse, reply: Reply) {
    const headers = { ...reply.headers };
    if (reply.body === undefined) {
      res.writeHead(reply.status, headers).end();
      return;
    }
    res
      .writeHead(reply.status, { "Content-Type": "application/json", ...headers })
      .end(JSON.stringify(reply.body));
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://stand-in");
    let body: unknown = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    if (!url.pathname.startsWith(prefix)) {
      send(res, { status: 404, body: options.errorBody(404, "Not Found") });
      return;
    }
    const recorded: Recorded = {
      method: req.method ?? "GET",
      path: url.pathname.slice(prefix.length) || "/",
      query: url.searchParams,
      headers: req.headers,
      body,
    };
    requests.push(recorded);

    const rule = rules.find(
      (r) =>
        r.left > 0 &&
        (!r.method || r.method === recorded.method) &&
        (!r.path || r.path.test(recorded.path)),
    );
    try {
      if (rule) {
        rule.left -= 1;
        if (rule.afterHandling) await options.handle(recorded);
        send(res, {
          status: rule.status,
          body: rule.body ?? options.errorBody(rule.status, http.STATUS_CODES[rule.status] ?? ""),
          headers: rule.headers,
        });
        return;
      }
      send(res, await options.handle(recorded));
    } catch (error) {
      send(res, { status: 500, body: options.errorBody(500, String(error)) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    requests,
    fail(rule) {
      rules.push({ ...rule, left: rule.times ?? 1 });
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
