/**
 * An Instagram stand-in for the social contract tests, one server for both hosts: the code
 * exchange (`POST /oauth/access_token`, form fields, Instagram's documented `{data: [...]}`
 * answer or the flat one also seen), the long-lived token (`GET /access_token`), its refresh
 * (`GET /refresh_access_token`) and the profile (`GET /v{N}/me`). Codes are single-use; errors
 * are Instagram's `{error_type, code, error_message}` and the Graph API's `{error: {...}}`.
 */
import { randomBytes } from "node:crypto";
import { startStandInServer, type FailureRule, type Recorded, type Reply } from "./hosting-server";

export type InstagramStandIn = Awaited<ReturnType<typeof startInstagramStandIn>>;

type Account = { userId: string; username: string; name: string; picture: string };

export async function startInstagramStandIn() {
  const clientId = "1234567890123456";
  const clientSecret = "igsecret-standin-0123456789abcdef";
  const codes = new Map<string, Account>();
  const shortTokens = new Map<string, Account>();
  const longTokens = new Map<string, Account>();
  let flatExchange = false;

  const oauthError = (status: number, message: string) => ({
    error_type: "OAuthException",
    code: status,
    error_message: message,
  });
  const graphError = (status: number, message: string) => ({
    error: {
      message,
      type: "OAuthException",
      code: status === 400 ? 190 : status,
      fbtrace_id: "A1b2",
    },
  });
  const mint = (prefix: string) => `${prefix}${randomBytes(18).toString("hex")}`;

  function handle(request: Recorded): Reply {
    if (request.method === "POST" && request.path === "/oauth/access_token") {
      const form = new URLSearchParams(typeof request.body === "string" ? request.body : "");
      if (form.get("client_id") !== clientId || form.get("client_secret") !== clientSecret) {
        return { status: 400, body: oauthError(400, "Invalid Client ID") };
      }
      const account = codes.get(form.get("code") ?? "");
      if (
        !account ||
        form.get("grant_type") !== "authorization_code" ||
        !form.get("redirect_uri")
      ) {
        return { status: 400, body: oauthError(400, "This authorization code has been used") };
      }
      codes.delete(form.get("code")!);
      const token = mint("IGQVJshort");
      shortTokens.set(token, account);
      const entry = {
        access_token: token,
        user_id: Number(account.userId),
        permissions: ["instagram_business_basic"],
      };
      return { status: 200, body: flatExchange ? entry : { data: [entry] } };
    }
    if (request.method === "GET" && request.path === "/access_token") {
      const account = shortTokens.get(request.query.get("access_token") ?? "");
      if (
        !account ||
        request.query.get("grant_type") !== "ig_exchange_token" ||
        request.query.get("client_secret") !== clientSecret
      ) {
        return { status: 400, body: graphError(400, "Invalid OAuth access token") };
      }
      const token = mint("IGQVJlong");
      longTokens.set(token, account);
      return {
        status: 200,
        body: { access_token: token, token_type: "bearer", expires_in: 5_184_000 },
      };
    }
    if (request.method === "GET" && request.path === "/refresh_access_token") {
      const old = request.query.get("access_token") ?? "";
      const account = longTokens.get(old);
      if (!account || request.query.get("grant_type") !== "ig_refresh_token") {
        return { status: 400, body: graphError(400, "Invalid OAuth access token") };
      }
      const token = mint("IGQVJlong");
      longTokens.set(token, account);
      return {
        status: 200,
        body: { access_token: token, token_type: "bearer", expires_in: 5_184_000 },
      };
    }
    if (request.method === "GET" && /^\/v\d+\.\d+\/me\/media$/.test(request.path)) {
      const account = longTokens.get(request.query.get("access_token") ?? "");
      if (!account) return { status: 400, body: graphError(400, "Invalid OAuth access token") };
      const limit = Number(request.query.get("limit") ?? 25);
      const media = [
        {
          id: "1801",
          media_type: "IMAGE",
          caption: `Rye day at ${account.username}`,
          media_url: `https://scontent.cdninstagram.com/v/${account.username}-1.jpg`,
          permalink: "https://www.instagram.com/p/AAA1/",
          timestamp: "2026-11-20T09:00:00+0000",
        },
        {
          id: "1802",
          media_type: "VIDEO",
          caption: null,
          media_url: "https://video.cdninstagram.com/v/2.mp4",
          thumbnail_url: `https://scontent.cdninstagram.com/v/${account.username}-2.jpg`,
          permalink: "https://www.instagram.com/p/AAA2/",
          timestamp: "2026-11-19T09:00:00+0000",
        },
        {
          id: "1803",
          media_type: "CAROUSEL_ALBUM",
          caption: "Three loaves",
          media_url: `https://scontent.cdninstagram.com/v/${account.username}-3.jpg`,
          permalink: "https://www.instagram.com/p/AAA3/",
          timestamp: "2026-11-18T09:00:00+0000",
        },
      ];
      return {
        status: 200,
        body: { data: media.slice(0, limit), paging: { cursors: { before: "b", after: "a" } } },
      };
    }
    const me = /^\/v\d+\.\d+\/me$/.exec(request.path);
    if (request.method === "GET" && me) {
      const account = longTokens.get(request.query.get("access_token") ?? "");
      if (!account) return { status: 400, body: graphError(400, "Invalid OAuth access token") };
      return {
        status: 200,
        body: {
          user_id: account.userId,
          username: account.username,
          name: account.name,
          profile_picture_url: account.picture,
          id: account.userId,
        },
      };
    }
    return { status: 404, body: graphError(404, "Unsupported request") };
  }

  const server = await startStandInServer({ handle, errorBody: graphError });
  let seq = 0;
  return {
    ...server,
    clientId,
    clientSecret,
    /** A code Instagram would send back for this account (with its trailing '#_'). */
    issueCode(username: string, name = "Stand-in Studio") {
      seq += 1;
      const code = `AQB${randomBytes(12).toString("hex")}`;
      codes.set(code, {
        userId: `17841400${String(seq).padStart(8, "0")}`,
        username,
        name,
        picture: `https://scontent.cdninstagram.com/v/${username}.jpg`,
      });
      return `${code}#_`;
    },
    /** Every token minted so far (short and long-lived). */
    tokens: () => [...shortTokens.keys(), ...longTokens.keys()],
    /** Answer the exchange with the flat object instead of `{data: [...]}`. */
    useFlatExchange(flat: boolean) {
      flatExchange = flat;
    },
    fail: (rule: FailureRule) => server.fail(rule),
  };
}
