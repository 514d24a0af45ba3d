import { inviteMemberSchema, patchMemberSchema, removeMemberSchema } from "~/services/members";
import { acceptInvitation } from "~/services/members/index.server";
import { changeMemberRole, leaveProject, removeMember } from "~/services/members/index.server";
import { inviteMember } from "~/services/members/index.server";
import { apiRoute, jsonBody } from "~/web/api.server";
import { requireRecentProof } from "~/web/proof.server";

/**
 * The members API:
 * - POST {studioId, email, role}: invite (201 `{ok, outcome: "sent", member}`), or resend to a
 *   still-invited e-mail (200 `{outcome: "resent"}`); 409 when already a member.
 * - PATCH {studioId, memberInvitationKey, action: "accept", email}: accept (200 `{ok, studioId}`);
 *   {studioId, action: "leave"}: leave; {studioId, action: "role", memberId, role}: change a role.
 * - DELETE {memberEmail, memberId, memberInvitationKey, studioId}: revoke or remove (200
 *   `{ok, outcome: "revoked" | "removed"}`).
 * 400 bad body, 401 anonymous, 403 not allowed (or the owner; or, with a cookie, making someone
 * an admin without a recent proof: app/web/proof.server.ts), 404 project hidden or member gone.
 */
const api = apiRoute({
  POST: async ({ request, user }) => {
    const input = await jsonBody(request, inviteMemberSchema);
    // Making someone an admin asks a recent proof of a signed-in browser; a token passes (decision 039).
    if (input.role === "admin") await requireRecentProof(request, user);
    const result = await inviteMember(user, input, { onExisting: "resend" });
    return Response.json(
      { ok: true, ...result },
      { status: result.outcome === "sent" ? 201 : 200 },
    );
  },
  PATCH: async ({ request, user }) => {
    const input = await jsonBody(request, patchMemberSchema);
    switch (input.action) {
      case "accept":
        return Response.json({ ok: true, ...(await acceptInvitation(user, input)) });
      case "leave":
        await leaveProject(user, input.studioId);
        return Response.json({ ok: true });
      case "role":
        if (input.role === "admin") await requireRecentProof(request, user);
        return Response.json({ ok: true, ...(await changeMemberRole(user, input)) });
    }
  },
  DELETE: async ({ request, user }) => {
    const input = await jsonBody(request, removeMemberSchema);
    return Response.json({ ok: true, ...(await removeMember(user, input)) });
  },
});

export const loader = api.loader;
export const action = api.action;
