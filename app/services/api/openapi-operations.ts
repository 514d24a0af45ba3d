/**
 * The JSON API's operations, one entry per path and method: the request's zod schemas (the same
 * the routes parse with) and the response bodies' (api.schema.ts). openapi.server.ts turns this
 * table into the OpenAPI document; tests/integration/openapi.test.ts checks every answer against
 * it. Pure data: no server imports.
 */
import { z } from "zod";
import {
  listDeploymentsSchema,
  requestDeploymentSchema,
  retryDeploymentSchema,
  rollbackApiSchema,
} from "~/services/deployments";
import {
  addonActionSchema,
  addonValueSchema,
  chromaticActionSchema,
  testRunsQuerySchema,
} from "~/services/addons";
import { domainApiSchema } from "~/services/domains";
import { inviteMemberSchema, patchMemberSchema, removeMemberSchema } from "~/services/members";
import { createProjectSchema, listProjectsSchema } from "~/services/projects";
import { projectInviteSchema } from "~/services/studio";
import {
  addonChangeBody,
  deployQueuedBody,
  deploymentBody,
  deploymentListBody,
  domainChangeBody,
  errorBody,
  inviteBody,
  memberChangeBody,
  projectBody,
  projectEntityBody,
  projectListBody,
  retryBody,
  studioInviteBody,
  userBody,
  okBody,
  paymentAccountAddedBody,
  paymentAccountsBody,
  socialAccountLinkedBody,
  senderDomainsBody,
  senderDomainBody,
  dnsRecordsBody,
  okFlagBody,
  formBody,
  formSettingsBody,
  deleteAllBody,
  stripeListBody,
  testRunsBody,
} from "./api.schema";
import {
  paymentsApiSchema,
  paymentsQuerySchema,
  stripeListBodySchema,
  stripeListQuerySchema,
} from "~/services/integrations";
import { socialExchangeApiSchema, socialUnlinkApiSchema } from "~/services/integrations";
import { formSettingsApiSchema, submissionsDeleteApiSchema } from "~/services/forms";
import { getNewsletterSettingsOperation, NEWSLETTER_TEMPLATE_API } from "./openapi-newsletter";
import { WEBHOOK_API } from "./openapi-webhooks";

export type Method = "get" | "post" | "put" | "patch" | "delete";
/** The document's groups of operations, in the order the document lists them. */
export const TAGS = [
  { name: "Projects", description: "Projects: list, read, create" },
  {
    name: "Deployments",
    description: "A site's deployments: list, deploy now, retry, roll back",
  },
  { name: "Add-ons", description: "The project's add-ons and the End To End Tests runs" },
  { name: "Integrations", description: "Stripe accounts and linked Instagram accounts" },
  {
    name: "Newsletter",
    description: "The AI Newsletter's settings, saved templates and sender domains",
  },
  { name: "Forms", description: "Forms and their submissions (also as CSV)" },
  { name: "Domains", description: "A site's custom domain" },
  { name: "Members", description: "Members, invitations and the content studio's invitation" },
  {
    name: "Webhooks",
    description: "A project's outgoing webhooks (owner and admins) and their delivery logs",
  },
  { name: "User", description: "The signed-in person" },
] as const;
type Tag = (typeof TAGS)[number]["name"];

export type Operation = {
  /** Stable: client generators name their methods after it. */
  operationId: string;
  tags: [Tag];
  summary: string;
  pathParams?: string[];
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Status -> response body schema (errors use errorBody), or CSV_BODY for a CSV file. */
  responses: Record<number, z.ZodType | typeof CSV_BODY>;
};

/** A response that is a CSV file (text/csv, streamed), not JSON. */
export const CSV_BODY = { mediaType: "text/csv" } as const;

/** The error statuses every authenticated call may answer. */
const ERRORS = { 400: errorBody, 401: errorBody, 404: errorBody };
const WRITE_ERRORS = { ...ERRORS, 403: errorBody, 413: errorBody, 415: errorBody };

const addonPut = (operationId: string, summary: string, body: z.ZodType): { put: Operation } => ({
  put: {
    operationId,
    tags: ["Add-ons"],
    summary,
    body,
    responses: { 200: addonChangeBody, ...WRITE_ERRORS, 403: errorBody, 409: errorBody },
  },
});

export const API: Record<string, Partial<Record<Method, Operation>>> = {
  "/api/app": {
    get: {
      operationId: "listProjects",
      tags: ["Projects"],
      summary: "The caller's projects, newest first (keyset pagination)",
      query: listProjectsSchema,
      responses: { 200: projectListBody, ...ERRORS },
    },
  },
  "/api/app/{id}": {
    get: {
      operationId: "getProject",
      tags: ["Projects"],
      summary: "One project (its _id or studioId) with members, event logs and integrations",
      pathParams: ["id"],
      query: z.object({ eventLogsCursor: z.string().optional() }),
      responses: { 200: projectEntityBody, ...ERRORS },
    },
  },
  "/api/app/create": {
    post: {
      operationId: "createProject",
      tags: ["Projects"],
      summary: "Creates a project; the same idempotency key again returns the same project",
      body: createProjectSchema,
      responses: { 200: projectBody, 201: projectBody, ...WRITE_ERRORS, 429: errorBody },
    },
  },
  "/api/app/retry": {
    post: {
      operationId: "retryDeployment",
      tags: ["Deployments"],
      summary: "Retries a failed deployment (at most 3 times)",
      body: retryDeploymentSchema,
      responses: { 202: retryBody, ...WRITE_ERRORS, 409: errorBody },
    },
  },
  "/api/app/deployments": {
    post: {
      operationId: "requestDeployment",
      tags: ["Deployments"],
      summary: "Deploys the project now",
      body: requestDeploymentSchema,
      responses: { 202: deployQueuedBody, ...WRITE_ERRORS, 409: errorBody },
    },
  },
  "/api/app/rollback": {
    post: {
      operationId: "rollBackDeployment",
      tags: ["Deployments"],
      summary: "Publishes an earlier ready deployment (deployId) of the project's site again",
      body: rollbackApiSchema,
      responses: {
        200: deploymentBody,
        ...WRITE_ERRORS,
        409: errorBody,
        502: errorBody,
        503: errorBody,
      },
    },
  },
  "/api/app/activate-cstudio": addonPut(
    "setEcommerceAddon",
    "Switches Ecommerce on or off (value)",
    addonValueSchema,
  ),
  "/api/app/gpt3": addonPut("setGptAddon", "Switches GPT on or off (value)", addonValueSchema),
  "/api/app/newsletter": {
    get: getNewsletterSettingsOperation,
    ...addonPut("setNewsletterAddon", "Switches AI Newsletter on or off", addonActionSchema),
  },
  ...NEWSLETTER_TEMPLATE_API,
  ...WEBHOOK_API,
  "/api/app/studios/social-media": addonPut(
    "setSocialMediaAddon",
    "Switches Social Media on or off",
    addonActionSchema,
  ),
  "/api/app/e2e-tests": addonPut(
    "setEndToEndTestsAddon",
    "Switches End To End Tests on or off",
    addonActionSchema,
  ),
  "/api/app/chromatic": addonPut(
    "setVisualTestsAddon",
    "Switches Visual Tests on or off; the first time with the Chromatic project token",
    chromaticActionSchema,
  ),
  "/api/app/e2e-test-runs": {
    get: {
      operationId: "listEndToEndTestRuns",
      tags: ["Add-ons"],
      summary: "The latest GitHub Actions runs of a project's site repository (owner/name)",
      query: testRunsQuerySchema,
      responses: { 200: testRunsBody, ...ERRORS, 503: errorBody },
    },
  },
  "/api/app/integrations/{integrationId}": {
    get: {
      operationId: "listPaymentAccounts",
      tags: ["Integrations"],
      summary: "The Stripe accounts of a project (integrationId payments; action get-accounts)",
      pathParams: ["integrationId"],
      query: paymentsQuerySchema,
      responses: { 200: paymentAccountsBody, ...ERRORS },
    },
    post: {
      operationId: "changePaymentAccounts",
      tags: ["Integrations"],
      summary:
        "Adds (add-account, the secret key checked with Stripe; connect-account, a Stripe Connect code and its state) or removes (remove-account) a Stripe account",
      pathParams: ["integrationId"],
      body: paymentsApiSchema,
      responses: {
        200: okBody,
        201: paymentAccountAddedBody,
        ...WRITE_ERRORS,
        409: errorBody,
        502: errorBody,
        503: errorBody,
      },
    },
  },
  "/api/app/integrations/social-accounts": {
    post: {
      operationId: "linkSocialAccount",
      tags: ["Integrations"],
      summary:
        "Links an Instagram account (exchange_token): the code and state from Instagram's return page",
      body: socialExchangeApiSchema,
      responses: {
        201: socialAccountLinkedBody,
        ...WRITE_ERRORS,
        409: errorBody,
        502: errorBody,
        503: errorBody,
      },
    },
    patch: {
      operationId: "unlinkSocialAccount",
      tags: ["Integrations"],
      summary:
        "Unlinks an Instagram account (unlink_account): the project's only one, or the one integration.account.userName, userName or accountId names",
      body: socialUnlinkApiSchema,
      responses: { 200: okBody, ...WRITE_ERRORS },
    },
  },
  "/api/newsletter": {
    get: {
      operationId: "getNewsletterDomains",
      tags: ["Newsletter"],
      summary:
        "Sender domains of a project (path=domains&studioId=) or one domain's DNS records (path=domains/{id}/dns-records); errors in `error`",
      query: z.object({
        path: z.string(),
        studioId: z.string().optional(),
      }),
      responses: { 200: senderDomainsBody.or(dnsRecordsBody), ...ERRORS },
    },
    post: {
      operationId: "addOrVerifyNewsletterDomain",
      tags: ["Newsletter"],
      summary:
        "Adds a sender domain (path=domains, body {domain, region, metadata}, studioId in the body or the query) or verifies one (path=domains/{id}/verify, body {domainId} or none)",
      query: z.object({ path: z.string(), studioId: z.string().optional() }),
      body: z.object({
        studioId: z.string().optional(),
        domain: z.string().optional(),
        region: z.literal("us-east-1").optional(),
        metadata: z.record(z.string(), z.unknown()).optional(),
        domainId: z.string().optional(),
      }),
      responses: {
        200: senderDomainBody,
        201: senderDomainBody,
        ...WRITE_ERRORS,
        409: errorBody,
        502: errorBody,
        503: errorBody,
      },
    },
    patch: {
      operationId: "updateNewsletterDomain",
      tags: ["Newsletter"],
      summary:
        "Replaces the metadata kept with a sender domain (path=domains/{id}, body {metadata})",
      query: z.object({ path: z.string() }),
      body: z.object({ metadata: z.record(z.string(), z.unknown()) }),
      responses: { 200: senderDomainBody, ...WRITE_ERRORS },
    },
    delete: {
      operationId: "deleteNewsletterDomain",
      tags: ["Newsletter"],
      summary: "Deletes a sender domain (path=domains/{id}) at the provider and here",
      query: z.object({ path: z.string() }),
      responses: { 200: okFlagBody, ...WRITE_ERRORS, 502: errorBody, 503: errorBody },
    },
  },
  "/api/app/forms/{id}": {
    get: {
      operationId: "getForm",
      tags: ["Forms"],
      summary: "A form (settings and submission count) and a page of its submissions, newest first",
      pathParams: ["id"],
      query: z.object({ q: z.string().optional(), after: z.string().optional() }),
      responses: { 200: formBody, ...ERRORS },
    },
  },
  "/api/app/forms/export/{id}": {
    get: {
      operationId: "exportFormSubmissions",
      tags: ["Forms"],
      summary: "Every submission of the form as CSV (one column per field), streamed",
      pathParams: ["id"],
      responses: { 200: CSV_BODY, ...ERRORS },
    },
  },
  "/api/app/forms/settings": {
    post: {
      operationId: "updateFormSettings",
      tags: ["Forms"],
      summary: "Changes a form's settings (on/off, notification e-mails, address after submitting)",
      body: formSettingsApiSchema,
      responses: { 200: formSettingsBody, ...WRITE_ERRORS },
    },
  },
  "/api/app/forms/submissions/delete/{id}": {
    post: {
      operationId: "deleteFormSubmission",
      tags: ["Forms"],
      summary: "Deletes one submission (id) of the form (formId)",
      pathParams: ["id"],
      body: submissionsDeleteApiSchema,
      responses: { 200: okFlagBody, ...WRITE_ERRORS },
    },
  },
  "/api/app/forms/submissions/deleteAll/{id}": {
    post: {
      operationId: "deleteAllFormSubmissions",
      tags: ["Forms"],
      summary: "Deletes every submission of the form (id, the same as formId)",
      pathParams: ["id"],
      body: submissionsDeleteApiSchema,
      responses: { 200: deleteAllBody, ...WRITE_ERRORS },
    },
  },
  "/api/payments/stripe": {
    post: {
      operationId: "listStripeCatalog",
      tags: ["Integrations"],
      summary:
        "One page of a stored Stripe account's products or prices (resource products|prices, action list)",
      query: stripeListQuerySchema,
      body: stripeListBodySchema,
      responses: { 200: stripeListBody, ...WRITE_ERRORS, 502: errorBody, 503: errorBody },
    },
  },
  "/api/app/domains": {
    put: {
      operationId: "changeCustomDomain",
      tags: ["Domains"],
      summary: "Sets (action update) or reverts (action revert) the custom domain of a site",
      body: domainApiSchema,
      responses: { 200: domainChangeBody, ...WRITE_ERRORS, 409: errorBody, 429: errorBody },
    },
  },
  "/api/app/members": {
    post: {
      operationId: "inviteMember",
      tags: ["Members"],
      summary: "Invites an e-mail, or resends a pending invitation",
      body: inviteMemberSchema,
      responses: {
        200: inviteBody,
        201: inviteBody,
        ...WRITE_ERRORS,
        409: errorBody,
        429: errorBody,
      },
    },
    patch: {
      operationId: "changeMember",
      tags: ["Members"],
      summary: "Accepts an invitation, leaves the project, or changes a member's role",
      body: patchMemberSchema,
      responses: { 200: memberChangeBody, ...WRITE_ERRORS, 409: errorBody, 410: errorBody },
    },
    delete: {
      operationId: "removeMember",
      tags: ["Members"],
      summary: "Revokes an invitation or removes a member",
      body: removeMemberSchema,
      responses: { 200: memberChangeBody, ...WRITE_ERRORS, 409: errorBody },
    },
  },
  "/api/app/project-invite": {
    post: {
      operationId: "resendStudioInvite",
      tags: ["Members"],
      summary: "Resends the content studio's invitation",
      body: projectInviteSchema,
      responses: { 200: studioInviteBody, ...WRITE_ERRORS, 409: errorBody, 502: errorBody },
    },
  },
  "/api/user": {
    get: {
      operationId: "getCurrentUser",
      tags: ["User"],
      summary: "The caller: name, e-mail, platform admin or not, and whether an invitation waits",
      responses: { 200: userBody, 401: errorBody },
    },
  },
  "/api/deployments/{studioId}": {
    get: {
      operationId: "listDeployments",
      tags: ["Deployments"],
      summary: "The site's deployments: ?page= (first provider) or ?next= / ?prev= (second)",
      pathParams: ["studioId"],
      query: listDeploymentsSchema,
      responses: { 200: deploymentListBody, ...ERRORS, 502: errorBody, 503: errorBody },
    },
  },
};
