import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import ipaddr from "ipaddr.js";
import { z } from "zod";

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** One TRUST_PROXY entry: express's named ranges, an address, or an address/prefix CIDR. */
function isProxyEntry(entry: string) {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, prefix, extra] = entry.split("/");
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY, as express's "trust proxy" setting takes it: a whole number is the count of proxy
 * hops in front of the app; otherwise the addresses/CIDRs (or named ranges) of trusted proxies.
 * null when the value is neither. Never `true`: it would let any client pick its own IP.
 */
export function parseTrustProxy(value: string): number | string[] | null {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(",").map((e) => e.trim());
  return entries.every(isProxyEntry) ? entries : null;
}

/** An address in one space for both families: IPv4 as its IPv4-mapped IPv6 (::ffff:a.b.c.d). */
function addressNumber(address: string): { value: bigint; bits: number } {
  const parsed = ipaddr.parse(address);
  const v6 = parsed.kind() === "ipv4" ? (parsed as ipaddr.IPv4).toIPv4MappedAddress() : parsed;
  const value = v6.toByteArray().reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n);
  return { value, bits: parsed.kind() === "ipv4" ? 32 : 128 };
}

const ALL_IPV4: [bigint, bigint] = [0xffffn << 32n, (0xffffn << 32n) | 0xffffffffn];
/** 2000::/3, every globally routed IPv6 address. */
const GLOBAL_IPV6: [bigint, bigint] = [0x2000n << 112n, (0x4000n << 112n) - 1n];

/**
 * Whether TRUST_PROXY's addresses and ranges, together, trust every client of a family: all of
 * IPv4 (0.0.0.0/0, ::ffff:0:0/96, or halves adding up to it) or every routed IPv6 address
 * (::/0, 2000::/3, ...). express's proxy-addr compares IPv4 with IPv4-mapped IPv6 ranges and back,
 * so both are read in one space. A hop count and the named ranges never do.
 */
export function trustsEveryone(trust: number | string[]): boolean {
  if (typeof trust === "number") return false;
  const ranges: [bigint, bigint][] = [];
  for (const entry of trust) {
    if (PROXY_NAMES.has(entry)) continue;
    const [address, prefix] = entry.split("/");
    const { value, bits } = addressNumber(address);
    const width = prefix === undefined ? 0 : bits - Number(prefix);
    const size = 1n << BigInt(width);
    const start = value - (value % size);
    ranges.push([start, start + size - 1n]);
  }
  ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const covers = ([from, to]: [bigint, bigint]) => {
    let next = from;
    for (const [start, end] of ranges) {
      if (start > next) break;
      if (end >= next) next = end + 1n;
      if (next > to) return true;
    }
    return false;
  };
  return covers(ALL_IPV4) || covers(GLOBAL_IPV6);
}

const KEY_LIST_MESSAGE = "comma-separated keys of at least 16 characters each";

/** A comma-separated list of keys (empty entries ignored); null when one is under 16 characters. */
export function parseKeyList(value: string): string[] | null {
  const keys = value
    .split(",")
    .map((key) => key.trim())
    .filter(Boolean);
  return keys.every((key) => key.length >= 16) ? keys : null;
}

/**
 * The environment (docs/configuration.md; scripts outside the repository rely on it), parsed
 * once. Everything is optional for a local run; secrets missing locally are generated once into
 * DATA_DIR so restarts keep sessions and encrypted data readable.
 */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_URL: z.url().optional(),
  DATABASE_URL: z.string().startsWith("postgres").optional(),
  /**
   * The schema owner's URL: when set, `npm start` applies migrations and creates the job queue's
   * schema and queues through it, and everything else runs as DATABASE_URL's role, which then
   * needs to own nothing (docs/operations.md, "A runtime role that owns nothing").
   */
  MIGRATIONS_DATABASE_URL: z.string().startsWith("postgres").optional(),
  DATA_DIR: z.string().default("./data"),
  SESSION_SECRET: z.string().min(16).optional(),
  ENCRYPTION_KEY: z.string().min(16).optional(),
  /**
   * Earlier ENCRYPTION_KEYs, comma-separated: values stored under them stay readable (decryption
   * only; new values are always encrypted under ENCRYPTION_KEY) until `npm run rotate-key`
   * re-encrypts them (docs/decisions/021-key-rotation.md).
   */
  ENCRYPTION_KEY_PREVIOUS: z
    .string()
    .default("")
    .transform((value, ctx) => {
      const keys = parseKeyList(value);
      if (keys !== null) return keys;
      ctx.addIssue({ code: "custom", message: KEY_LIST_MESSAGE });
      return z.NEVER;
    }),
  PLATFORM_ADMIN_EMAILS: z.string().default(""),
  SMTP_URL: z.string().startsWith("smtp").optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /**
   * `true`: an ID token without an `email_verified` claim counts as a verified address (for
   * providers that only issue verified addresses and omit the claim). Otherwise it is refused.
   */
  OIDC_TRUST_EMAIL: z
    .enum(["true", "false", ""])
    .default("false")
    .transform((value) => value === "true"),
  PROVIDERS: z.enum(["local", "live"]).default("local"),
  /**
   * `1`: an https APP_URL on a public host may run without SMTP_URL (mail and its live links go
   * to the server log) or with PROVIDERS=local (stand-ins); otherwise startRefusal refuses it.
   */
  ALLOW_LOG_MAIL: z
    .enum(["0", "1"], { error: "1 or 0" })
    .default("0")
    .transform((value) => value === "1"),
  ALLOW_LOCAL_PROVIDERS: z
    .enum(["0", "1"], { error: "1 or 0" })
    .default("0")
    .transform((value) => value === "1"),
  /**
   * `1`: TRUST_PROXY may trust every address (0.0.0.0/0, ::/0 and the like), for a network where
   * only your own proxies reach the app; otherwise startRefusal refuses it.
   */
  ALLOW_ANY_PROXY: z
    .enum(["0", "1"], { error: "1 or 0" })
    .default("0")
    .transform((value) => value === "1"),
  /**
   * `1`: webhooks may be http and reach loopback, private, link-local and metadata addresses
   * (a receiver on this machine while developing; the tests). Refused on a public https APP_URL.
   */
  WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: z
    .enum(["0", "1"], { error: "1 or 0" })
    .default("0")
    .transform((value) => value === "1"),
  /** Which proxies' X-Forwarded-For to believe (client IPs for rate limits): parseTrustProxy. */
  TRUST_PROXY: z
    .string()
    .default("loopback")
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (parsed !== null) return parsed;
      ctx.addIssue({
        code: "custom",
        message:
          "a hop count, or comma-separated addresses/CIDRs, loopback, linklocal, uniquelocal",
      });
      return z.NEVER;
    }),
  /** SIGTERM: how long in-flight requests and running jobs may take to finish (server/index.mjs). */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(1).max(600).default(25),
  /**
   * SIGTERM: how long a process that a load balancer watches (it has been asked /readyz) keeps
   * accepting connections while answering /readyz with 503, so the balancer stops sending first.
   */
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(120).default(5),
  AUTO_DEPLOY_AFTER_MINUTES: z.coerce.number().min(0).default(15),
  /** Local providers: share of deployments that fail (0..1), for demos and tests. */
  LOCAL_DEPLOY_FAILURE_RATE: z.coerce.number().min(0).max(1).default(0),
  /** Local providers: seconds between deployment states (queued -> building -> ready). */
  LOCAL_DEPLOY_STEP_SECONDS: z.coerce.number().min(0).max(600).default(3),
  /** Local providers: seconds after which a custom domain counts as verified (DNS and SSL). */
  LOCAL_DOMAIN_VERIFY_SECONDS: z.coerce.number().min(0).max(600).default(5),
  // PROVIDERS=live credentials; *_API_URL overrides the vendor's base URL (tests, proxies).
  SANITY_AUTH_TOKEN: z.string().optional(),
  SANITY_ORGANIZATION_ID: z.string().optional(),
  SANITY_API_URL: z.url().optional(),
  SANITY_STUDIO_HOST: z.string().optional(),
  NETLIFY_AUTH_TOKEN: z.string().optional(),
  NETLIFY_ACCOUNT_SLUG: z.string().optional(),
  NETLIFY_API_URL: z.url().optional(),
  VERCEL_TOKEN: z.string().optional(),
  VERCEL_TEAM_ID: z.string().optional(),
  VERCEL_API_URL: z.url().optional(),
  /** End To End Tests: reads the site repositories' GitHub Actions runs (public repos need none). */
  GITHUB_TOKEN: z.string().optional(),
  GITHUB_API_URL: z.url().optional(),
  /** PROVIDERS=live: Stripe's API base (https://api.stripe.com); a stand-in or proxy in tests. */
  STRIPE_API_URL: z.url().optional(),
  /** Stripe Connect ('Connect with Stripe'): the platform's secret key and client id (ca_...). */
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_CONNECT_CLIENT_ID: z.string().optional(),
  STRIPE_CONNECT_AUTHORIZE_URL: z.url().default("https://connect.stripe.com/oauth/authorize"),
  /** Instagram API with Instagram Login: the app's id and secret; the URLs for stand-ins. */
  INSTAGRAM_CLIENT_ID: z.string().optional(),
  INSTAGRAM_CLIENT_SECRET: z.string().optional(),
  INSTAGRAM_AUTHORIZE_URL: z.url().default("https://www.instagram.com/oauth/authorize"),
  INSTAGRAM_API_URL: z.url().default("https://api.instagram.com"),
  INSTAGRAM_GRAPH_URL: z.url().default("https://graph.instagram.com"),
  /** Newsletter sender domains (Resend): the API key; the base URL for stand-ins and proxies. */
  RESEND_API_KEY: z.string().optional(),
  RESEND_BASE_URL: z.url().optional(),
  /** The template repository new sites build from (live providers). */
  SITE_TEMPLATE_REPO: z.string().optional(),
  /**
   * The site template's schema version: every new project is recorded at it. Unset, the projects
   * service uses the highest version the dashboard knows (LATEST_SCHEMA_VERSION); projects
   * recorded without one count as version 1.
   */
  SITE_SCHEMA_VERSION: z.coerce.number().int().min(1).max(1000).optional(),
  /**
   * The bearer token Prometheus scrapes GET /metrics with; unset, there is no /metrics (404).
   * At least 16 characters: it guards what the server's numbers say about its use.
   */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** "off" disables the rate limits: for benchmark scripts only (README); tests keep them on. */
  RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /** `1`: RATE_LIMITS=off may run on a public https APP_URL; otherwise startRefusal refuses it. */
  ALLOW_RATE_LIMITS_OFF: z
    .enum(["0", "1"], { error: "1 or 0" })
    .default("0")
    .transform((value) => value === "1"),
  /**
   * Platform admins must have a second factor before /admin and support access open: "on" or
   * "off". Unset: on when APP_URL is https on a public host, off for a local run
   * (docs/decisions/042-second-factor-required.md).
   */
  REQUIRE_ADMIN_SECOND_FACTOR: z.enum(["on", "off"]).optional(),
  /**
   * How long a proof of holding the account counts before the irreversible, in seconds: at most
   * 600 (10 minutes, the default); shorter only for a test server (app/web/proof.server.ts).
   */
  PROOF_MAX_AGE_SECONDS: z.coerce.number().int().min(1).max(600).default(600),
});

/** The variables the schema reads: .env.example and docs/configuration.md list each of them. */
export const ENV_NAMES = Object.keys(schema.shape);

export type Env = z.infer<typeof schema> & {
  APP_URL: string;
  SESSION_SECRET: string;
  ENCRYPTION_KEY: string;
  /** Keys that decrypt older values: ENCRYPTION_KEY_PREVIOUS, then the secrets file's own. */
  ENCRYPTION_KEY_PREVIOUS: string[];
  /** Where ENCRYPTION_KEY came from: the environment, or DATA_DIR/secrets.json (generated). */
  encryptionKeyFrom: "env" | "file";
  adminEmails: Set<string>;
  secureCookies: boolean;
  /** REQUIRE_ADMIN_SECOND_FACTOR, its default applied. */
  requireAdminSecondFactor: boolean;
};

function emptyToUndefined(source: NodeJS.ProcessEnv) {
  return Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
}

type LocalSecrets = {
  SESSION_SECRET: string;
  ENCRYPTION_KEY: string;
  /** Keys this file held before `npm run rotate-key` replaced them, newest first. */
  ENCRYPTION_KEY_PREVIOUS?: string[];
};

/** DATA_DIR/secrets.json: the secrets a local run generates once (mode 0600). */
export function localSecretsFile(dataDir: string) {
  return path.join(dataDir, "secrets.json");
}

function readLocalSecrets(file: string): LocalSecrets {
  const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as LocalSecrets;
  const previous = parsed.ENCRYPTION_KEY_PREVIOUS ?? [];
  if (
    typeof parsed.SESSION_SECRET !== "string" ||
    typeof parsed.ENCRYPTION_KEY !== "string" ||
    !Array.isArray(previous) ||
    !previous.every((key) => typeof key === "string" && key.length >= 16)
  ) {
    throw new Error(
      `${file}: expected SESSION_SECRET, ENCRYPTION_KEY and ENCRYPTION_KEY_PREVIOUS (a list of keys)`,
    );
  }
  return { ...parsed, ENCRYPTION_KEY_PREVIOUS: previous };
}

function localSecrets(dataDir: string): LocalSecrets {
  const file = localSecretsFile(dataDir);
  if (fs.existsSync(file)) return readLocalSecrets(file);
  fs.mkdirSync(dataDir, { recursive: true });
  const secrets = {
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64url"),
  };
  // wx: if two processes race, the loser re-reads the winner's file.
  try {
    fs.writeFileSync(file, JSON.stringify(secrets), { flag: "wx", mode: 0o600 });
    return secrets;
  } catch {
    return readLocalSecrets(file);
  }
}

/**
 * `npm run rotate-key` on a local run: a new ENCRYPTION_KEY in DATA_DIR/secrets.json, the one it
 * replaces kept first among the previous keys (so values under it stay readable). Written to a
 * temporary file and renamed over the old one: a reader sees the old file or the new, never half.
 * Returns the new file's contents.
 */
export function rotateLocalEncryptionKey(dataDir: string): LocalSecrets {
  const file = localSecretsFile(dataDir);
  const old = localSecrets(dataDir);
  const next: LocalSecrets = {
    ...old,
    ENCRYPTION_KEY: randomBytes(32).toString("base64url"),
    ENCRYPTION_KEY_PREVIOUS: [old.ENCRYPTION_KEY, ...(old.ENCRYPTION_KEY_PREVIOUS ?? [])],
  };
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(next), { flag: "w", mode: 0o600 });
  fs.renameSync(temporary, file);
  return next;
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = schema.safeParse(emptyToUndefined(source));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  if (env.NODE_ENV === "production" && !source.STACKSHIFT_IMPLIED_NODE_ENV && env.DATABASE_URL) {
    if (!env.SESSION_SECRET || !env.ENCRYPTION_KEY) {
      throw new Error(
        "SESSION_SECRET and ENCRYPTION_KEY are required when NODE_ENV=production and DATABASE_URL is set",
      );
    }
  }
  if (env.MIGRATIONS_DATABASE_URL && !env.DATABASE_URL) {
    throw new Error(
      "MIGRATIONS_DATABASE_URL is set but DATABASE_URL is not: the embedded database has one role; " +
        "set DATABASE_URL to the runtime role's URL, or unset MIGRATIONS_DATABASE_URL",
    );
  }
  // Each secret that is configured wins on its own; only the missing ones come from DATA_DIR.
  const local = env.SESSION_SECRET && env.ENCRYPTION_KEY ? undefined : localSecrets(env.DATA_DIR);
  const ENCRYPTION_KEY = env.ENCRYPTION_KEY ?? local!.ENCRYPTION_KEY;
  const previous = [
    ...env.ENCRYPTION_KEY_PREVIOUS,
    // The file's previous keys belong to the file's key (`npm run rotate-key` on a local run).
    ...(env.ENCRYPTION_KEY ? [] : (local!.ENCRYPTION_KEY_PREVIOUS ?? [])),
  ];
  const secrets = {
    SESSION_SECRET: env.SESSION_SECRET ?? local!.SESSION_SECRET,
    ENCRYPTION_KEY,
    ENCRYPTION_KEY_PREVIOUS: [...new Set(previous)].filter((key) => key !== ENCRYPTION_KEY),
    encryptionKeyFrom: env.ENCRYPTION_KEY ? ("env" as const) : ("file" as const),
  };
  const APP_URL = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  return {
    ...env,
    ...secrets,
    APP_URL,
    adminEmails: new Set(
      env.PLATFORM_ADMIN_EMAILS.split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
    secureCookies: APP_URL.startsWith("https://"),
    requireAdminSecondFactor: env.REQUIRE_ADMIN_SECOND_FACTOR
      ? env.REQUIRE_ADMIN_SECOND_FACTOR === "on"
      : isPublicHttps(APP_URL),
  };
}

/** Thrown by the server's boot when startRefusal refuses: its message is all an operator needs. */
export class StartRefusedError extends Error {
  name = "StartRefusedError";
}

/** Hosts whose https APP_URL is still a local run (a developer's TLS proxy, a test). */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** An https APP_URL on a host other than the loopback ones: a deployment. */
export function isPublicHttps(appUrl: string) {
  const url = new URL(appUrl);
  return url.protocol === "https:" && !LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * Why the server must not start with this configuration, or null.
 *
 * TRUST_PROXY trusting every address lets any client write its own address into
 * X-Forwarded-For, so no rate limit holds: refused everywhere unless ALLOW_ANY_PROXY=1.
 *
 * An https APP_URL on a public host is a deployment: without SMTP_URL every mail, with its live
 * sign-up, reset and invitation link, would go to the server log; with PROVIDERS=local visitors
 * would get stand-ins for sites and studios. Either is refused unless ALLOW_LOG_MAIL=1 /
 * ALLOW_LOCAL_PROVIDERS=1 says it is meant. `npm start` with no environment (http://localhost)
 * is never refused (the two commands in the README). RATE_LIMITS=off (benchmarks) is refused on
 * such an address too, unless ALLOW_RATE_LIMITS_OFF=1.
 */
export function startRefusal(
  config: Pick<
    Env,
    | "APP_URL"
    | "SMTP_URL"
    | "PROVIDERS"
    | "ALLOW_LOG_MAIL"
    | "ALLOW_LOCAL_PROVIDERS"
    | "TRUST_PROXY"
    | "ALLOW_ANY_PROXY"
    | "RATE_LIMITS"
    | "ALLOW_RATE_LIMITS_OFF"
    | "WEBHOOKS_ALLOW_PRIVATE_ADDRESSES"
  >,
): string | null {
  const reasons: string[] = [];
  if (trustsEveryone(config.TRUST_PROXY) && !config.ALLOW_ANY_PROXY) {
    reasons.push(
      `TRUST_PROXY=${(config.TRUST_PROXY as string[]).join(",")} trusts every address: any ` +
        "client could name its own address in X-Forwarded-For and so escape every rate limit. " +
        "List only your proxies' addresses or ranges (or their hop count), or set " +
        "ALLOW_ANY_PROXY=1 if nothing but your own proxies can reach the app.",
    );
  }
  const url = new URL(config.APP_URL);
  const publicHttps = url.protocol === "https:" && !LOOPBACK_HOSTS.has(url.hostname);
  if (publicHttps && !config.SMTP_URL && !config.ALLOW_LOG_MAIL) {
    reasons.push(
      `APP_URL is ${config.APP_URL}, a public address, but SMTP_URL is not set: every mail ` +
        "(sign-up confirmations, password resets, invitations) would be written to the server " +
        "log with its live link, for anyone who reads the log to use. Set SMTP_URL to your mail " +
        "server (smtp://user:password@host:port), or set ALLOW_LOG_MAIL=1 if mail in the log is " +
        "what you mean (a demonstration nobody else signs up on).",
    );
  }
  if (publicHttps && config.PROVIDERS === "local" && !config.ALLOW_LOCAL_PROVIDERS) {
    reasons.push(
      `APP_URL is ${config.APP_URL}, a public address, but PROVIDERS is local: new projects ` +
        "would get the built-in stand-ins instead of real sites and content studios. Set " +
        "PROVIDERS=live with the vendors' credentials (.env.example), or set " +
        "ALLOW_LOCAL_PROVIDERS=1 if stand-ins are what you mean (a demonstration).",
    );
  }
  if (publicHttps && config.RATE_LIMITS === "off" && !config.ALLOW_RATE_LIMITS_OFF) {
    reasons.push(
      `APP_URL is ${config.APP_URL}, a public address, but RATE_LIMITS is off: passwords, ` +
        "codes and sign-up, reset and invitation mails could be tried without end. RATE_LIMITS=off " +
        "is for benchmarks on a local address: unset it, or set ALLOW_RATE_LIMITS_OFF=1 if a " +
        "benchmark on this address is what you mean.",
    );
  }
  if (publicHttps && config.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES) {
    reasons.push(
      `APP_URL is ${config.APP_URL}, a public address, but WEBHOOKS_ALLOW_PRIVATE_ADDRESSES is ` +
        "1: anyone who may add a webhook could make this server send requests into its own " +
        "network (databases, cloud metadata at 169.254.169.254). It is for development only: " +
        "unset it.",
    );
  }
  return reasons.length > 0 ? reasons.join("\n\n") : null;
}

let cached: Env | undefined;
/** The process environment, parsed on first use. Tests may call resetEnv() after changing it. */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
export function resetEnv() {
  cached = undefined;
}
