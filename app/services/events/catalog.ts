/**
 * Every event a project tells the outside world about (webhooks; personal e-mail notifications
 * read the same list), each with its payload schema and the project roles that may subscribe.
 * Payloads carry ids, names and states: never a secret, a token, a vendor's error text or a
 * visitor's form fields, and no personal data beyond the person the event is about (the member
 * invited, the new owner). The envelope around a payload (type, timestamp, project) is
 * `eventEnvelope`'s. docs/decisions/047-project-events-and-webhooks.md.
 */
import { z } from "zod";
import { MEMBER_ROLES } from "~/services/members";

/** A project role, the owner included: who may subscribe to what. */
export type ProjectRole = "owner" | (typeof MEMBER_ROLES)[number];

const ALL: ProjectRole[] = ["owner", "admin", "developer", "editor"];
const ADMINS: ProjectRole[] = ["owner", "admin"];
const BUILDERS: ProjectRole[] = ["owner", "admin", "developer"];

const role = z.enum(MEMBER_ROLES);
const deploymentId = z.string().min(1).describe("The hosting provider's id of the deployment");
const domain = z.object({
  domain: z.string().describe("The custom domain"),
  provider: z.enum(["netlify", "vercel"]).describe("The hosting provider the domain is set at"),
});
const member = z.object({
  memberId: z.string().describe("The member's id in the project's member list"),
  email: z.string().describe("The address the member was invited at"),
  role,
});

export const EVENT_CATALOG = {
  "deployment.started": {
    label: "Deployment started",
    roles: BUILDERS,
    payload: z.object({
      deploymentId,
      trigger: z.enum(["initial", "retry", "manual", "automatic"]),
    }),
  },
  "deployment.succeeded": {
    label: "Deployment succeeded",
    roles: BUILDERS,
    payload: z.object({ deploymentId, url: z.string().nullable() }),
  },
  "deployment.failed": {
    label: "Deployment failed",
    roles: ALL,
    payload: z.object({
      deploymentId: deploymentId.nullable(),
      permanent: z.boolean().describe("True once the retries are spent (handled by support)"),
      errorPageUrl: z.string().describe("The dashboard page that explains the failure"),
    }),
  },
  "deployment.rolledBack": {
    label: "Deployment rolled back",
    roles: BUILDERS,
    payload: z.object({ deploymentId }),
  },
  "domain.verified": { label: "Custom domain verified", roles: ADMINS, payload: domain },
  "domain.certificateReady": {
    label: "Custom domain certificate ready",
    roles: ADMINS,
    payload: domain,
  },
  "domain.released": {
    label: "Custom domain released",
    roles: ADMINS,
    payload: domain.extend({
      reason: z
        .enum(["reverted", "unverified"])
        .describe("Reverted by a person, or released unverified after the waiting time"),
    }),
  },
  "member.invited": { label: "Member invited", roles: ADMINS, payload: member },
  "member.joined": { label: "Member joined", roles: ADMINS, payload: member },
  "member.left": { label: "Member left", roles: ADMINS, payload: member },
  "member.removed": { label: "Member removed", roles: ADMINS, payload: member },
  "member.roleChanged": {
    label: "Member's role changed",
    roles: ADMINS,
    payload: member.extend({ previousRole: role }),
  },
  "project.created": {
    label: "Project created",
    roles: ADMINS,
    payload: z.object({ siteType: z.enum(["business", "enterprise"]) }),
  },
  "project.transferred": {
    label: "Project transferred",
    roles: ADMINS,
    payload: z.object({ newOwnerEmail: z.string().describe("The new owner's address") }),
  },
  "project.deleted": { label: "Project deleted", roles: ADMINS, payload: z.object({}) },
  "support.access": {
    label: "Support access",
    roles: ADMINS,
    payload: z.object({
      access: z.enum(["viewed", "changed"]),
      what: z.string().describe("What support did, e.g. 'viewed the project'"),
    }),
  },
  "form.submission": {
    label: "Form submission",
    roles: ALL,
    payload: z.object({
      formId: z.string(),
      formName: z.string(),
      submissionId: z.string(),
      submissionsUrl: z.string().describe("The Forms page listing the submissions"),
    }),
  },
} as const satisfies Record<
  string,
  { label: string; roles: ProjectRole[]; payload: z.ZodObject<z.ZodRawShape> }
>;

export type ProjectEventType = keyof typeof EVENT_CATALOG;
export const PROJECT_EVENT_TYPES = Object.keys(EVENT_CATALOG) as ProjectEventType[];
export type ProjectEventPayload<T extends ProjectEventType> = z.infer<
  (typeof EVENT_CATALOG)[T]["payload"]
>;

export function isProjectEventType(value: string): value is ProjectEventType {
  return Object.hasOwn(EVENT_CATALOG, value);
}

/** Whether a person of `role` in the project may subscribe to `type`. */
export function maySubscribe(role: ProjectRole, type: ProjectEventType): boolean {
  return (EVENT_CATALOG[type].roles as readonly ProjectRole[]).includes(role);
}

/** The body every consumer sends: Standard Webhooks' recommended shape (type, timestamp, data). */
export type EventEnvelope = {
  type: ProjectEventType;
  timestamp: string;
  data: Record<string, unknown> & { project: { studioId: string; name: string } };
};

export function eventEnvelope(event: {
  type: string;
  createdAt: Date;
  studioId: string;
  projectName: string;
  payload: Record<string, unknown>;
}): EventEnvelope {
  return {
    type: event.type as ProjectEventType,
    timestamp: event.createdAt.toISOString(),
    data: { project: { studioId: event.studioId, name: event.projectName }, ...event.payload },
  };
}
