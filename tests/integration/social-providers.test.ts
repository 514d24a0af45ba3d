/**
 * The linking adapters' contracts: Instagram (code exchange in both answer shapes, the trailing
 * '#_', long-lived token, profile, refresh, refusals and outages as ProviderErrors that quote no
 * token or secret) and Stripe Connect (the SDK's oauth.token against the Stripe stand-in), each
 * against a stand-in on 127.0.0.1; the local providers' codes and triggers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueLocalCode } from "~/providers/local-oauth.server";
import { createLocalPayments } from "~/providers/payments/local.server";
import { createStripePayments, stripeApiOptions } from "~/providers/payments/stripe.server";
import { createInstagram } from "~/providers/social/instagram.server";
import { createLocalSocial } from "~/providers/social/local.server";
import type { SocialProvider } from "~/providers/social/types";
import { rejection } from "../stand-ins/provider-error";
import { startInstagramStandIn, type InstagramStandIn } from "../stand-ins/instagram";
import { startStripeStandIn, type StripeStandIn } from "../stand-ins/stripe";

const REDIRECT = "http://localhost:3000/oauth/instagram/callback";

describe("the Instagram adapter against a stand-in", () => {
  let ig: InstagramStandIn;
  let adapter: SocialProvider;

  beforeAll(async () => {
    ig = await startInstagramStandIn();
    adapter = createInstagram({
      clientId: ig.clientId,
      clientSecret: ig.clientSecret,
      authorizeUrl: "https://www.instagram.com/oauth/authorize",
      apiUrl: ig.url,
      graphUrl: ig.url,
    });
  });
  afterAll(() => ig.close());

  it("builds the authorization address with the client id, the five scopes and the state", () => {
    const url = new URL(adapter.authorizeUrl({ state: "proj.nonce", redirectUri: REDIRECT }));
    expect(url.origin + url.pathname).toBe("https://www.instagram.com/oauth/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: ig.clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope:
        "instagram_business_basic,instagram_business_manage_messages,instagram_business_manage_comments,instagram_business_content_publish,instagram_business_manage_insights",
      state: "proj.nonce",
    });
  });

  it("exchanges a code (trailing '#_' removed) for a long-lived token and the profile", async () => {
    const before = ig.requests.length;
    const linked = await adapter.exchangeCode(ig.issueCode("acme.bakery", "Acme Bakery"), REDIRECT);
    expect(linked.profile).toEqual({
      userId: expect.stringMatching(/^17841400\d{8}$/),
      userName: "acme.bakery",
      profileName: "Acme Bakery",
      profilePictureUrl: "https://scontent.cdninstagram.com/v/acme.bakery.jpg",
    });
    expect(linked.accessToken).toMatch(/^IGQVJlong/);
    const days = (linked.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(59);
    const calls = ig.requests.slice(before);
    expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /oauth/access_token",
      "GET /access_token",
      "GET /v21.0/me",
    ]);
    const form = new URLSearchParams(calls[0].body as string);
    expect(form.get("grant_type")).toBe("authorization_code");
    expect(form.get("redirect_uri")).toBe(REDIRECT);
    expect(form.get("code")).not.toContain("#");
    expect(calls[1].query.get("grant_type")).toBe("ig_exchange_token");
    expect(calls[2].query.get("fields")).toBe("user_id,username,name,profile_picture_url");
  });

  it("accepts the flat exchange answer too", async () => {
    ig.useFlatExchange(true);
    try {
      const linked = await adapter.exchangeCode(ig.issueCode("flat.answer"), REDIRECT);
      expect(linked.profile.userName).toBe("flat.answer");
    } finally {
      ig.useFlatExchange(false);
    }
  });

  it("refreshes a long-lived token", async () => {
    const linked = await adapter.exchangeCode(ig.issueCode("refresh.me"), REDIRECT);
    const fresh = await adapter.refreshToken(linked.accessToken);
    expect(fresh.accessToken).not.toBe(linked.accessToken);
    expect(fresh.expiresAt.getTime()).toBeGreaterThan(Date.now() + 59 * 86_400_000);
    expect(ig.requests.at(-1)!.query.get("grant_type")).toBe("ig_refresh_token");
  });

  it("reads the latest posts, a video by its thumbnail, asking for the fields it shows", async () => {
    const linked = await adapter.exchangeCode(ig.issueCode("feed.owner"), REDIRECT);
    const posts = await adapter.listPosts(linked.accessToken, { userName: "feed.owner", limit: 6 });
    expect(posts).toEqual([
      {
        id: "1801",
        caption: "Rye day at feed.owner",
        mediaType: "IMAGE",
        mediaUrl: "https://scontent.cdninstagram.com/v/feed.owner-1.jpg",
        permalink: "https://www.instagram.com/p/AAA1/",
        timestamp: "2026-11-20T09:00:00.000Z",
      },
      expect.objectContaining({
        id: "1802",
        caption: null,
        mediaType: "VIDEO",
        mediaUrl: "https://scontent.cdninstagram.com/v/feed.owner-2.jpg",
      }),
      expect.objectContaining({ id: "1803", mediaType: "CAROUSEL_ALBUM" }),
    ]);
    const call = ig.requests.at(-1)!;
    expect(call.path).toBe("/v21.0/me/media");
    expect(call.query.get("limit")).toBe("6");
    expect(call.query.get("fields")).toContain("thumbnail_url");
  });

  it("answers a spent code with a permanent 400 that quotes no secret", async () => {
    const code = ig.issueCode("once.only");
    await adapter.exchangeCode(code, REDIRECT);
    const error = await rejection(adapter.exchangeCode(code, REDIRECT));
    expect(error.details.status).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain(ig.clientSecret);
  });

  it("answers an outage as retryable, without the token-bearing address", async () => {
    ig.fail({ method: "GET", path: /^\/access_token$/, status: 503 });
    const error = await rejection(adapter.exchangeCode(ig.issueCode("down.today"), REDIRECT));
    expect(error.retryable).toBe(true);
    expect(error.message).not.toMatch(/IGQVJ|access_token=|client_secret/);
  });

  it("refuses to start without an app id and secret", () => {
    const unconfigured = createInstagram({
      clientId: "",
      clientSecret: "",
      authorizeUrl: "https://www.instagram.com/oauth/authorize",
      apiUrl: ig.url,
      graphUrl: ig.url,
    });
    expect(() => unconfigured.authorizeUrl({ state: "s", redirectUri: REDIRECT })).toThrow(
      "Instagram linking is not configured on this server",
    );
  });
});

describe("Stripe Connect through the SDK against the Stripe stand-in", () => {
  let stripe: StripeStandIn;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
  });
  afterAll(() => stripe.close());

  const adapter = () =>
    createStripePayments(stripeApiOptions(stripe.url), {
      platformSecretKey: stripe.secretKey,
      clientId: "ca_standin123",
      authorizeUrl: "https://connect.stripe.com/oauth/authorize",
    });

  it("builds Connect's authorization address with scope read_write and the state", () => {
    const url = new URL(
      adapter().connectAuthorizeUrl({ state: "proj.nonce", redirectUri: "https://app/cb" }),
    );
    expect(url.host).toBe("connect.stripe.com");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "ca_standin123",
      scope: "read_write",
      redirect_uri: "https://app/cb",
      state: "proj.nonce",
    });
  });

  it("exchanges a code for the connected account's keys", async () => {
    const connected = await adapter().connectAccount(
      stripe.issueConnectCode("acct_1StandInShop"),
      "https://app/cb",
    );
    expect(connected).toEqual({
      accountId: "acct_1StandInShop",
      accountName: null,
      publishableKey: "pk_test_connect1StandInShop",
      accessToken: expect.stringMatching(/^sk_test_connect/),
    });
    const call = stripe.requests.at(-1)!;
    expect(`${call.method} ${call.path}`).toBe("POST /oauth/token");
    expect(call.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);
    expect(new URLSearchParams(call.body as string).get("grant_type")).toBe("authorization_code");
  });

  it("answers a spent code with a permanent 400 (invalid_grant)", async () => {
    const code = stripe.issueConnectCode("acct_1StandInOnce");
    await adapter().connectAccount(code, "https://app/cb");
    const error = await rejection(adapter().connectAccount(code, "https://app/cb"));
    expect(error.details.status).toBe(400);
    expect(error.retryable).toBe(false);
  });

  it("is unavailable without the platform key and client id", () => {
    const bare = createStripePayments(stripeApiOptions(stripe.url));
    expect(() => bare.connectAuthorizeUrl({ state: "s", redirectUri: "https://app/cb" })).toThrow(
      "Stripe Connect is not configured on this server",
    );
  });
});

describe("the local providers' codes", () => {
  it("Instagram: a code of its page works once, for its return address; 'taken' is a 409", async () => {
    const local = createLocalSocial();
    const code = issueLocalCode("instagram", { userName: "local.shop", redirectUri: REDIRECT });
    const linked = await local.exchangeCode(`${code}#_`, REDIRECT);
    expect(linked.profile.userName).toBe("local.shop");
    expect((await rejection(local.exchangeCode(code, REDIRECT))).details.status).toBe(400);
    const other = issueLocalCode("instagram", { userName: "local.shop", redirectUri: REDIRECT });
    expect(
      (await rejection(local.exchangeCode(other, "http://evil.example/cb"))).details.status,
    ).toBe(400);
    const taken = issueLocalCode("instagram", { userName: "taken.name", redirectUri: REDIRECT });
    expect((await rejection(local.exchangeCode(taken, REDIRECT))).details.status).toBe(409);
    // A Stripe code is no Instagram code.
    const stripeCode = issueLocalCode("stripe", { userName: "x", redirectUri: REDIRECT });
    expect((await rejection(local.exchangeCode(stripeCode, REDIRECT))).details.status).toBe(400);
    // Tampering with the signed claims is refused.
    const [payload, signature] = issueLocalCode("instagram", {
      userName: "a",
      redirectUri: REDIRECT,
    }).split(".");
    const forged = `${Buffer.from(JSON.stringify({ userName: "b", redirectUri: REDIRECT, p: "instagram", e: Date.now() + 60_000 })).toString("base64url")}.${signature}`;
    expect(payload).not.toBe(forged.split(".")[0]);
    expect((await rejection(local.exchangeCode(forged, REDIRECT))).details.status).toBe(400);
  });

  it("Stripe: the same account id gives the same publishable key, and a key the catalogue accepts", async () => {
    const local = createLocalPayments();
    const redirect = "http://localhost:3000/oauth/stripe/callback";
    const a = await local.connectAccount(
      issueLocalCode("stripe", { accountId: "acct_localA1b2c3", redirectUri: redirect }),
      redirect,
    );
    const b = await local.connectAccount(
      issueLocalCode("stripe", { accountId: "acct_localA1b2c3", redirectUri: redirect }),
      redirect,
    );
    expect(a.publishableKey).toBe(b.publishableKey);
    await expect(local.checkSecretKey(a.accessToken, "2020-08-27")).resolves.toBeUndefined();
  });
});
