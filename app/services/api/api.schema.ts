/**
 * The JSON API's response bodies as zod schemas: the source of the OpenAPI document
 * (app/services/api/openapi.server.ts), which a test checks every response of the suite against.
 * Request bodies and queries use the inputs' own schemas (*.schema.ts).
 */
import { z } from "zod";
import { creationStatus } from "~/db/schema";

const text = z.string();
const maybe = z.string().nullable();
// "support": a platform admin viewing a project they have no role in.
const role = z.enum(["owner", "admin", "developer", "editor", "support"]);
const memberRole = z.enum(["editor", "developer", "admin"]);

/** `{ error, fieldErrors? }`: every 4xx and 5xx of the API. */
export const errorBody = z.object({
  error: text,
  fieldErrors: z.record(z.string(), z.array(text)).optional(),
});

/**
 * The hosting provider's own record (`HostingDetails` in app/db/schema.ts), with the fields the
 * specification names typed; each provider fills its own part (a Netlify site has no `targets`).
 */
const hostingDetails = z
  .looseObject({
    state: text.optional(),
    ssl: z.boolean().optional(),
    published_deploy: z
      .looseObject({ id: text.optional(), published_at: text.optional() })
      .nullable()
      .optional(),
    custom_domain: maybe.optional(),
    domain_aliases: z.array(text).optional(),
    build_settings: z.looseObject({ repo_url: text.optional() }).optional(),
    targets: z
      .looseObject({
        production: z
          .looseObject({ readyState: text.optional(), alias: z.array(text).optional() })
          .optional(),
      })
      .optional(),
  })
  .nullable();

export const projectBody = z.strictObject({
  _id: text,
  name: text,
  owner: z.object({ name: text, email: text }),
  _createdAt: text,
  _updatedAt: text,
  siteCustomDomain: maybe,
  siteUrl: maybe,
  studioCustomDomain: maybe,
  studioUrl: maybe,
  studioSanityId: maybe,
  studioId: text,
  siteId: maybe,
  idempotencyKey: text,
  studioCreationStatus: z.enum(creationStatus.enumValues),
  siteCreationStatus: z.enum(creationStatus.enumValues),
  studioDetails: hostingDetails,
  siteDetails: hostingDetails,
  isSiteOnVercel: z.boolean(),
  siteType: z.enum(["business", "enterprise"]),
  schemaVersion: z.number().int(),
  version: maybe,
  stackshiftVersion: maybe,
  inviteToProjectAccepted: z.boolean(),
  studioAndSitePreviewToken: maybe,
  isWStudioV2: z.boolean(),
  publishForgeSiteUrl: maybe,
  sites: z.array(
    z.strictObject({
      provider: z.enum(["netlify", "vercel"]),
      siteId: maybe,
      url: maybe,
      customDomain: maybe,
    }),
  ),
  isCStudioEnabled: z.boolean(),
  isAINewsletterEnabled: z.boolean(),
  isSocialMediaEnabled: z.boolean(),
  isGPT3Enabled: z.boolean(),
  isVisualTestsEnabled: z.boolean(),
  isEndToEndTestsEnabled: z.boolean(),
  hasChromaticProjectToken: z.boolean(),
  netlifyAccountId: maybe,
  role,
  isOwner: z.boolean(),
});

/** GET /api/user: the caller, as the specification's User entity. */
export const userBody = z.strictObject({
  id: text,
  name: text,
  email: text,
  isAdmin: z.boolean(),
  /** An invitation to someone else's project is waiting for this user. */
  isMemberInvited: z.boolean(),
});

const eventLog = z.strictObject({
  _key: text,
  type: text,
  content: text,
  metadata: z.strictObject({ role: maybe, email: maybe }),
  timestamp: text,
  label: text,
});

/** What every integration of the entity carries (the Integration entity's fields). */
const integrationFields = {
  name: text,
  predefined: z.literal(true),
  /** Plain text: what the integration does, as its catalogue card says it. */
  content: text,
  /** The integration's mark, a path on this dashboard: /integrations/{id}.svg. */
  logo: text,
};

/** A linked social account as the social integration entry shows it. */
const socialAccount = z.strictObject({
  /** Ours (an addition): what `unlink_account`'s `accountId` takes. */
  id: text,
  platform: z.literal("instagram"),
  userName: text,
  profileName: maybe,
  profilePictureUrl: maybe,
  dateAdded: text,
  baseUrl: text,
});

export const projectEntityBody = projectBody.extend({
  members: z.array(
    z.strictObject({
      user: z
        .strictObject({
          _id: text,
          name: text,
          email: text,
          status: z.enum(["invited", "accepted"]),
        })
        .nullable(),
      invitedEmail: text,
      role: memberRole,
      status: z.enum(["invited", "accepted"]),
      invitationKey: maybe,
    }),
  ),
  eventLogs: z.array(eventLog),
  eventLogsNextCursor: maybe,
  integrations: z.array(
    z.discriminatedUnion("id", [
      z.strictObject({
        id: z.literal("payments"),
        ...integrationFields,
        accounts: z.array(
          z.strictObject({
            id: text,
            accountName: text,
            stripePKey: text,
            apiVersion: text,
            dateAdded: text,
          }),
        ),
      }),
      z.strictObject({
        id: z.literal("social-accounts"),
        ...integrationFields,
        isSocialMedia: z.literal(true),
        /** The first linked account, as the specification's entry has one. */
        account: socialAccount,
        /** Every linked account, the first included (an addition: a project may link several). */
        accounts: z.array(socialAccount),
      }),
      z.strictObject({
        id: z.literal("newsletter"),
        ...integrationFields,
        /**
         * `id`: the project's; `api_key`: the key the newsletter sends with, masked (only its last
         * 4 characters; "••••" alone when the server sends without one). Decision 032.
         */
        newsletterAccount: z.strictObject({ id: text, api_key: text }),
      }),
    ]),
  ),
});

/**
 * One row of GET /api/app: the Project entity (without members[], eventLogs[] and
 * integrations[], which GET /api/app/{id} adds) and the list's derived state.
 */
export const projectListRowBody = projectBody.extend({
  /** The derived project badge (project-status.ts), as the list and the dashboard show it. */
  badge: z.strictObject({
    state: z.enum(["building", "getting-ready", "ready", "error"]),
    label: z.enum(["In Progress", "Getting Ready", "Ready", "Build Error"]),
    isNew: z.boolean(),
  }),
  live: z.boolean(),
  /** The schema version the dashboard needs when the site is below it ('UPGRADE REQUIRED'). */
  upgradeTo: z.number().int().nullable(),
});

export const projectListBody = z.strictObject({
  data: z.array(projectListRowBody),
  nextCursor: maybe,
});

/** One deployment, as the hosting provider reports it (a list's row, a rollback's answer). */
export const deploymentBody = z.strictObject({
  id: text,
  state: text,
  branch: maybe,
  commit_ref: maybe,
  build_id: maybe,
  title: maybe,
  error_message: maybe,
  context: maybe,
  target: maybe,
  links: z.strictObject({ permalink: maybe }),
  deploy_ssl_url: maybe,
  updated_at: text,
  /** Vercel's; null on Netlify. Each field null when the deployment has none. */
  meta: z
    .strictObject({
      githubCommitMessage: maybe,
      githubRepo: maybe,
      githubCommitRef: maybe,
      branchAlias: maybe,
      deployHookName: maybe,
    })
    .nullable(),
  framework: z.enum(["next", "gatsby"]).nullable(),
  screenshot_url: maybe,
  uid: maybe,
  url: maybe,
  createdAt: text,
  label: z.enum(["Published", "Error"]).nullable(),
});

export const deploymentListBody = z.strictObject({
  results: z.array(deploymentBody),
  latestDeployment: deploymentBody.nullable(),
  pagination: z.strictObject({ prev: maybe, next: maybe }),
  isSiteOnVercel: z.boolean(),
});

export const deployQueuedBody = z.strictObject({
  status: z.literal("queued"),
  projectId: text,
  studioId: text,
  triggerKey: text,
});

export const retryBody = z.strictObject({
  status: z.literal("retrying"),
  projectId: text,
  studioId: text,
  name: text,
  deployRetryCount: z.number().int(),
  retriesLeft: z.number().int(),
});

export const inviteBody = z.strictObject({
  ok: z.literal(true),
  outcome: z.enum(["sent", "resent"]),
  member: z.strictObject({
    id: text,
    email: text,
    role: memberRole,
    status: z.literal("invited"),
  }),
});

export const memberChangeBody = z.union([
  z.strictObject({ ok: z.literal(true), outcome: z.enum(["revoked", "removed"]), email: text }),
  z.strictObject({ ok: z.literal(true), studioId: text, projectName: text, memberId: text }),
  z.strictObject({ ok: z.literal(true), changed: z.boolean(), email: text, role: memberRole }),
  z.strictObject({ ok: z.literal(true) }),
]);

/** PUT /api/app/domains: what changed (`changed` false when the site already had it). */
export const domainChangeBody = z.strictObject({
  ok: z.literal(true),
  action: z.enum(["update", "revert"]),
  domain: text.nullable(),
  changed: z.boolean(),
});

/** The add-on routes: the add-on's state now (`changed` false when it already was). */
export const addonChangeBody = z.strictObject({
  ok: z.literal(true),
  addon: z.enum([
    "ecommerce",
    "aiNewsletter",
    "socialMedia",
    "gpt",
    "visualTests",
    "endToEndTests",
  ]),
  enabled: z.boolean(),
  changed: z.boolean(),
});

/** GET /api/app/e2e-test-runs: the site repository's latest GitHub Actions runs, GitHub's names. */
export const testRunsBody = z.strictObject({
  workflow_runs: z.array(
    z.strictObject({
      id: z.number().int(),
      html_url: text,
      display_title: text,
      head_branch: maybe,
      status: text,
      conclusion: maybe,
      updated_at: text,
    }),
  ),
});

/** A project's Stripe account as the API shows it: never the secret key, its last four only. */
const paymentAccount = z.strictObject({
  id: text,
  accountName: text,
  stripePKey: text,
  secretKeyLast4: text,
  apiVersion: text,
  createdAt: text,
});

export const paymentAccountsBody = z.strictObject({ accounts: z.array(paymentAccount) });
export const paymentAccountAddedBody = z.strictObject({
  ok: z.literal(true),
  account: paymentAccount,
});
export const okBody = z.strictObject({ ok: z.literal(true) });

/** A social account just linked. */
export const socialAccountLinkedBody = z.strictObject({
  ok: z.literal(true),
  account: z.strictObject({ id: text, userName: text }),
});

/** A price in Stripe's names (amounts in cents; `unit_amount` null: the customer chooses). */
const priceType = z.enum(["one_time", "recurring"]);

/** A product with its first price, as the specification's Payment product (Unix seconds). */
export const stripeProductBody = z.strictObject({
  id: text,
  name: text,
  active: z.boolean(),
  created: z.number().int(),
  updated: z.number().int(),
  /** null when the product has no price ('N/A'). */
  price: z
    .strictObject({ type: priceType, unit_amount: z.number().int().nullable(), product: text })
    .nullable(),
});

/** A price with its product's id (`product`) and, an addition, the product's name. */
export const stripePriceBody = z.strictObject({
  id: text,
  product: text,
  productName: maybe,
  active: z.boolean(),
  type: priceType,
  unit_amount: z.number().int().nullable(),
  currency: text,
  created: z.number().int(),
});

/** A page of a Stripe account's products or prices (POST /api/payments/stripe). */
export const stripeListBody = z.strictObject({
  statusCode: z.literal(200),
  data: z.union([z.array(stripeProductBody), z.array(stripePriceBody)]),
  hasMore: z.boolean(),
});

export const studioInviteBody = z.strictObject({
  ok: z.literal(true),
  outcome: z.enum(["resent", "invited", "accepted"]),
  email: text,
});

/**
 * A sender domain as the newsletter API shows it (the page's view: records ready to publish),
 * under the specification's names: the Domain's `domain` and the sender-domain settings'
 * `customDomain` (the same name) and `isVerified`.
 */
const senderDomain = z.object({
  id: text,
  domain: text,
  customDomain: text,
  status: z.enum(["pending", "verified"]),
  isVerified: z.boolean(),
  records: z.array(z.looseObject({ type: text, host: text, value: text, ttl: text, status: text })),
  verificationError: maybe,
  checkedAt: text,
  metadata: z.record(z.string(), z.unknown()),
});
export const senderDomainsBody = z.object({ data: z.array(senderDomain), error: maybe });
export const senderDomainBody = z.object({ data: senderDomain });
export const dnsRecordsBody = z.object({
  data: z.array(z.looseObject({ type: text, host: text, value: text, ttl: text, status: text })),
});
export const okFlagBody = z.object({ ok: z.literal(true) });

/** A form with its settings and submission count. */
const formSummary = z.object({
  id: text,
  name: text,
  enabled: z.boolean(),
  notificationEmails: z.array(text),
  /** Each address: mailed as a project member, confirmed, or waiting for its mailed link. */
  recipients: z.array(
    z.object({
      email: text,
      state: z.enum(["member", "confirmed", "waiting"]),
      mailedAt: maybe,
    }),
  ),
  redirectUrl: maybe,
  submissions: z.number().int(),
  endpoint: text,
});
export const formBody = z.object({
  form: formSummary,
  submissions: z.array(z.object({ id: text, createdAt: text, data: z.record(text, text) })),
  nextCursor: maybe,
});
export const formSettingsBody = z.object({ ok: z.literal(true), form: formSummary });
export const deleteAllBody = z.object({ ok: z.literal(true), deleted: z.number().int() });
