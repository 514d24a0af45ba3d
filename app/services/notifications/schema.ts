/**
 * What a person may be mailed about and the defaults by project role, and the Notifications
 * form's input rules. No server imports (the page's form reads them too).
 * docs/decisions/049-personal-notifications.md.
 */
import { z } from "zod";
import { UUID } from "~/utils/uuid";
import {
  EVENT_CATALOG,
  maySubscribe,
  type ProjectEventType,
  type ProjectRole,
} from "~/services/events";

/** The roles of the settings table, in its columns' order. */
export const NOTIFICATION_ROLES = [
  "owner",
  "admin",
  "developer",
  "editor",
] as const satisfies readonly ProjectRole[];

/**
 * The events a person can be mailed about, in the table's order. Not offered: `project.deleted`
 * (the project's people are gone with it when the event is fanned out) and `form.submission`
 * (mailed per form by the Forms page's notification addresses, with their daily cap).
 */
export const NOTIFIABLE_EVENTS = [
  "deployment.failed",
  "deployment.started",
  "deployment.succeeded",
  "deployment.rolledBack",
  "domain.verified",
  "domain.certificateReady",
  "domain.released",
  "member.invited",
  "member.joined",
  "member.left",
  "member.removed",
  "member.roleChanged",
  "project.created",
  "project.transferred",
  "support.access",
] as const satisfies readonly ProjectEventType[];
export type NotifiableEvent = (typeof NOTIFIABLE_EVENTS)[number];

export function isNotifiable(type: string): type is NotifiableEvent {
  return (NOTIFIABLE_EVENTS as readonly string[]).includes(type);
}

/** The events a person of `role` may be mailed about (EVENT_CATALOG's roles). */
export function eventsFor(role: ProjectRole): NotifiableEvent[] {
  return NOTIFIABLE_EVENTS.filter((type) => maySubscribe(role, type));
}

export const eventLabel = (type: NotifiableEvent) => EVENT_CATALOG[type].label;

const DOMAINS: NotifiableEvent[] = [
  "domain.verified",
  "domain.certificateReady",
  "domain.released",
];
const PEOPLE: NotifiableEvent[] = [
  "member.invited",
  "member.joined",
  "member.left",
  "member.removed",
  "member.roleChanged",
];

export type ByRole = Record<ProjectRole, NotifiableEvent[]>;

/**
 * Without saved settings: owners and admins hear of failed deploys, domains and people;
 * developers and editors of failed deploys only.
 */
export const NOTIFICATION_DEFAULTS: ByRole = {
  owner: ["deployment.failed", ...DOMAINS, ...PEOPLE],
  admin: ["deployment.failed", ...DOMAINS, ...PEOPLE],
  developer: ["deployment.failed"],
  editor: ["deployment.failed"],
};

/** A person's choice for one project, over their settings by role. */
export const PROJECT_MODES = ["settings", "failed-deploys", "none"] as const;
export type ProjectMode = (typeof PROJECT_MODES)[number];
export const PROJECT_MODE_LABEL: Record<ProjectMode, string> = {
  settings: "As the table above says",
  "failed-deploys": "Only failed deploys",
  none: "Nothing",
};

/** Whether a person of `role`, with these settings and this project's mode, is mailed `type`. */
export function wants(
  byRole: ByRole,
  role: ProjectRole,
  mode: ProjectMode,
  type: NotifiableEvent,
): boolean {
  if (!maySubscribe(role, type) || mode === "none") return false;
  if (mode === "failed-deploys") return type === "deployment.failed";
  return byRole[role].includes(type);
}

const eventList = z
  .array(z.enum(NOTIFIABLE_EVENTS, { error: "Choose events from the table" }))
  .max(NOTIFIABLE_EVENTS.length)
  .optional()
  .transform((v) => [...new Set(v ?? [])]);

/** The Notifications page's one form: the table, the digest and each project's choice. */
export const notificationSettingsSchema = z.object({
  owner: eventList,
  admin: eventList,
  developer: eventList,
  editor: eventList,
  digest: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
  projects: z
    .array(
      z.object({
        projectId: z.string({ error: "Choose a project" }).regex(UUID, "Choose a project"),
        mode: z.enum(PROJECT_MODES, { error: "Choose what to mail for this project" }),
      }),
    )
    .max(500)
    .optional()
    .transform((v) => v ?? []),
});
export type NotificationSettingsInput = z.infer<typeof notificationSettingsSchema>;

/** The unsubscribe page of a link that is unknown or older than 90 days. */
export const UNUSABLE_UNSUBSCRIBE =
  "This link is invalid or has expired (it works for 90 days). Turn notifications off in User Settings > Notifications.";

export const NOTIFICATION_MESSAGES = {
  saved: "Notification settings saved",
} as const;
