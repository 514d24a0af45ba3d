import { ProviderError } from "../errors";
import { httpProviderError } from "../hosting/vendor-errors.server";
import { INSTAGRAM_SCOPES, type SocialPost, type SocialProvider, type SocialToken } from "./types";

export type InstagramOptions = {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  /** https://api.instagram.com: the code exchange. */
  apiUrl: string;
  /** https://graph.instagram.com: long-lived tokens and the profile. */
  graphUrl: string;
};

const GRAPH_VERSION = "v21.0";
const TIMEOUT_MS = 10_000;
const DAY_SECONDS = 24 * 60 * 60;

/**
 * Instagram API with Instagram Login, over fetch (Instagram publishes no SDK). Tokens travel in
 * query strings as the Graph API wants, so no URL is ever put in an error message or a log.
 */
export function createInstagram(options: InstagramOptions): SocialProvider {
  async function call(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch {
      throw new ProviderError("Instagram could not be reached", { provider: "instagram" });
    }
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      const error = (body.error ?? {}) as Record<string, unknown>;
      const message = body.error_message ?? error.message;
      throw httpProviderError("instagram", response.status, {
        message: typeof message === "string" ? message.slice(0, 200) : null,
        retryAfter: response.headers.get("retry-after"),
      });
    }
    return body;
  }

  const longLived = (body: Record<string, unknown>): SocialToken => {
    if (typeof body.access_token !== "string") {
      throw new ProviderError("Instagram sent no access token", {
        provider: "instagram",
        status: 502,
      });
    }
    const seconds = typeof body.expires_in === "number" ? body.expires_in : 60 * DAY_SECONDS;
    return { accessToken: body.access_token, expiresAt: new Date(Date.now() + seconds * 1000) };
  };

  return {
    platform: "instagram",
    profileBaseUrl: "https://www.instagram.com/",

    authorizeUrl({ state, redirectUri }) {
      if (!options.clientId || !options.clientSecret) {
        throw new ProviderError("Instagram linking is not configured on this server", {
          provider: "instagram",
          status: 503,
          code: "not_configured",
        });
      }
      const url = new URL(options.authorizeUrl);
      url.searchParams.set("client_id", options.clientId);
      url.searchParams.set("redirect_uri", redirectUri);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("scope", INSTAGRAM_SCOPES.join(","));
      url.searchParams.set("state", state);
      return url.toString();
    },

    async exchangeCode(rawCode, redirectUri) {
      // Instagram appends '#_' to the code it sends back.
      const code = rawCode.replace(/#_$/, "");
      const exchanged = await call(`${options.apiUrl}/oauth/access_token`, {
        method: "POST",
        body: new URLSearchParams({
          client_id: options.clientId,
          client_secret: options.clientSecret,
          grant_type: "authorization_code",
          redirect_uri: redirectUri,
          code,
        }),
      });
      // Documented as {data: [{access_token, user_id, permissions}]}; a flat object is also seen.
      const first = Array.isArray(exchanged.data)
        ? (exchanged.data[0] as Record<string, unknown>)
        : exchanged;
      const shortLived = first?.access_token;
      if (typeof shortLived !== "string") {
        throw new ProviderError("Instagram sent no access token", {
          provider: "instagram",
          status: 502,
        });
      }
      const token = longLived(
        await call(
          `${options.graphUrl}/access_token?${new URLSearchParams({
            grant_type: "ig_exchange_token",
            client_secret: options.clientSecret,
            access_token: shortLived,
          })}`,
        ),
      );
      const me = await call(
        `${options.graphUrl}/${GRAPH_VERSION}/me?${new URLSearchParams({
          fields: "user_id,username,name,profile_picture_url",
          access_token: token.accessToken,
        })}`,
      );
      if (typeof me.username !== "string" || !me.username) {
        throw new ProviderError("Instagram sent no user name", {
          provider: "instagram",
          status: 502,
        });
      }
      const id = me.user_id ?? me.id ?? first.user_id;
      return {
        ...token,
        profile: {
          userId: String(id ?? me.username),
          userName: me.username,
          profileName: typeof me.name === "string" && me.name ? me.name : null,
          profilePictureUrl:
            typeof me.profile_picture_url === "string" && /^https:\/\//.test(me.profile_picture_url)
              ? me.profile_picture_url
              : null,
        },
      };
    },

    async listPosts(accessToken, { limit }) {
      const body = await call(
        `${options.graphUrl}/${GRAPH_VERSION}/me/media?${new URLSearchParams({
          fields: "id,caption,media_type,media_url,thumbnail_url,permalink,timestamp",
          limit: String(limit),
          access_token: accessToken,
        })}`,
      );
      const items = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
      return items.map((item): SocialPost => {
        const image = item.media_type === "VIDEO" ? item.thumbnail_url : item.media_url;
        return {
          id: String(item.id),
          caption: typeof item.caption === "string" ? item.caption : null,
          mediaType: typeof item.media_type === "string" ? item.media_type : "IMAGE",
          mediaUrl: typeof image === "string" && image.startsWith("https://") ? image : null,
          permalink:
            typeof item.permalink === "string" ? item.permalink : "https://www.instagram.com/",
          timestamp:
            typeof item.timestamp === "string"
              ? new Date(item.timestamp).toISOString()
              : new Date(0).toISOString(),
        };
      });
    },

    async refreshToken(accessToken) {
      return longLived(
        await call(
          `${options.graphUrl}/refresh_access_token?${new URLSearchParams({
            grant_type: "ig_refresh_token",
            access_token: accessToken,
          })}`,
        ),
      );
    },
  };
}
