/**
 * What a notification mail says of an event, in plain words, from the event's stored payload
 * (its schema is the catalogue's). No server imports: tests read it too.
 */
import { ROLE_LABEL } from "~/services/members";
import type { NotifiableEvent } from "./schema";

type Payload = Record<string, unknown>;

const str = (value: unknown) => (typeof value === "string" ? value : "");
const role = (value: unknown) =>
  (ROLE_LABEL as Record<string, string>)[str(value)]?.toLowerCase() ?? str(value);

/** One sentence saying what happened in the project named `project`. */
export function eventSentence(type: NotifiableEvent, project: string, payload: Payload): string {
  const p = `"${project}"`;
  switch (type) {
    case "deployment.failed":
      return payload.permanent
        ? `A deployment of ${p} failed after its retries. Our team handles it from here.`
        : `A deployment of ${p} failed.`;
    case "deployment.started":
      return `A deployment of ${p} started.`;
    case "deployment.succeeded":
      return `A deployment of ${p} succeeded.`;
    case "deployment.rolledBack":
      return `A deployment of ${p} was rolled back.`;
    case "domain.verified":
      return `The custom domain ${str(payload.domain)} of ${p} is verified.`;
    case "domain.certificateReady":
      return `The certificate of the custom domain ${str(payload.domain)} of ${p} is ready.`;
    case "domain.released":
      return payload.reason === "unverified"
        ? `The custom domain ${str(payload.domain)} of ${p} was released: it was not verified in time.`
        : `The custom domain ${str(payload.domain)} was removed from ${p}.`;
    case "member.invited":
      return `${str(payload.email)} was invited to ${p} as ${role(payload.role)}.`;
    case "member.joined":
      return `${str(payload.email)} joined ${p} as ${role(payload.role)}.`;
    case "member.left":
      return `${str(payload.email)} left ${p}.`;
    case "member.removed":
      return `${str(payload.email)} was removed from ${p}.`;
    case "member.roleChanged":
      return `The role of ${str(payload.email)} in ${p} changed from ${role(payload.previousRole)} to ${role(payload.role)}.`;
    case "project.created":
      return `The project ${p} was created.`;
    case "project.transferred":
      return `${p} was transferred to ${str(payload.newOwnerEmail)}.`;
    case "support.access":
      return `StackShift support ${payload.access === "changed" ? "changed" : "viewed"} ${p}: ${str(payload.what)}.`;
  }
}

/** A further link of the event, if it has one: the failed deployment's explanation, the site. */
export function eventLink(type: NotifiableEvent, payload: Payload): string | null {
  if (type === "deployment.failed" && str(payload.errorPageUrl)) {
    return `What went wrong: ${str(payload.errorPageUrl)}`;
  }
  if (type === "deployment.succeeded" && str(payload.url)) return `The site: ${str(payload.url)}`;
  return null;
}
