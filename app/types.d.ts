import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce?: string;
    clientIp?: string;
    /** One per request (server/middleware.mjs), in the logs, X-Request-Id and error pages. */
    requestId?: string;
  }
}
