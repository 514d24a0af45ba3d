import { z } from "zod";
import { InvalidError, NotFoundError } from "~/services/core";
import {
  addSenderDomain,
  deleteSenderDomain,
  listSenderDomains,
  senderDomainRecords,
  studioIdOfDomain,
  updateSenderDomainMetadata,
  verifySenderDomain,
} from "~/services/newsletter/index.server";
import { NEWSLETTER_MESSAGES } from "~/services/newsletter";
import { apiRoute, jsonBody, methodNotAllowed } from "~/web/api.server";
import { parseInput, readJson } from "~/web/http.server";

/** `path`: domains, domains/{id}, domains/{id}/dns-records or domains/{id}/verify. */
function route(request: Request) {
  const url = new URL(request.url);
  const path = (url.searchParams.get("path") ?? "").replace(/^\/+|\/+$/g, "");
  const match = /^domains(?:\/([^/]+)(?:\/(dns-records|verify))?)?$/.exec(path);
  if (!match)
    throw new InvalidError(
      "path must be domains, domains/{id}, domains/{id}/dns-records or domains/{id}/verify",
    );
  return { domainId: match[1], sub: match[2], studioId: url.searchParams.get("studioId") ?? "" };
}

async function studioOf(domainId: string | undefined) {
  if (!domainId) throw new InvalidError(NEWSLETTER_MESSAGES.domainIdRequired);
  const studioId = await studioIdOfDomain(domainId);
  if (!studioId) throw new NotFoundError("Domain not found");
  return studioId;
}

const createSchema = z.object({
  studioId: z.string({ error: "studioId is required" }).trim().min(1).max(100),
  domain: z.string({ error: "domain is required" }).trim().min(3).max(253),
  region: z.literal("us-east-1", { error: "region must be us-east-1" }).default("us-east-1"),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const metadataSchema = z.object({
  metadata: z.record(z.string(), z.unknown(), { error: "metadata must be an object" }),
});

const ALLOW = "GET, POST, PATCH, DELETE";

/**
 * GET ?path=domains&studioId= -> {data: [domains]}; GET ?path=domains/{id}/dns-records -> {data:
 * [records]} (the table's rows: '@' hosts, the DMARC record). Everyone who sees the project;
 * errors come back in `error`.
 *
 * POST ?path=domains {studioId, domain, region, metadata} -> 201 {data} (studioId in the body or
 * the query); POST ?path=domains/{id}/verify -> {data} (verified or not yet); DELETE
 * ?path=domains/{id} -> {ok}. The owner, admins and platform admins; 409 'Domain already exists'.
 * PATCH ?path=domains/{id} {metadata} replaces what the caller keeps with the domain.
 */
const api = apiRoute({
  GET: async ({ request, user }) => {
    const { domainId, sub, studioId } = route(request);
    if (!domainId) {
      if (!studioId) throw new InvalidError("studioId is required");
      const view = await listSenderDomains(user, studioId);
      return Response.json({ data: view.domains, error: view.error });
    }
    if (sub !== "dns-records") throw new InvalidError("path must be domains/{id}/dns-records");
    const records = await senderDomainRecords(user, await studioOf(domainId), domainId);
    if (records.length === 0) throw new InvalidError(NEWSLETTER_MESSAGES.noRecords);
    return Response.json({ data: records });
  },
  POST: async ({ request, user }) => {
    const { domainId, sub, studioId } = route(request);
    if (!domainId) {
      // The specification's body names no project: ?studioId= as the list takes it does too.
      const body = await readJson(request, 8 * 1024);
      const input = parseInput(createSchema, {
        ...(studioId ? { studioId } : {}),
        ...(typeof body === "object" && body !== null ? body : {}),
      });
      const domain = await addSenderDomain(user, input.studioId, input.domain, input.metadata);
      return Response.json({ data: domain }, { status: 201 });
    }
    if (sub !== "verify") return methodNotAllowed(ALLOW);
    const domain = await verifySenderDomain(user, await studioOf(domainId), domainId);
    return Response.json({ data: domain });
  },
  PATCH: async ({ request, user }) => {
    const { domainId, sub } = route(request);
    if (!domainId || sub) return methodNotAllowed(ALLOW);
    const input = await jsonBody(request, metadataSchema, 4 * 1024);
    const domain = await updateSenderDomainMetadata(
      user,
      await studioOf(domainId),
      domainId,
      input.metadata,
    );
    return Response.json({ data: domain });
  },
  DELETE: async ({ request, user }) => {
    const { domainId, sub } = route(request);
    if (!domainId || sub) return methodNotAllowed(ALLOW);
    await deleteSenderDomain(user, await studioOf(domainId), domainId);
    return Response.json({ ok: true });
  },
});

export const loader = api.loader;
export const action = api.action;
