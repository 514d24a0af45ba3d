import { Form } from "@remix-run/react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import type { PendingInvitation } from "~/services/members/index.server";
import { useIsPending } from "~/utils/use-is-pending";
import { INVITATION_INTENTS } from "./member-intents";

const [ACCEPT, DECLINE] = INVITATION_INTENTS;

/**
 * The signed-in user's pending invitations above the project list on /sites: the
 * project, who invited and the role, with Accept and Decline (plain form posts to the page's
 * action, so they work before JavaScript loads). Nothing is shown when there are none.
 */
export function PendingInvitations({ invitations }: { invitations: PendingInvitation[] }) {
  if (invitations.length === 0) return null;
  return (
    <section aria-labelledby="pending-invitations-heading" className="mb-8 space-y-3">
      <h2 id="pending-invitations-heading" className="text-lg font-semibold">
        Pending invitations
      </h2>
      <ul className="space-y-3">
        {invitations.map((invitation) => (
          <li key={invitation.studioId}>
            <InvitationItem invitation={invitation} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function InvitationItem({ invitation }: { invitation: PendingInvitation }) {
  const fields = { studioId: invitation.studioId };
  const accepting = useIsPending({ intent: ACCEPT, fields });
  const declining = useIsPending({ intent: DECLINE, fields });
  const busy = accepting ? ACCEPT : declining ? DECLINE : null;
  const headingId = `invitation-${invitation.studioId}`;
  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-brand/30 bg-white p-4 shadow-sm dark:bg-slate-900"
    >
      <div className="min-w-0 space-y-1">
        <h3 id={headingId} className="break-words font-semibold">
          {invitation.projectName}
        </h3>
        <p className="text-sm text-slate-700 dark:text-slate-200">
          {invitation.invitedBy
            ? `${invitation.invitedBy} invited you to collaborate as `
            : "You are invited to collaborate as "}
          <Badge tone="blue">{invitation.roleLabel}</Badge>
        </p>
      </div>
      <Form method="post" className="flex gap-3">
        <input type="hidden" name="studioId" value={invitation.studioId} />
        <Button
          type="submit"
          name="intent"
          value={DECLINE}
          variant="secondary"
          disabled={busy !== null}
        >
          {busy === DECLINE ? "Declining..." : "Decline"}
        </Button>
        <Button type="submit" name="intent" value={ACCEPT} disabled={busy !== null}>
          {busy === ACCEPT ? "Accepting invitation..." : "Accept"}
        </Button>
      </Form>
    </article>
  );
}
