/**
 * The specification's entities as a client written from the product specification (SPEC.md) alone would
 * read them: section 3's field names, and a type only where the specification gives one (an enum,
 * "Unix seconds", a flag, a number); `z.unknown()` where it gives none, which still demands the
 * field. Each field cites the SPEC.md line that names it. Objects are loose: fields the
 * specification does not list are additions a client ignores. Nothing here is imported from the
 * app, so a rename in the API cannot rename these too.
 */
import { z } from "zod";

/** A value the specification says may be missing ("or", "if any", "when"): null is allowed. */
const maybe = <T extends z.ZodType>(schema: T) => schema.nullable();
const text = z.string();

/** Event log entry. */
export const EventLogEntry = z.looseObject({
  _key: text, // SPEC.md:117
  type: text, // SPEC.md:117 (the types: SPEC.md:299)
  content: z.unknown(), // SPEC.md:117
  metadata: z.looseObject({
    role: z.unknown(), // SPEC.md:117 metadata{role,email}
    email: z.unknown(), // SPEC.md:117
  }),
  timestamp: z.unknown(), // SPEC.md:117
  label: z.unknown(), // SPEC.md:117
});

/**
 * studioDetails and siteDetails: the hosting providers' records, of which the specification names
 * the fields it reads (SPEC.md:107). Each of the two providers (SPEC.md:110) fills its own part
 * (targets.production is one provider's), so each field is optional; its type is the one named.
 */
const HostingDetails = maybe(
  z.looseObject({
    state: text.optional(), // SPEC.md:107
    ssl: z.unknown().optional(), // SPEC.md:107
    published_deploy: z.unknown().optional(), // SPEC.md:107
    custom_domain: z.unknown().optional(), // SPEC.md:107
    domain_aliases: z.unknown().optional(), // SPEC.md:107
    build_settings: z.looseObject({ repo_url: z.unknown().optional() }).optional(), // SPEC.md:107
    targets: z // SPEC.md:107 targets.production.readyState and alias
      .looseObject({
        production: z
          .looseObject({ readyState: z.unknown().optional(), alias: z.unknown().optional() })
          .optional(),
      })
      .optional(),
  }),
);

const creationStatus = z.enum(["pending", "created", "deployed", "success", "failed"]); // SPEC.md:106

/** Member (the stored member; the displayed one is the page's). */
export const Member = z.looseObject({
  // SPEC.md:115 user{_id,name,email,status}; an invitee without an account has none yet
  // (SPEC.md:11, 44), so null is allowed.
  user: maybe(
    z.looseObject({
      _id: text, // SPEC.md:115
      name: z.unknown(), // SPEC.md:115
      email: text, // SPEC.md:115
      status: z.unknown(), // SPEC.md:115
    }),
  ),
  invitedEmail: text, // SPEC.md:115
  role: z.enum(["editor", "developer", "admin"]), // SPEC.md:115
  status: z.enum(["invited", "accepted"]), // SPEC.md:115
  invitationKey: maybe(text), // SPEC.md:115 (memberInvitationKey only while invited)
});

/** Integration: what every entry of a project's integrations[] has. */
export const Integration = z.looseObject({
  id: text, // SPEC.md:125
  name: text, // SPEC.md:125
  predefined: z.unknown(), // SPEC.md:125 (the catalogue's two predefined entries: SPEC.md:78)
  content: z.unknown(), // SPEC.md:125 (format not shown)
  logo: z.unknown(), // SPEC.md:125 (format not shown)
});

/** The newsletter integration's extra field. */
export const NewsletterIntegration = Integration.extend({
  newsletterAccount: z.looseObject({
    id: z.unknown(), // SPEC.md:125 newsletterAccount{id, api_key}
    api_key: z.unknown(), // SPEC.md:125
  }),
});

/** Social integration entry. */
export const SocialIntegrationEntry = Integration.extend({
  isSocialMedia: z.literal(true), // SPEC.md:127 (the flag)
  account: z.looseObject({
    platform: z.literal("instagram"), // SPEC.md:127 platform (instagram)
    profilePictureUrl: maybe(text), // SPEC.md:127 (a placeholder when missing: SPEC.md:70)
    profileName: maybe(text), // SPEC.md:127
    userName: text, // SPEC.md:127 ('Go to profile' is base URL plus user name: SPEC.md:71)
    dateAdded: z.unknown(), // SPEC.md:127
    baseUrl: text, // SPEC.md:127
  }),
});

/** Payment account record. */
export const PaymentAccountRecord = z.looseObject({
  accountName: text, // SPEC.md:129
  stripePKey: text, // SPEC.md:129
  stripeSKey: z.unknown(), // SPEC.md:129 (stored encrypted)
  hashKey: z.unknown(), // SPEC.md:129 (the key used to encrypt)
  apiVersion: text, // SPEC.md:129 (default 2020-08-27: SPEC.md:174)
});

/** The price attached to a payment product, in cents (SPEC.md:312). */
export const PaymentPrice = z.looseObject({
  type: text, // SPEC.md:131 ('Recurring' if the price type is recurring: SPEC.md:77)
  unit_amount: maybe(z.number()), // SPEC.md:131 (divided by 100, or N/A: SPEC.md:77)
  product: text, // SPEC.md:131
});

/** Payment product. */
export const PaymentProduct = z.looseObject({
  id: text, // SPEC.md:131 (its prefix before the first hyphen picks what is shown)
  name: text, // SPEC.md:131
  active: z.boolean(), // SPEC.md:131 ('Active Products' and 'Archive Products': SPEC.md:77)
  created: z.number().int(), // SPEC.md:131 (Unix seconds)
  updated: z.number().int(), // SPEC.md:131 (Unix seconds)
  price: maybe(PaymentPrice), // SPEC.md:131 (an attached price; N/A with no price: SPEC.md:77)
});

/** The POST /api/payments/stripe answer: statusCode and data lists. */
export const StripeListResponse = z.looseObject({
  statusCode: z.number(), // SPEC.md:239
  data: z.array(z.unknown()), // SPEC.md:239
});

/** Deployment. */
export const Deployment = z.looseObject({
  id: text, // SPEC.md:119
  state: text, // SPEC.md:119 (error marks it Error: SPEC.md:158)
  branch: z.unknown(), // SPEC.md:119
  commit_ref: z.unknown(), // SPEC.md:119
  build_id: z.unknown(), // SPEC.md:119
  title: z.unknown(), // SPEC.md:119
  error_message: z.unknown(), // SPEC.md:119
  context: z.unknown(), // SPEC.md:119
  target: z.unknown(), // SPEC.md:119
  links: z.looseObject({ permalink: z.unknown() }), // SPEC.md:119 links.permalink
  deploy_ssl_url: z.unknown(), // SPEC.md:119
  updated_at: z.unknown(), // SPEC.md:119
  // SPEC.md:119 meta{githubCommitMessage, githubRepo, githubCommitRef, branchAlias,
  // deployHookName}: one hosting provider's (SPEC.md:110), so it may be missing.
  meta: maybe(
    z.looseObject({
      githubCommitMessage: z.unknown(),
      githubRepo: z.unknown(),
      githubCommitRef: z.unknown(),
      branchAlias: z.unknown(),
      deployHookName: z.unknown(),
    }),
  ),
  framework: maybe(z.enum(["next", "gatsby"])), // SPEC.md:119 framework (next or gatsby)
  screenshot_url: z.unknown(), // SPEC.md:119
  uid: z.unknown(), // SPEC.md:119
  url: z.unknown(), // SPEC.md:119
  createdAt: z.unknown(), // SPEC.md:119
});

/** Deployment list response. */
export const DeploymentList = z.looseObject({
  results: z.array(Deployment), // SPEC.md:121
  latestDeployment: maybe(Deployment), // SPEC.md:121 (none before the first deployment)
  pagination: z.looseObject({ prev: z.unknown(), next: z.unknown() }), // SPEC.md:121
  isSiteOnVercel: z.boolean(), // SPEC.md:121
});

/** Project/studio. */
export const Project = z.looseObject({
  _id: text, // SPEC.md:103
  name: text, // SPEC.md:103
  owner: z.looseObject({ name: z.unknown(), email: text }), // SPEC.md:103 owner{name,email}
  _createdAt: text, // SPEC.md:103
  _updatedAt: text, // SPEC.md:103
  siteCustomDomain: maybe(text), // SPEC.md:104 (set or reverted: SPEC.md:157)
  siteUrl: maybe(text), // SPEC.md:104
  studioCustomDomain: maybe(text), // SPEC.md:104
  studioUrl: maybe(text), // SPEC.md:104
  studioSanityId: maybe(text), // SPEC.md:105 (content project id)
  studioId: text, // SPEC.md:105 (the dashboard's address: SPEC.md:33)
  siteId: maybe(text), // SPEC.md:105
  idempotencyKey: text, // SPEC.md:105 (sent again on retry: SPEC.md:162)
  studioCreationStatus: creationStatus, // SPEC.md:106
  siteCreationStatus: creationStatus, // SPEC.md:106
  studioDetails: HostingDetails, // SPEC.md:107
  siteDetails: HostingDetails, // SPEC.md:107
  isSiteOnVercel: z.boolean(), // SPEC.md:108 (also in the deployment list: SPEC.md:121)
  siteType: z.enum(["business", "enterprise"]), // SPEC.md:108
  schemaVersion: z.number(), // SPEC.md:108 (number; default 1: SPEC.md:98)
  version: z.unknown(), // SPEC.md:108
  stackshiftVersion: z.unknown(), // SPEC.md:108
  inviteToProjectAccepted: z.boolean(), // SPEC.md:109 (the activation note: SPEC.md:49)
  studioAndSitePreviewToken: z.unknown(), // SPEC.md:109
  isWStudioV2: z.unknown(), // SPEC.md:109
  publishForgeSiteUrl: maybe(text), // SPEC.md:109 (only some projects have one: SPEC.md:41)
  sites: z.array(
    z.looseObject({
      provider: text, // SPEC.md:110 (one of two hosting providers)
      siteId: z.unknown(), // SPEC.md:110
      url: z.unknown(), // SPEC.md:110
      customDomain: z.unknown(), // SPEC.md:110
    }),
  ),
  members: z.array(Member), // SPEC.md:111
  eventLogs: z.array(EventLogEntry), // SPEC.md:111
  integrations: z.array(Integration), // SPEC.md:111
  isCStudioEnabled: z.boolean(), // SPEC.md:112 (a flag)
  isAINewsletterEnabled: z.boolean(), // SPEC.md:112
  isSocialMediaEnabled: z.boolean(), // SPEC.md:112
  isGPT3Enabled: z.boolean(), // SPEC.md:112
  isVisualTestsEnabled: z.boolean(), // SPEC.md:112
  isEndToEndTestsEnabled: z.boolean(), // SPEC.md:112
  chromaticProjectToken: maybe(text), // SPEC.md:113 (set up when none exists: SPEC.md:156)
  netlifyAccountId: z.unknown(), // SPEC.md:113
});

/** The project list: GET /api/app returns data and nextCursor; each row is read as a Project. */
export const ProjectList = z.looseObject({
  data: z.array(z.unknown()), // SPEC.md:205 (data: the projects, an infinite list)
  nextCursor: z.unknown(), // SPEC.md:205
});

/** Access request. The calls that read them are not shown (SPEC.md:253): no answer to check. */
export const AccessRequest = z.looseObject({
  fullName: maybe(text), // SPEC.md:133 ('Unnamed' when missing: SPEC.md:85)
  businessEmail: maybe(text), // SPEC.md:133 ('Not specified...': SPEC.md:85)
  companyName: z.unknown(), // SPEC.md:133
  websiteAddress: z.unknown(), // SPEC.md:133
  telephoneNumber: z.unknown(), // SPEC.md:133
  numberOfEmployees: z.unknown(), // SPEC.md:133
  additionalInfo: maybe(text), // SPEC.md:133 ('No additional info...': SPEC.md:85)
  requestStatus: z.enum(["Pending", "Rejected", "Approved"]), // SPEC.md:133
  _createdAt: z.unknown(), // SPEC.md:133 ('Submitted {date}': SPEC.md:85)
});

/**
 * Newsletter settings. Their JSON call is not in the specification's section 7; whoever serves
 * one checks its answer with this.
 */
export const NewsletterSettings = z.looseObject({
  fromName: text, // SPEC.md:136 (default 'Newsletter': SPEC.md:314)
  fromEmail: text, // SPEC.md:136 (the domain is after its @: SPEC.md:176)
  replyToEmail: text, // SPEC.md:136
  companyName: text, // SPEC.md:136
  companyAddress: text, // SPEC.md:136
  companyWebsite: text, // SPEC.md:136
  footerText: text, // SPEC.md:136
  enableUnsubscribeLink: z.boolean(), // SPEC.md:137 (default true)
  brandColor: text, // SPEC.md:137 (default #296EFF)
  logo: z.unknown(), // SPEC.md:137
  socialLinks: z.looseObject({
    facebook: z.unknown(), // SPEC.md:138 socialLinks (facebook, twitter, instagram, linkedin)
    twitter: z.unknown(), // SPEC.md:138
    instagram: z.unknown(), // SPEC.md:138
    linkedin: z.unknown(), // SPEC.md:138
  }),
  savedTemplates: z.array(z.unknown()), // SPEC.md:138 (no shape given)
});

/** Sender-domain settings (SPEC.md:140), what the newsletter's domain list reads. */
export const SenderDomainSettings = z.looseObject({
  customDomain: text, // SPEC.md:140
  isVerified: z.boolean(), // SPEC.md:140
  id: text, // SPEC.md:140
  verificationError: z.unknown(), // SPEC.md:140
});

/** DNS record. */
export const DnsRecord = z.looseObject({
  type: text, // SPEC.md:142
  host: text, // SPEC.md:142 host (or name); empty becomes '@': SPEC.md:177
  value: text, // SPEC.md:142
  ttl: z.unknown(), // SPEC.md:142 ('Auto' for the added DMARC record: SPEC.md:177)
});

/** Domain. Its "verification records" have no field name in the specification. */
export const Domain = z.looseObject({
  id: text, // SPEC.md:142
  domain: text, // SPEC.md:142
  status: z.enum(["pending", "verified"]), // SPEC.md:142 (pending until verified: SPEC.md:161)
  metadata: z.unknown(), // SPEC.md:142 (PATCH path=domains/{id} {metadata}: SPEC.md:245)
});

/** User. */
export const User = z.looseObject({
  name: text, // SPEC.md:144
  email: text, // SPEC.md:144
  isAdmin: z.boolean(), // SPEC.md:144 (flag isAdmin: SPEC.md:10)
  isMemberInvited: z.boolean(), // SPEC.md:144
});

/** Test run: the list the End To End Tests card reads. */
export const TestRuns = z.looseObject({
  workflow_runs: z.array(
    z.looseObject({
      html_url: text, // SPEC.md:146
      display_title: z.unknown(), // SPEC.md:146
      head_branch: z.unknown(), // SPEC.md:146
      conclusion: z.unknown(), // SPEC.md:146
      updated_at: z.unknown(), // SPEC.md:146
    }),
  ), // SPEC.md:146
});

/**
 * Form. The specification names no Form entity; its calls name the form's id and `data`
 * (SPEC.md:224-226), and their answers are not shown (SPEC.md:196). This is the body a client
 * sends to delete submissions.
 */
export const FormSubmissionsDeleteBody = z.looseObject({
  formId: text, // SPEC.md:226
  data: z.unknown().optional(), // SPEC.md:226
});

export const ENTITIES = {
  Project,
  ProjectList,
  Member,
  EventLogEntry,
  Deployment,
  DeploymentList,
  Integration,
  NewsletterIntegration,
  SocialIntegrationEntry,
  PaymentAccountRecord,
  PaymentProduct,
  PaymentPrice,
  StripeListResponse,
  AccessRequest,
  NewsletterSettings,
  SenderDomainSettings,
  Domain,
  DnsRecord,
  User,
  TestRuns,
} as const;
export type EntityName = keyof typeof ENTITIES;
