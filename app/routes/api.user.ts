import type { LoaderFunctionArgs } from "@remix-run/node";
import { hasPendingInvitations } from "~/services/invitation-answers.server";
import { handleApi } from "~/web/http.server";
import { requireApiUser } from "~/web/session.server";

/**
 * GET /api/user: the signed-in person (or the owner of the token) as the specification's User
 * entity, `{id, name, email, isAdmin, isMemberInvited}`. 401 without a session or token.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(request);
    return Response.json({
      id: user.id,
      name: user.name,
      email: user.email,
      isAdmin: user.isAdmin,
      isMemberInvited: await hasPendingInvitations(user),
    });
  });
}
