import { Form, Link, useLocation, useSearchParams } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { LOGOUT_ACTION } from "~/components/shell/logout-button";
import { Button, ButtonLink, buttonClass } from "~/components/ui/button";
import type { InvitationView, ProjectInvitationView } from "~/services/members/index.server";
import { useIsPending } from "~/utils/use-is-pending";
import { INVITATION_INTENTS } from "./member-intents";

const note =
  "rounded-md border border-slate-200 bg-slate-50 p-3 text-sm dark:border-slate-700 dark:bg-slate-800";

/**
 * The invitation card: 'You are invited to collaborate!', the project and role,
 * Ignore and Accept Invitation; the no-new-password note when the e-mail has an account. Expired
 * and invalid links get their own clear page.
 */
export function InvitationScreen({
  invitation,
  viewerEmail,
}: {
  invitation: InvitationView;
  viewerEmail: string | null;
}) {
  if (invitation.state === "expired") {
    return (
      <AuthCard title="This invitation has expired">
        <p className="text-sm text-slate-700 dark:text-slate-200">
          The invitation for {invitation.invitedEmail} to collaborate on{" "}
          <strong>{invitation.projectName}</strong> is more than 7 days old. Ask the project&apos;s
          owner or an admin to resend it: the new email will have a fresh link.
        </p>
        <GoHome />
      </AuthCard>
    );
  }
  if (invitation.state === "invalid") {
    return (
      <AuthCard title="This invitation is no longer valid">
        <p className="text-sm text-slate-700 dark:text-slate-200">
          The link may have been revoked, replaced by a newer invitation (only the latest email
          works), or already used. Ask the project&apos;s owner or an admin to invite you again.
        </p>
        <GoHome />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="You are invited to collaborate!">
      <InvitationCard invitation={invitation} viewerEmail={viewerEmail} />
    </AuthCard>
  );
}

function GoHome() {
  return (
    <p className="mt-6 text-sm">
      <Link to="/" className="text-brand underline">
        Go to StackShift
      </Link>
    </p>
  );
}

/**
 * The same card inside the product: a project's dashboard shows it to the project's invitee.
 * Its forms post to the dashboard, which answers the invitation of its project.
 */
export function ProjectInvitationScreen({
  invitation,
  viewerEmail,
}: {
  invitation: ProjectInvitationView;
  viewerEmail: string;
}) {
  const expired = invitation.state === "expired";
  return (
    <section
      aria-labelledby="invitation-heading"
      className="mx-auto max-w-md rounded-lg bg-white p-8 shadow dark:bg-slate-900"
    >
      <h1 id="invitation-heading" className="mb-6 text-xl font-semibold">
        {expired ? "This invitation has expired" : "You are invited to collaborate!"}
      </h1>
      {invitation.state === "expired" ? (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-200">
            The invitation for {invitation.invitedEmail} to collaborate on{" "}
            <strong>{invitation.projectName}</strong> is more than 7 days old. Ask the
            project&apos;s owner or an admin to resend it.
          </p>
          <GoHome />
        </>
      ) : (
        <InvitationCard
          invitation={invitation}
          viewerEmail={viewerEmail}
          intents={{ accept: INVITATION_INTENTS[0], decline: INVITATION_INTENTS[1] }}
        />
      )}
    </section>
  );
}

function InvitationCard({
  invitation,
  viewerEmail,
  intents = { accept: "accept", decline: "decline" },
}: {
  invitation: Omit<Extract<InvitationView, { state: "valid" }>, "key">;
  viewerEmail: string | null;
  /** The `intent` values of Accept and Decline where the card's forms post. */
  intents?: { accept: string; decline: string };
}) {
  const accepting = useIsPending({ intent: intents.accept });
  const declining = useIsPending({ intent: intents.decline });
  const busy = accepting ? intents.accept : declining ? intents.decline : null;
  // The card's own page (/invitations/{key}): where login or signup comes back to.
  const back = encodeURIComponent(useLocation().pathname);
  const [searchParams] = useSearchParams();
  const confirmDecline =
    invitation.viewer === "invitee" && searchParams.get("confirm") === "decline";

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-200">
        {invitation.invitedBy ? `${invitation.invitedBy} invited ` : "An invitation for "}
        <strong className="break-all">{invitation.invitedEmail}</strong>
        {invitation.invitedBy ? " to collaborate on this project:" : " to collaborate:"}
      </p>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">Project</dt>
        <dd className="break-words">{invitation.projectName}</dd>
        <dt className="font-medium">Role</dt>
        <dd>{invitation.roleLabel}</dd>
      </dl>

      {invitation.viewer === "anonymous" ? (
        invitation.accountExists ? (
          <p role="note" className={note}>
            {invitation.invitedEmail} already has a StackShift account: no new password is needed.
            Log in with your existing account to accept.{" "}
            <Link to={`/auth/login?redirectTo=${back}`} className="text-brand underline">
              Log in
            </Link>
          </p>
        ) : (
          <p role="note" className={note}>
            Create your StackShift account with {invitation.invitedEmail} first; you will come back
            here to accept.{" "}
            <Link
              to={`/signup?email=${encodeURIComponent(invitation.invitedEmail)}&redirectTo=${back}`}
              className="text-brand underline"
            >
              Sign up
            </Link>
          </p>
        )
      ) : null}

      {invitation.viewer === "other" ? (
        <div role="note" className={note}>
          <p>
            You are logged in as <strong className="break-all">{viewerEmail}</strong>, but this
            invitation was sent to <strong className="break-all">{invitation.invitedEmail}</strong>.
            Log out, then open this link again and log in with that address
            {invitation.accountExists ? " (no new password is needed)" : ""}.
          </p>
          <Form method="post" action={LOGOUT_ACTION} className="mt-2">
            <button type="submit" className={buttonClass("secondary")}>
              Log out
            </button>
          </Form>
        </div>
      ) : null}

      {confirmDecline ? (
        <Form method="post" role="alert" className={`${note} space-y-2`}>
          <p>
            Decline the invitation to {invitation.projectName}? The project&apos;s admins will see
            that you declined, and this link will stop working.
          </p>
          <div className="flex justify-end gap-3">
            <ButtonLink to="." replace variant="secondary">
              Cancel
            </ButtonLink>
            <Button
              type="submit"
              name="intent"
              value={intents.decline}
              variant="danger"
              disabled={busy !== null}
            >
              {busy === intents.decline ? "Declining..." : "Yes, decline"}
            </Button>
          </div>
        </Form>
      ) : null}

      <Form method="post" className="flex flex-wrap items-center justify-end gap-3">
        {invitation.viewer === "invitee" && !confirmDecline ? (
          <Link to="?confirm=decline" replace className="mr-auto text-sm text-red-700 underline">
            Decline invitation
          </Link>
        ) : null}
        <ButtonLink to="/" variant="secondary">
          Ignore
        </ButtonLink>
        {invitation.viewer !== "other" ? (
          <Button type="submit" name="intent" value={intents.accept} disabled={busy !== null}>
            {busy === intents.accept ? "Accepting invitation..." : "Accept Invitation"}
          </Button>
        ) : null}
      </Form>
    </div>
  );
}
