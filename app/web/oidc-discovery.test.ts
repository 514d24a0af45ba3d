import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnv } from "~/utils/env.server";
import { oidcDiscovery, resetOidc } from "./oidc.server";

/**
 * The identity provider's discovery document (OpenID Connect Discovery 1.0), with msw answering
 * for the provider: the third-party HTTP boundary, nothing of ours is replaced.
 */
const issuer = "https://id.example.com";
const discoveryUrl = `${issuer}/.well-known/openid-configuration`;
const document = {
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  end_session_endpoint: `${issuer}/logout`,
};

const server = setupServer();
const saved = { ...process.env };

beforeAll(() => {
  server.listen({ onUnhandledRequest: "error" });
  Object.assign(process.env, {
    NODE_ENV: "test",
    OIDC_ISSUER: `${issuer}/`,
    OIDC_CLIENT_ID: "stackshift",
    SESSION_SECRET: "unit-test-session-secret-0123",
    ENCRYPTION_KEY: "unit-test-encryption-key-0123",
  });
  resetEnv();
});
afterEach(() => {
  server.resetHandlers();
  resetOidc();
});
afterAll(() => {
  server.close();
  process.env = saved;
  resetEnv();
});

const answer = (body: unknown, status = 200) =>
  server.use(http.get(discoveryUrl, () => HttpResponse.json(body as object, { status })));

describe("OpenID discovery", () => {
  it("reads the endpoints of the configured issuer (trailing slash or not) once per process", async () => {
    let requests = 0;
    server.use(
      http.get(discoveryUrl, () => {
        requests += 1;
        return HttpResponse.json(document);
      }),
    );
    await expect(oidcDiscovery()).resolves.toMatchObject(document);
    await oidcDiscovery();
    expect(requests).toBe(1);
  });

  it("refuses a document that names another issuer (Discovery 4.3)", async () => {
    answer({ ...document, issuer: "https://evil.example" });
    await expect(oidcDiscovery()).rejects.toThrow(
      "OpenID discovery names issuer https://evil.example, expected https://id.example.com",
    );
  });

  it("refuses a document without the authorization or token endpoint", async () => {
    answer({ issuer, authorization_endpoint: `${issuer}/authorize` });
    await expect(oidcDiscovery()).rejects.toThrow(/lacks the authorization or token endpoint/);
  });

  it("fails on an HTTP error, and asks again on the next call instead of caching the failure", async () => {
    answer({ error: "down" }, 503);
    await expect(oidcDiscovery()).rejects.toThrow("OpenID discovery failed: HTTP 503");
    answer(document);
    await expect(oidcDiscovery()).resolves.toMatchObject(document);
  });
});
