import { parseWithZod } from "@conform-to/zod/v4";
import { rememberAddressProof } from "~/web/address-proof.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { InvitationScreen } from "~/components/members/invitation-card";
import { ServiceError } from "~/services/core";
import { invitationCardSchema, MEMBER_TOASTS } from "~/services/members";
import {
  acceptInvitation,
  declineInvitation,
  getInvitation,
} from "~/services/members/index.server";
import { invitationPath } from "~/services/members/index.server";
import { readForm } from "~/web/http.server";
import { getOptionalUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title:
      data?.invitation.state === "valid"
        ? `Invitation to ${data.invitation.projectName} | StackShift`
        : "Invitation | StackShift",
  },
];

/**
 * /invitations/{invitationKey}: the invitation card. Anyone holding the link
 * sees it; an unknown, revoked or used key is a 404 page and an expired one a 410 page, never an
 * error screen.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  const invitation = await getInvitation(params.invitationKey ?? "", user);
  const status = invitation.state === "valid" ? 200 : invitation.state === "expired" ? 410 : 404;
  // Opened from its e-mail: remember the address proof for the signup that may follow.
  const proof = new URL(request.url).searchParams.get("proof");
  const setCookie =
    !user && invitation.state === "valid"
      ? await rememberAddressProof(invitation.invitedEmail, proof)
      : undefined;
  return data(
    { invitation, viewerEmail: user?.email ?? null },
    { status, headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

/**
 * Accept Invitation (and Ignore, signed in as the invitee). Without a session the person signs
 * up (or logs in, when the e-mail has an account) and comes back to this card.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const key = params.invitationKey ?? "";
  const card = invitationPath(key);
  const submission = parseWithZod(await readForm(request, 4 * 1024), {
    schema: invitationCardSchema,
  });
  if (submission.status !== "success") {
    return redirectWithToast(card, { type: "error", title: MEMBER_TOASTS.acceptFailed });
  }
  const intent = submission.value.intent;
  const user = await getOptionalUser(request);

  if (!user) {
    if (intent === "decline") return redirect("/");
    const invitation = await getInvitation(key, null);
    if (invitation.state !== "valid") return redirect(card);
    const back = encodeURIComponent(card);
    return redirect(
      invitation.accountExists
        ? `/auth/login?redirectTo=${back}`
        : `/signup?email=${encodeURIComponent(invitation.invitedEmail)}&redirectTo=${back}`,
    );
  }

  try {
    if (intent === "decline") {
      await declineInvitation(user, key);
      return redirectWithToast("/", { type: "info", title: MEMBER_TOASTS.declined });
    }
    const accepted = await acceptInvitation(user, { memberInvitationKey: key });
    return redirectWithToast(`/sites/${accepted.studioId}`, {
      type: "success",
      title: MEMBER_TOASTS.accepted,
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return redirectWithToast(intent === "decline" ? "/" : card, {
      type: "error",
      title: MEMBER_TOASTS.acceptFailed,
      description: error.message,
    });
  }
}

export default function InvitationPage() {
  const { invitation, viewerEmail } = useLoaderData<typeof loader>();
  return <InvitationScreen invitation={invitation} viewerEmail={viewerEmail} />;
}
