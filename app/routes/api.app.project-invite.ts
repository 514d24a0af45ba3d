import { projectInviteSchema } from "~/services/studio";
import { resendStudioInvite } from "~/services/studio/index.server";
import { apiRoute, jsonBody } from "~/web/api.server";

/**
 * POST /api/app/project-invite {projectId, email}: resend the content provider's invitation.
 * 200 `{ok, outcome, email}`; 400 bad body, 401 anonymous, 403 someone else's e-mail, 404 not a
 * member, 409 studio not provisioned yet, 502 the provider failed (retryable).
 */
const api = apiRoute({
  POST: async ({ request, user }) => {
    const input = await jsonBody(request, projectInviteSchema);
    // A content provider failure is an UpstreamError: apiRoute answers 502 with Retry-After.
    const result = await resendStudioInvite(user, input.projectId, input.email);
    return Response.json({ ok: true, ...result });
  },
});

export const loader = api.loader;
export const action = api.action;
