import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce?: string;
    /** The client's address as throttles count it: IPv6 cut to its /64 (server/middleware.mjs). */
    clientIp?: string;
    /** One per request (server/middleware.mjs), in the logs, X-Request-Id and error pages. */
    requestId?: string;
  }
}
