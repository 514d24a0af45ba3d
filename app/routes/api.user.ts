import { hasPendingInvitations } from "~/services/members/index.server";
import { apiRoute } from "~/web/api.server";

/**
 * GET /api/user: the signed-in person (or the owner of the token) as the specification's User
 * entity, `{id, name, email, isAdmin, isMemberInvited}`. 401 without a session or token.
 */
const api = apiRoute({
  GET: async ({ user }) =>
    Response.json({
      id: user.id,
      name: user.name,
      email: user.email,
      isAdmin: user.isAdmin,
      isMemberInvited: await hasPendingInvitations(user),
    }),
});

export const loader = api.loader;
export const action = api.action;
