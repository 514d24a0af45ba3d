import type { ActionFunctionArgs } from "@remix-run/node";
import { projectInviteSchema } from "~/services/studio.schema";
import { resendStudioInvite } from "~/services/studio.server";
import { handleApi, parseInput, readJson } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

const notAllowed = () =>
  Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });

export function loader() {
  return notAllowed();
}

/**
 * POST /api/app/project-invite {projectId, email}: resend the content provider's invitation.
 * 200 `{ok, outcome, email}`; 400 bad body, 401 anonymous, 403 someone else's e-mail, 404 not a
 * member, 409 studio not provisioned yet, 502 the provider failed (retryable).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return notAllowed();
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const input = parseInput(projectInviteSchema, await readJson(request, 16 * 1024));
    // A content provider failure is an UpstreamError: handleApi answers 502 with Retry-After.
    const result = await resendStudioInvite(user, input.projectId, input.email);
    return Response.json({ ok: true, ...result });
  });
}
