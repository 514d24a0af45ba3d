/**
 * The database, one table per entity of the product (users, access requests, projects, members,
 * event logs, ...). Column names are snake_case in SQL and camelCase here; the services rename
 * them to the JSON API's field names (e.g. `_id`).
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** Always stored lowercased; the unique index relies on it. */
    email: text("email").notNull(),
    /** Null for accounts that only ever signed in through single sign-on. */
    passwordHash: text("password_hash"),
    oidcSubject: text("oidc_subject"),
    /**
     * When the person proved they read mail at `email` (a mailed link, or single sign-on that
     * vouches for it). Accounts are created only with a proof, so this is set on every new row;
     * sign-in and platform-admin rights require it.
     */
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    hideStudioSplash: boolean("hide_studio_splash").notNull().default(false),
    /**
     * Since when the account has a second factor of ours (an authenticator app or a passkey);
     * null without one. Kept with the factors' rows in one transaction (app/services/two-factor/),
     * so "has a second factor" is read with the account, not counted per request.
     */
    twoFactorSince: timestamp("two_factor_since", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    uniqueIndex("users_oidc_subject_key").on(t.oidcSubject),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    /** sha256 (hex) of the session id the cookie carries: a dump or backup holds no live session. */
    id: text("id").primaryKey(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    /** The identity provider's id token, kept for the end-session `id_token_hint`. */
    idToken: text("id_token"),
    /** Absolute end of the session, however active it is. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Last request seen with this session (written at most every few minutes): the idle timeout. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/**
 * An account's authenticator app (TOTP, RFC 6238): one per account. The shared secret is
 * encrypted at rest like other secrets (AES-256-GCM under ENCRYPTION_KEY, key rotation included).
 * `lastStep` is the newest 30-second step a code was accepted for: a code (or an older one) is
 * never accepted twice. app/services/two-factor/; docs/decisions/038-second-factors.md.
 */
export const totpFactors = pgTable("totp_factors", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  lastStep: integer("last_step").notNull().default(0),
  createdAt: createdAt(),
});

/** Single-use recovery codes (ten per set, only their sha256 kept); a new set replaces the old. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("recovery_codes_user_idx").on(t.userId),
    uniqueIndex("recovery_codes_hash_key").on(t.userId, t.codeHash),
  ],
);

/**
 * Passkeys (WebAuthn credentials): a second factor after the password, and a sign-in of their
 * own (discoverable credentials). Public keys only; `counter` is the authenticator's signature
 * counter (0 for those that keep none).
 */
export const passkeys = pgTable(
  "passkeys",
  {
    /** The credential id, base64url. */
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    transports: text("transports").array(),
    /** singleDevice or multiDevice (synced), as the authenticator says. */
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

/**
 * Mailed links that finish one password sign-in once the account's failure ceiling is reached
 * (docs/decisions/041-a-ceiling-per-account.md): the password was right, from a browser the
 * account has not signed in from, and the link proves the mailbox too. Only the sha256 is kept.
 */
export const signInLinks = pgTable(
  "sign_in_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    redirectTo: text("redirect_to").notNull().default("/"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("sign_in_links_user_idx").on(t.userId)],
);

export const passwordResets = pgTable("password_resets", {
  /** sha256 of the token mailed to the user; the token itself is never stored. */
  tokenHash: text("token_hash").primaryKey(),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Signups waiting for their address to be confirmed. No account exists until the mailed link is
 * opened, so a stranger who signs up with someone else's address gets nothing, and the owner's own
 * signup is never blocked by it.
 */
export const emailVerifications = pgTable(
  "email_verifications",
  {
    /** sha256 of the token mailed to the address; the token itself is never stored. */
    tokenHash: text("token_hash").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    /** Where the person goes once the account exists (a same-origin path). */
    redirectTo: text("redirect_to").notNull().default("/"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("email_verifications_email_idx").on(t.email, t.createdAt)],
);

export const requestStatus = pgEnum("request_status", ["Pending", "Rejected", "Approved"]);

export const accessRequests = pgTable(
  "access_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fullName: text("full_name").notNull(),
    businessEmail: text("business_email").notNull(),
    companyName: text("company_name"),
    websiteAddress: text("website_address"),
    telephoneNumber: text("telephone_number"),
    numberOfEmployees: text("number_of_employees"),
    additionalInfo: text("additional_info"),
    requestStatus: requestStatus("request_status").notNull().default("Pending"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("access_requests_created_idx").on(t.createdAt, t.id),
    index("access_requests_email_idx").on(sql`lower(${t.businessEmail})`),
    // At most one pending request per e-mail, whatever the application does.
    uniqueIndex("access_requests_one_pending_key")
      .on(sql`lower(${t.businessEmail})`)
      .where(sql`${t.requestStatus} = 'Pending'`),
  ],
);

export const creationStatus = pgEnum("creation_status", [
  "pending",
  "created",
  "deployed",
  "success",
  "failed",
]);
export const siteType = pgEnum("site_type", ["business", "enterprise"]);
export const hostingProvider = pgEnum("hosting_provider", ["netlify", "vercel"]);

/** Hosting details as the providers report them; the JSON API's `studioDetails` / `siteDetails`. */
export type HostingDetails = {
  state?: string;
  ssl?: boolean;
  published_deploy?: { id?: string; published_at?: string } | null;
  custom_domain?: string | null;
  domain_aliases?: string[];
  build_settings?: { repo_url?: string };
  targets?: { production?: { readyState?: string; alias?: string[] } };
};

/** The site repository's URL, lowercased, as the repository lookup and its index spell it. */
export const siteRepoUrl = (column: AnyPgColumn) =>
  sql<string>`lower((${column} -> 'build_settings' ->> 'repo_url'))`;

export const projects = pgTable(
  "projects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studioId: text("studio_id").notNull(),
    name: text("name").notNull(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    idempotencyKey: text("idempotency_key").notNull(),
    siteType: siteType("site_type").notNull().default("business"),
    siteCustomDomain: text("site_custom_domain"),
    siteUrl: text("site_url"),
    studioCustomDomain: text("studio_custom_domain"),
    studioUrl: text("studio_url"),
    studioSanityId: text("studio_sanity_id"),
    siteId: text("site_id"),
    studioCreationStatus: creationStatus("studio_creation_status").notNull().default("pending"),
    siteCreationStatus: creationStatus("site_creation_status").notNull().default("pending"),
    studioDetails: jsonb("studio_details").$type<HostingDetails>(),
    siteDetails: jsonb("site_details").$type<HostingDetails>(),
    isSiteOnVercel: boolean("is_site_on_vercel").notNull().default(false),
    schemaVersion: integer("schema_version").notNull().default(1),
    version: text("version"),
    stackshiftVersion: text("stackshift_version"),
    inviteToProjectAccepted: boolean("invite_to_project_accepted").notNull().default(false),
    studioAndSitePreviewToken: text("studio_and_site_preview_token"),
    isWStudioV2: boolean("is_w_studio_v2").notNull().default(false),
    publishForgeSiteUrl: text("publish_forge_site_url"),
    isCStudioEnabled: boolean("is_c_studio_enabled").notNull().default(false),
    isAINewsletterEnabled: boolean("is_ai_newsletter_enabled").notNull().default(false),
    isSocialMediaEnabled: boolean("is_social_media_enabled").notNull().default(false),
    isGPT3Enabled: boolean("is_gpt3_enabled").notNull().default(false),
    isVisualTestsEnabled: boolean("is_visual_tests_enabled").notNull().default(false),
    isEndToEndTestsEnabled: boolean("is_end_to_end_tests_enabled").notNull().default(false),
    /** The owner requires every member to have a second factor (app/services/two-factor/). */
    requireTwoFactor: boolean("require_two_factor").notNull().default(false),
    /** Encrypted at rest with app/utils/secrets.server.ts (AES-256-GCM under ENCRYPTION_KEY). */
    chromaticProjectToken: text("chromatic_project_token"),
    netlifyAccountId: text("netlify_account_id"),
    deployRetryCount: integer("deploy_retry_count").notNull().default(0),
    /** Set once, atomically, when the automatic deployment fires: it fires once per project. */
    autoDeployedAt: timestamp("auto_deployed_at", { withTimezone: true }),
    /** After 3 failed retries the deployment is classed 'Deployment Error' and handled manually. */
    permanentErrorAt: timestamp("permanent_error_at", { withTimezone: true }),
    lastProvisionError: text("last_provision_error"),
    /**
     * The public id the site's analytics script sends with each page view (never the studio id:
     * it names the project nowhere and reveals nothing when read from a site's HTML).
     */
    analyticsKey: text("analytics_key")
      .notNull()
      .default(sql`replace(gen_random_uuid()::text, '-', '')`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("projects_studio_id_key").on(t.studioId),
    uniqueIndex("projects_analytics_key").on(t.analyticsKey),
    // Creation is idempotent per owner: the same key twice, even concurrently, yields one row.
    uniqueIndex("projects_owner_idempotency_key").on(t.ownerId, t.idempotencyKey),
    // Keyset pagination of the project list: newest first, id breaks ties.
    index("projects_created_idx").on(t.createdAt, t.id),
    // A user's own projects newest first (the owned half of the project list's union).
    index("projects_owner_created_idx").on(t.ownerId, t.createdAt, t.id),
    // The name search (`lower(name) like '%q%'`): trigrams let any substring of 3+ characters use
    // an index instead of reading every row (pg_trgm, created by the migration; PGlite loads it).
    index("projects_name_trgm_idx").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
    // GET /api/app/e2e-test-runs?repo=: the projects whose site builds from a repository.
    index("projects_site_repo_idx").on(siteRepoUrl(t.siteDetails)),
  ],
);

export const domainStatus = pgEnum("domain_status", ["pending", "verified"]);

/** A DNS record for a custom domain: apex A / ALIAS, `www` CNAME, or a verification TXT. */
export type DomainDnsRecord = { type: string; name: string; value: string };

export const projectSites = pgTable(
  "project_sites",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    provider: hostingProvider("provider").notNull(),
    siteId: text("site_id"),
    url: text("url"),
    /** Lowercase ASCII (punycode); unique across all sites (a domain points at one site). */
    customDomain: text("custom_domain"),
    /** pending until the hosting provider sees the DNS records; null without a domain. */
    domainStatus: domainStatus("domain_status"),
    domainSsl: boolean("domain_ssl").notNull().default(false),
    /** The records to create at the registrar, as the provider last reported them. */
    domainRecords: jsonb("domain_records").$type<DomainDnsRecord[]>().notNull().default([]),
    /** Set when the domain was set: the re-check job gives up 72 hours later. */
    domainSetAt: timestamp("domain_set_at", { withTimezone: true }),
    domainCheckedAt: timestamp("domain_checked_at", { withTimezone: true }),
    domainVerifiedAt: timestamp("domain_verified_at", { withTimezone: true }),
    /** The provider's last answer when it refused or failed (shown beside the pending status). */
    domainError: text("domain_error"),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.provider] }),
    uniqueIndex("project_sites_custom_domain_key").on(t.customDomain),
  ],
);

/**
 * A Stripe account a project's forms take payments with, added by pasting its keys. The secret
 * key is stored encrypted (app/utils/secrets.server.ts: the ciphertext names its key id) and never
 * leaves the server; `secretKeyLast4` is what the dashboard shows of it.
 */
export const paymentAccounts = pgTable(
  "payment_accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    accountName: text("account_name").notNull(),
    publishableKey: text("publishable_key").notNull(),
    secretKeyEncrypted: text("secret_key_encrypted").notNull(),
    secretKeyLast4: text("secret_key_last4").notNull(),
    apiVersion: text("api_version").notNull(),
    /** Stripe's account id (acct_...) when the account was connected through Stripe Connect. */
    connectedAccountId: text("connected_account_id"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("payment_accounts_project_idx").on(t.projectId, t.createdAt),
    // One account per publishable key in a project: adding it again is refused, not doubled.
    uniqueIndex("payment_accounts_project_pk_key").on(t.projectId, t.publishableKey),
  ],
);

/**
 * An Instagram (professional) account linked to a project, whose public feed the site shows. The
 * access token is stored encrypted like other secrets; one account per user name across all
 * projects (a second link of it is a 409).
 */
export const socialAccounts = pgTable(
  "social_accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    platform: text("platform").notNull(),
    /** The platform's id of the account. */
    providerUserId: text("provider_user_id").notNull(),
    userName: text("user_name").notNull(),
    profileName: text("profile_name"),
    profilePictureUrl: text("profile_picture_url"),
    accessTokenEncrypted: text("access_token_encrypted").notNull(),
    tokenExpiresAt: timestamp("token_expires_at", { withTimezone: true }).notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    /** 'Last updated': the last link, refresh of the profile or of the token. */
    updatedAt: updatedAt(),
  },
  (t) => [
    index("social_accounts_project_idx").on(t.projectId, t.createdAt),
    uniqueIndex("social_accounts_platform_user_key").on(t.platform, sql`lower(${t.userName})`),
    index("social_accounts_token_expiry_idx").on(t.tokenExpiresAt),
  ],
);

/**
 * One authorization round trip in flight (Instagram or Stripe Connect): the `state` sent to the
 * provider is `{studioId}.{nonce}`; only the nonce's hash is kept, with the project, the user and
 * the session it was started from. Used once, within ten minutes.
 */
export const oauthLinkStates = pgTable(
  "oauth_link_states",
  {
    nonceHash: text("nonce_hash").primaryKey(),
    provider: text("provider").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionHash: text("session_hash").notNull(),
    /** popup: the return page reports to its opener; tab: it redirects back (no JavaScript). */
    mode: text("mode").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set while one request exchanges the code, so two cannot. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("oauth_link_states_expires_idx").on(t.expiresAt)],
);

export const memberRole = pgEnum("member_role", ["editor", "developer", "admin"]);
export const memberStatus = pgEnum("member_status", ["invited", "accepted"]);

export const members = pgTable(
  "members",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Lowercased. */
    invitedEmail: text("invited_email").notNull(),
    role: memberRole("role").notNull().default("editor"),
    status: memberStatus("status").notNull().default("invited"),
    invitationKey: text("invitation_key"),
    invitationExpiresAt: timestamp("invitation_expires_at", { withTimezone: true }),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("members_project_email_key").on(t.projectId, t.invitedEmail),
    uniqueIndex("members_invitation_key").on(t.invitationKey),
    index("members_user_idx").on(t.userId),
    index("members_email_idx").on(t.invitedEmail),
  ],
);

export const eventLogs = pgTable(
  "event_logs",
  {
    key: uuid("key").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    content: text("content").notNull(),
    label: text("label"),
    metadata: jsonb("metadata").$type<{ role?: string; email?: string }>().notNull().default({}),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    timestamp: timestamp("timestamp", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("event_logs_project_idx").on(t.projectId, t.timestamp),
    // Support access views: at most one entry per project, platform admin and UTC hour
    // (permissions.server.ts recordSupportAccess inserts with ON CONFLICT DO NOTHING).
    uniqueIndex("event_logs_support_view_hour_idx")
      .on(t.projectId, t.actorId, sql`date_trunc('hour', ${t.timestamp} at time zone 'UTC')`)
      .where(sql`${t.type} = 'support.viewed'`),
  ],
);

/** Every outgoing e-mail, sent or kept. Without SMTP_URL this table is the local outbox. */
export const outbox = pgTable(
  "outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    /**
     * Secret parts of the text (tokens in links), replaced by a placeholder once the mail is
     * delivered, so the stored copy never holds a usable link.
     */
    secrets: jsonb("secrets").$type<string[]>().notNull().default([]),
    /**
     * Extra headers of the message (List-Unsubscribe and List-Unsubscribe-Post of notification
     * mails, RFC 8058). Their secrets are removed on delivery like the text's.
     */
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    status: text("status", { enum: ["queued", "sent", "kept", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("outbox_created_idx").on(t.createdAt)],
);

/**
 * rate-limiter-flexible's store (RateLimiterDrizzle): one row per counted key, shared by every app
 * instance on the database. Expired rows are purged by the accounts.purge job.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    points: integer("points").notNull().default(0),
    expire: timestamp("expire", { withTimezone: true }),
  },
  (t) => [index("rate_limits_expire_idx").on(t.expire)],
);

/*
 * State of the built-in local providers (PROVIDERS=local): they behave like the vendors, with
 * their data here. Nothing in app/services reads these tables; only app/providers/<kind>/local.server.ts.
 */
export const localStudios = pgTable("local_studios", {
  id: text("id").primaryKey(),
  displayName: text("display_name").notNull(),
  /** The caller's idempotency key: creating twice with one key returns the same studio. */
  idempotencyKey: text("idempotency_key").notNull().unique(),
  datasets: jsonb("datasets").$type<string[]>().notNull().default([]),
  corsOrigins: jsonb("cors_origins").$type<string[]>().notNull().default([]),
  /** Studio features switched on by add-ons (setFeatureFlag), by flag name. */
  features: jsonb("features").$type<Record<string, boolean>>().notNull().default({}),
  createdAt: createdAt(),
});

export const localStudioInvites = pgTable(
  "local_studio_invites",
  {
    id: text("id").primaryKey(),
    studioId: text("studio_id")
      .notNull()
      .references(() => localStudios.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").notNull(),
    status: text("status", { enum: ["pending", "accepted", "revoked"] })
      .notNull()
      .default("pending"),
    sentCount: integer("sent_count").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("local_studio_invites_email_key").on(t.studioId, t.email)],
);

/**
 * The local studio's API (robot) tokens, as an administrator makes them on its page: the key is
 * shown once and only its sha256 kept. Like the vendor's tokens list, nothing here says who made
 * a token (docs/decisions/025-studio-member-sync.md, amendment of 2026-11-27).
 */
export const localStudioTokens = pgTable(
  "local_studio_tokens",
  {
    id: text("id").primaryKey(),
    studioId: text("studio_id")
      .notNull()
      .references(() => localStudios.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    role: text("role").notNull(),
    /** sha256 (hex) of the key. */
    keyHash: text("key_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("local_studio_tokens_studio_idx").on(t.studioId, t.createdAt)],
);

export const localSites = pgTable(
  "local_sites",
  {
    id: text("id").primaryKey(),
    provider: hostingProvider("provider").notNull(),
    name: text("name").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    customDomain: text("custom_domain"),
    /** When custom_domain was set: the local provider verifies it a few seconds later. */
    domainSetAt: timestamp("domain_set_at", { withTimezone: true }),
    domainAliases: jsonb("domain_aliases").$type<string[]>().notNull().default([]),
    /** Environment variables the site's builds read (setEnvironmentVariable), by name. */
    env: jsonb("env").$type<Record<string, string>>().notNull().default({}),
    repoUrl: text("repo_url"),
    publishedDeployId: text("published_deploy_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("local_sites_key").on(t.provider, t.idempotencyKey)],
);

export const localDeploys = pgTable(
  "local_deploys",
  {
    id: text("id").primaryKey(),
    siteId: text("site_id")
      .notNull()
      .references(() => localSites.id, { onDelete: "cascade" }),
    /** Ordering and cursors: a strictly increasing number per database. */
    seq: integer("seq").generatedAlwaysAsIdentity(),
    /** Provider-style state: Netlify's (enqueued, building, ready, error) or Vercel's readyState. */
    state: text("state").notNull(),
    branch: text("branch").notNull().default("main"),
    commitRef: text("commit_ref"),
    title: text("title"),
    errorMessage: text("error_message"),
    context: text("context").notNull().default("production"),
    /** The caller's idempotency key for this trigger (a retried job must not deploy twice). */
    triggerKey: text("trigger_key"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("local_deploys_site_idx").on(t.siteId, t.seq),
    uniqueIndex("local_deploys_trigger_key").on(t.siteId, t.triggerKey),
  ],
);

/**
 * A project's newsletter sender settings, in the product's stored form (email_from_name,
 * email_from_address, reply_to, company{...}, social_media{...}, email_footer, plus the
 * unsubscribe link, brand colour and logo). One row per project, written whole.
 */
export const newsletterSettings = pgTable("newsletter_settings", {
  projectId: uuid("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  settings: jsonb("settings").$type<Record<string, unknown>>().notNull(),
  /** The uploaded logo's bytes (image/png, jpeg, gif or webp; at most 512 KB). */
  logo: text("logo_base64"),
  logoType: text("logo_type"),
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});

/**
 * The sender domains a project added with its newsletter provider (Resend or local): the
 * provider's id, its status and DNS records as last read, and why verification failed.
 */
export const newsletterDomains = pgTable(
  "newsletter_domains",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    providerDomainId: text("provider_domain_id").notNull(),
    name: text("name").notNull(),
    region: text("region").notNull().default("us-east-1"),
    /** The provider's status: pending, verified, failed, not_started, partially_*, ... */
    status: text("status").notNull(),
    records: jsonb("records").$type<Record<string, unknown>[]>().notNull().default([]),
    verificationError: text("verification_error"),
    /** What the API's caller keeps with the domain (its own labels); never read by us. */
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    /** When the provider was last asked (the page reads this row, not the provider). */
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
    /** Re-checks of an unverified domain by the job, for its backoff. */
    checks: integer("checks").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("newsletter_domains_project_name_key").on(t.projectId, t.name),
    uniqueIndex("newsletter_domains_provider_id_key").on(t.providerDomainId),
  ],
);

/**
 * A project's saved e-mail templates (the newsletter settings' savedTemplates): a named subject
 * and body a newsletter can start from. Names are unique per project whatever their case; the
 * limits (name, subject, body, count) are the service's (newsletter-rules.ts, decision 045).
 */
export const newsletterSavedTemplates = pgTable(
  "newsletter_saved_templates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    subject: text("subject").notNull().default(""),
    body: text("body").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("newsletter_saved_templates_project_name_key").on(
      t.projectId,
      sql`lower(${t.name})`,
    ),
  ],
);

/** The local newsletter provider's domains (PROVIDERS=local), like Resend keeps them. */
export const localNewsletterDomains = pgTable("local_newsletter_domains", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  region: text("region").notNull(),
  records: jsonb("records").$type<Record<string, unknown>[]>().notNull(),
  /** Set by the first verify; the domain counts as verified a few seconds later. */
  verifyRequestedAt: timestamp("verify_requested_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * A form of a project's hosted site: its submissions post to the public endpoint
 * /forms/{id}. Settings: on/off, who is mailed about each submission, where a plain HTML post
 * is sent afterwards. `fieldNames`: the field names its submissions have brought, in the order
 * they came, at most 100 (MAX_FIELD_NAMES); further names go into each submission's `_other`
 * field. Grown only under this row's lock (decision 030).
 */
export const forms = pgTable(
  "forms",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    notificationEmails: jsonb("notification_emails").$type<string[]>().notNull().default([]),
    redirectUrl: text("redirect_url"),
    fieldNames: jsonb("field_names").$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("forms_project_name_key").on(t.projectId, t.name)],
);

/**
 * Whether each notification address of a form may be mailed: one row per address in the form's
 * `notification_emails`, made when the address is added and deleted when it is removed (so
 * adding it again asks again). Members of the project are mailed without confirming; anyone else
 * once they confirmed the mailed link (`confirmed_at`). docs/decisions/028-mail-for-others.md.
 */
export const formNotificationAddresses = pgTable(
  "form_notification_addresses",
  {
    formId: uuid("form_id")
      .notNull()
      .references(() => forms.id, { onDelete: "cascade" }),
    /** Lowercased. */
    email: text("email").notNull(),
    /** sha256 of the token of the last confirmation link mailed (null once confirmed). */
    tokenHash: text("token_hash"),
    tokenExpiresAt: timestamp("token_expires_at", { withTimezone: true }),
    /** When the last confirmation link was mailed (null: never, e.g. the address's mails were limited). */
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.formId, t.email] }),
    uniqueIndex("form_notification_addresses_token_key").on(t.tokenHash),
  ],
);

/**
 * Notification mails of a project's forms per UTC day: `sent` counts up to the daily cap, in
 * place (the row lock makes the check and the count one step for every process); past the cap
 * the mails are `held` (not sent), from `first_held_at`.
 */
export const formMailDays = pgTable(
  "form_mail_days",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    sent: integer("sent").notNull().default(0),
    held: integer("held").notNull().default(0),
    firstHeldAt: timestamp("first_held_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] })],
);

/**
 * One submission of a form: its fields as sent (text values only), and their text lowercased for
 * search. Listed newest first by (created_at, id), which the index serves for each form.
 */
export const formSubmissions = pgTable(
  "form_submissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    formId: uuid("form_id")
      .notNull()
      .references(() => forms.id, { onDelete: "cascade" }),
    data: jsonb("data").$type<Record<string, string>>().notNull(),
    searchText: text("search_text").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("form_submissions_form_created_idx").on(t.formId, t.createdAt.desc(), t.id.desc())],
);

/**
 * Support tickets of the built-in help desk: a user's question, about one of their projects or
 * none. Platform admins are the support team. `updatedAt` is the last activity (lists sort by it).
 */
export const supportTickets = pgTable(
  "support_tickets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subject: text("subject").notNull(),
    description: text("description").notNull(),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "set null" }),
    requesterId: uuid("requester_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** open, in_progress, on_hold or resolved. */
    status: text("status").notNull().default("open"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("support_tickets_requester_idx").on(t.requesterId, t.updatedAt),
    index("support_tickets_project_idx").on(t.projectId, t.updatedAt),
    index("support_tickets_updated_idx").on(t.updatedAt),
  ],
);

/** The conversation of a ticket: the requester's and the support team's comments. */
export const ticketComments = pgTable(
  "ticket_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => supportTickets.id, { onDelete: "cascade" }),
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    /** Written by the support team (a platform admin), not the requester's side. */
    fromSupport: boolean("from_support").notNull().default(false),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("ticket_comments_ticket_idx").on(t.ticketId, t.createdAt)],
);

/** What happened to a ticket: TicketCreated, TicketUpdated, CommentAdded, with actor and time. */
export const ticketEvents = pgTable(
  "ticket_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => supportTickets.id, { onDelete: "cascade" }),
    eventName: text("event_name").notNull(),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull(),
    /** What changed (e.g. 'Status: Open -> In Progress'), when there is something to say. */
    detail: text("detail"),
    createdAt: createdAt(),
  },
  (t) => [
    index("ticket_events_ticket_idx").on(t.ticketId, t.createdAt),
    // A platform admin's reads of a ticket they see only as support: at most one TicketViewed per
    // ticket, admin and UTC hour (support-desk/builtin.server.ts inserts with ON CONFLICT DO NOTHING).
    uniqueIndex("ticket_events_viewed_hour_idx")
      .on(t.ticketId, t.actorId, sql`date_trunc('hour', ${t.createdAt} at time zone 'UTC')`)
      .where(sql`${t.eventName} = 'TicketViewed'`),
  ],
);

/**
 * A change of a user's e-mail address waiting for its confirmation: the link is mailed to the
 * new address (only its token's hash is kept); the address changes when it is opened.
 */
export const emailChanges = pgTable(
  "email_changes",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Lowercased. */
    newEmail: text("new_email").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    /** Set when the change applies: the address it replaced, mailed a notice with a revert link. */
    oldEmail: text("old_email"),
    /** sha256 of the revert link's token (the link works for 7 days, once). */
    revertTokenHash: text("revert_token_hash"),
    revertExpiresAt: timestamp("revert_expires_at", { withTimezone: true }),
    revertedAt: timestamp("reverted_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("email_changes_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("email_changes_revert_token_key").on(t.revertTokenHash),
  ],
);

/**
 * Page views of a project's hosted site, counted per UTC day and page path: a view increments its
 * row in place (never a row per view), so a page of the Analytics view reads at most one row per
 * day and page. No cookies, addresses or visitor ids are kept: only these counts.
 */
export const analyticsPageDays = pgTable(
  "analytics_page_days",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    /** The page's path without query or fragment (they may hold personal data). */
    path: text("path").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.path] })],
);

/** Where page views came from, per UTC day: the referring site's host name only. */
export const analyticsReferrerDays = pgTable(
  "analytics_referrer_days",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    referrer: text("referrer").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.referrer] })],
);

/**
 * What support did and who deleted which project, kept whatever happens to the project: no
 * foreign key to projects or users, so deleting either leaves the rows as written (who by id and
 * the address they had then, the project by id and name). Append-only: the app inserts and never
 * updates or deletes a row (app/services/activity/audit-log.server.ts); a trigger refuses UPDATE and
 * DELETE (the migration's custom SQL). docs/decisions/026-audit-log.md.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** support.viewed, support.changed, project.deleted (AUDIT_ACTIONS in audit-log.server.ts). */
    action: text("action").notNull(),
    actorId: uuid("actor_id"),
    actorEmail: text("actor_email").notNull(),
    projectId: uuid("project_id").notNull(),
    projectName: text("project_name").notNull(),
    /** The project's owner when it happened: whose account lists the entry once it is deleted. */
    projectOwnerId: uuid("project_owner_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_project_idx").on(t.projectId, t.createdAt),
    index("audit_log_owner_idx").on(t.projectOwnerId, t.action),
  ],
);

/**
 * Personal access tokens for scripts calling the JSON API (`Authorization: Bearer ...`). Only the
 * sha256 of a token is kept, like sessions: the person sees the token once, when it is made. A
 * token acts as its owner with at most `scope`, on `projectIds` when set (else every project the
 * owner can reach), and ends at `expiresAt` or when revoked (by its owner or a platform admin).
 * app/services/accounts/api-tokens.server.ts; docs/decisions/029-personal-access-tokens.md.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** sha256 (hex) of the whole token. */
    tokenHash: text("token_hash").notNull(),
    /** The token's last four characters, to tell tokens apart in the list. */
    lastFour: text("last_four").notNull(),
    /** `read` (GET only) or `read-write`. */
    scope: text("scope").$type<"read" | "read-write">().notNull(),
    /** The projects the token may reach; null: every project its owner can. */
    projectIds: uuid("project_ids").array(),
    createdAt: createdAt(),
    /** Written at most once a minute per token. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Who revoked it: the owner, or a platform admin (a leaked token). */
    revokedBy: uuid("revoked_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("api_tokens_hash_key").on(t.tokenHash),
    index("api_tokens_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * A site or content studio of a deleted project that is still to be deleted at its provider.
 * Written in the project deletion's transaction; the row goes when the provider confirms (a 404
 * counts), and until then the cleanup job and the scheduled retry (deletions.retry) try again
 * with backoff. app/services/projects/external-deletions.server.ts.
 */
export const externalDeletions = pgTable(
  "external_deletions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** `studio` (the configured content studio provider), or the hosting provider of a site. */
    target: text("target").$type<"studio" | "netlify" | "vercel">().notNull(),
    /** The provider's id of the site or studio. */
    resourceId: text("resource_id").notNull(),
    /** The deleted project's name, for people reading the list. */
    projectName: text("project_name").notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("external_deletions_resource_key").on(t.target, t.resourceId),
    index("external_deletions_due_idx").on(t.nextAttemptAt),
  ],
);

/**
 * What happened to a project, for the outside world (webhooks now, personal notifications
 * next): one row per event of the catalogue (app/services/events/catalog.ts), written by
 * emitProjectEvent in the transaction of the change it reports, with the job that fans it out.
 * No foreign key to projects: `project.deleted` is written as the project row goes, and its
 * fan-out runs after. `dedupeKey` makes a re-run job (a deployment polled twice) write its
 * event once. docs/decisions/047-project-events-and-webhooks.md.
 */
export const projectEvents = pgTable(
  "project_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id").notNull(),
    /** The project's studioId and name when it happened (the project may be gone since). */
    studioId: text("studio_id").notNull(),
    projectName: text("project_name").notNull(),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    dedupeKey: text("dedupe_key"),
    createdAt: createdAt(),
    /** Set once every consumer has taken the event (the fan-out job ran to its end). */
    fannedOutAt: timestamp("fanned_out_at", { withTimezone: true }),
  },
  (t) => [
    index("project_events_project_idx").on(t.projectId, t.createdAt),
    // The hourly purge of events older than 30 days (events/retention.server.ts).
    index("project_events_created_idx").on(t.createdAt),
    uniqueIndex("project_events_dedupe_key").on(t.projectId, t.type, t.dedupeKey),
  ],
);

/**
 * A project's outgoing webhook: an https address that gets a signed POST (Standard Webhooks
 * 1.0) for each event it subscribes to. No foreign key to projects either: a deleted project's
 * webhooks still receive `project.deleted`; the hourly purge removes them once its retries are
 * over (webhooks/retention.server.ts). The signing secret (`whsec_...`) is shown once and kept
 * encrypted (SECRET_COLUMNS).
 */
export const webhooks = pgTable(
  "webhooks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id").notNull(),
    url: text("url").notNull(),
    format: text("format", { enum: ["standard", "slack"] })
      .notNull()
      .default("standard"),
    events: text("events").array().notNull(),
    secretEncrypted: text("secret_encrypted").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** Why it was switched off (failing for 3 days), shown on the page. */
    disabledReason: text("disabled_reason"),
    /** The first failed delivery since the last success: 3 days of it switch the webhook off. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhooks_project_idx").on(t.projectId, t.createdAt)],
);

/**
 * One event sent (or to be sent) to one webhook: its log line. Its id is the `webhook-id`
 * header, the same across retries and 'Redeliver', so a receiver can drop duplicates.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    webhookId: uuid("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => projectEvents.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed", "skipped"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms"),
    /** The response's first 1 KB, or why no response came (timeout, refused address). */
    responseBody: text("response_body"),
    createdAt: createdAt(),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_key").on(t.webhookId, t.eventId),
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt),
  ],
);

/**
 * A person's e-mail notifications of project events (app/services/notifications/): per project
 * role, the event types mailed. No row: the defaults of NOTIFICATION_DEFAULTS.
 * docs/decisions/049-personal-notifications.md.
 */
export const notificationSettings = pgTable("notification_settings", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  byRole: jsonb("by_role").$type<Record<string, string[]>>().notNull(),
  /** At most one mail per project every 10 minutes, listing the events of that time. */
  digest: boolean("digest").notNull().default(false),
  updatedAt: updatedAt(),
});

/**
 * One person's choice for one project, over their settings by role: only failed deploys, or
 * nothing. No row: as the settings say. Set on the Notifications page or by an unsubscribe link.
 */
export const notificationProjectOverrides = pgTable(
  "notification_project_overrides",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: ["failed-deploys", "none"] }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId] })],
);

/**
 * The unsubscribe link of a notification mail: it turns off one person's mails of one project.
 * Only the sha256 of the mailed token is kept; it works for 90 days, as often as it is used.
 */
export const notificationUnsubscribeTokens = pgTable(
  "notification_unsubscribe_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("notification_unsubscribe_tokens_expires_idx").on(t.expiresAt)],
);

/**
 * Events waiting for a person's digest mail of a project (digest on): the delayed digest job of
 * that person and project sends them in one mail and deletes them.
 */
export const notificationDigestItems = pgTable(
  "notification_digest_items",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => projectEvents.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId, t.eventId] })],
);
