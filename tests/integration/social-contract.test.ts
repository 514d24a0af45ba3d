/**
 * The social contract (decision 009: the local providers behave like the vendors): the same
 * cases run against the local Instagram and the Instagram adapter with its stand-in on
 * 127.0.0.1. The authorization address with the state, scopes and return address; a code (with
 * Instagram's trailing '#_') exchanged once for a 60-day token and the profile, then a permanent
 * 400; a refresh; the latest posts, newest first; an outage as a retryable error that quotes no
 * token. What only one of them does (Instagram's requests and answer shapes, the local page's
 * signed codes and the 'taken' trigger) stays in social-providers.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueLocalCode } from "~/providers/local-oauth.server";
import { createInstagram } from "~/providers/social/instagram.server";
import { createLocalSocial } from "~/providers/social/local.server";
import type { SocialProvider } from "~/providers/social/types";
import { rejection } from "../stand-ins/provider-error";
import { startInstagramStandIn, type InstagramStandIn } from "../stand-ins/instagram";

const REDIRECT = "http://localhost:3000/oauth/instagram/callback";
const DAY_MS = 86_400_000;

/** What the suite needs beyond the interface: the authorization page's side of the round trip. */
type SocialDriver = {
  label: string;
  start(): Promise<SocialProvider>;
  stop(): Promise<void>;
  /** The code Instagram's page hands back when `userName` grants access, with its '#_'. */
  issueCode(userName: string): string;
  /** A code whose exchange meets an Instagram outage. */
  outageCode(): string;
};

function localDriver(): SocialDriver {
  return {
    label: "local Instagram",
    start: async () => createLocalSocial(),
    stop: async () => {},
    issueCode: (userName) =>
      `${issueLocalCode("instagram", { userName, redirectUri: REDIRECT })}#_`,
    outageCode: () =>
      issueLocalCode("instagram", { userName: "unreachable.shop", redirectUri: REDIRECT }),
  };
}

function instagramDriver(): SocialDriver {
  let ig: InstagramStandIn;
  return {
    label: "Instagram adapter",
    async start() {
      ig = await startInstagramStandIn();
      return createInstagram({
        clientId: ig.clientId,
        clientSecret: ig.clientSecret,
        authorizeUrl: "https://www.instagram.com/oauth/authorize",
        apiUrl: ig.url,
        graphUrl: ig.url,
      });
    },
    stop: () => ig.close(),
    issueCode: (userName) => ig.issueCode(userName),
    outageCode() {
      ig.fail({ method: "GET", path: /^\/access_token$/, status: 503 });
      return ig.issueCode("down.today");
    },
  };
}

describe.each([localDriver(), instagramDriver()])("$label", (driver) => {
  let social: SocialProvider;

  beforeAll(async () => {
    social = await driver.start();
  });
  afterAll(() => driver.stop());

  it("sends the member to an authorization page with the state, the scopes and the return address", () => {
    const url = new URL(social.authorizeUrl({ state: "proj.nonce", redirectUri: REDIRECT }));
    expect(url.searchParams.get("state")).toBe("proj.nonce");
    expect(url.searchParams.get("redirect_uri")).toBe(REDIRECT);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("scope")?.split(",")).toContain("instagram_business_basic");
    expect(social.platform).toBe("instagram");
  });

  it("exchanges a code, '#_' and all, once: a 60-day token and the profile, then a permanent 400", async () => {
    const code = driver.issueCode("acme.bakery");
    expect(code.endsWith("#_")).toBe(true);
    const linked = await social.exchangeCode(code, REDIRECT);
    expect(linked.profile).toMatchObject({ userName: "acme.bakery" });
    expect(linked.profile.userId).toMatch(/^\d+$/);
    expect(linked.accessToken).toEqual(expect.any(String));
    const days = (linked.expiresAt.getTime() - Date.now()) / DAY_MS;
    expect(days).toBeGreaterThan(59);
    expect(days).toBeLessThanOrEqual(60);

    const spent = await rejection(social.exchangeCode(code, REDIRECT));
    expect(spent).toMatchObject({ retryable: false, details: { status: 400 } });
  });

  it("refreshes a token into another one good for 60 days", async () => {
    const linked = await social.exchangeCode(driver.issueCode("refresh.me"), REDIRECT);
    const fresh = await social.refreshToken(linked.accessToken);
    expect(fresh.accessToken).not.toBe(linked.accessToken);
    expect(fresh.expiresAt.getTime()).toBeGreaterThan(Date.now() + 59 * DAY_MS);
  });

  it("reads at most `limit` of the latest posts, newest first, each with its link", async () => {
    const linked = await social.exchangeCode(driver.issueCode("feed.owner"), REDIRECT);
    const posts = await social.listPosts(linked.accessToken, { userName: "feed.owner", limit: 2 });
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.length).toBeLessThanOrEqual(2);
    const all = await social.listPosts(linked.accessToken, { userName: "feed.owner", limit: 6 });
    expect(all.slice(0, posts.length)).toEqual(posts);
    for (const post of all) {
      expect(post.id).toEqual(expect.any(String));
      expect(["IMAGE", "VIDEO", "CAROUSEL_ALBUM"]).toContain(post.mediaType);
      expect(post.permalink).toMatch(/^https:\/\/www\.instagram\.com\/p\//);
      expect(Date.parse(post.timestamp)).not.toBeNaN();
    }
    const times = all.map((p) => Date.parse(p.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("an outage is retryable and quotes no token or secret", async () => {
    const error = await rejection(social.exchangeCode(driver.outageCode(), REDIRECT));
    expect(error.retryable).toBe(true);
    expect(error.message).not.toMatch(/IGQVJ|IGLOCAL|access_token=|client_secret/);
  });
});
