import { createHash, randomBytes } from "node:crypto";
import { env } from "~/utils/env.server";
import { ProviderError } from "../errors";
import { readLocalCode, redeemLocalCode } from "../local-oauth.server";
import { INSTAGRAM_SCOPES, type SocialProvider } from "./types";

const LIFETIME_MS = 60 * 24 * 60 * 60 * 1000;

/**
 * Instagram on a laptop: the authorization page is the dashboard's own
 * (/local/oauth/instagram/authorize), which grants any user name typed there. Triggers: a user
 * name containing `taken` answers 409 (linked elsewhere already); one containing `unreachable`
 * fails as an outage would (503, every time, the code unspent); a code that is not the page's,
 * expired or spent answers 400.
 */
export function createLocalSocial(): SocialProvider {
  const token = () => `IGLOCAL${randomBytes(24).toString("base64url")}`;
  return {
    platform: "instagram",
    profileBaseUrl: "https://www.instagram.com/",

    authorizeUrl({ state, redirectUri }) {
      const url = new URL("/local/oauth/instagram/authorize", env().APP_URL);
      url.searchParams.set("client_id", "local-instagram");
      url.searchParams.set("redirect_uri", redirectUri);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("scope", INSTAGRAM_SCOPES.join(","));
      url.searchParams.set("state", state);
      return url.toString();
    },

    async exchangeCode(code, redirectUri) {
      if (readLocalCode("instagram", code.replace(/#_$/, ""))?.userName?.includes("unreachable")) {
        throw new ProviderError("Instagram is unavailable", { provider: "instagram", status: 503 });
      }
      const claims = redeemLocalCode("instagram", code.replace(/#_$/, ""));
      if (!claims?.userName || claims.redirectUri !== redirectUri) {
        throw new ProviderError("Invalid authorization code", {
          provider: "instagram",
          status: 400,
          code: "bad_request",
        });
      }
      const userName = claims.userName;
      if (userName.includes("taken")) {
        throw new ProviderError("This Instagram account is linked already", {
          provider: "instagram",
          status: 409,
          code: "conflict",
        });
      }
      const id = createHash("sha256").update(userName.toLowerCase()).digest("hex").slice(0, 16);
      return {
        accessToken: token(),
        expiresAt: new Date(Date.now() + LIFETIME_MS),
        profile: {
          userId: `1784${BigInt(`0x${id}`).toString().slice(0, 13)}`,
          userName,
          profileName: claims.profileName || null,
          profilePictureUrl: null,
        },
      };
    },

    async listPosts(_accessToken, { userName, limit }) {
      // The same posts for the same account every time, a day apart, newest first.
      const seed = createHash("sha256").update(userName.toLowerCase()).digest("hex");
      const topics = [
        "Fresh from the oven",
        "Behind the scenes",
        "New this week",
        "Thank you!",
        "Weekend hours",
        "Meet the team",
        "Our favourite",
        "Coming soon",
      ];
      return Array.from({ length: Math.min(limit, 8) }, (_, i) => ({
        id: `${seed.slice(0, 12)}${i}`,
        caption: `${topics[(parseInt(seed.slice(i, i + 2), 16) + i) % topics.length]} at @${userName}`,
        mediaType: "IMAGE",
        mediaUrl: null,
        permalink: `https://www.instagram.com/p/${seed.slice(i, i + 11)}/`,
        timestamp: new Date(Date.UTC(2026, 10, 20 - i, 12)).toISOString(),
      }));
    },

    async refreshToken() {
      return { accessToken: token(), expiresAt: new Date(Date.now() + LIFETIME_MS) };
    },
  };
}
