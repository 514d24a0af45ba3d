import { Link, useFetcher, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { useRef, useState, type MouseEvent } from "react";
import { renderWhenNear, useHydrated, type PartHeight } from "~/utils/page-load";
import { urlWith } from "~/components/shell/shell-helpers";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClass } from "~/components/ui/button";
import { Dialog, DialogCancelLink } from "~/components/ui/dialog";
import type { DisplayedMember, MembersView } from "~/services/members/index.server";
import { LazyInviteMemberForm } from "./invite-member-form.lazy";
import { LazyRoleForm } from "./role-form.lazy";
import { usePageWithoutConfirm, useSettled } from "./member-form-hooks";
import { TableHead } from "~/components/ui/table-head";

/** `?confirm=remove:{id}`, `?confirm=revoke:{id}` or `?confirm=leave`: works without JavaScript. */
type Confirm = { kind: "remove" | "revoke"; member: DisplayedMember } | { kind: "leave" };

function parseConfirm(value: string | null, members: DisplayedMember[]): Confirm | null {
  if (!value) return null;
  if (value === "leave") return { kind: "leave" };
  const [kind, id] = value.split(":");
  if (kind !== "remove" && kind !== "revoke") return null;
  const member = members.find((m) => m.id === id && !m.isOwner);
  return member ? { kind, member } : null;
}

/**
 * The table's height before it is drawn (renderWhenNear): its head and a row per member; a row
 * with the role form and its buttons is taller. Measured at 1280 and 375 px, except a plain row's
 * narrow height (80), estimated short, the safer side.
 */
function tableHeight(view: MembersView): PartHeight {
  return {
    fixed: [36, 36],
    row: view.canManage ? [55, 117] : [37, 80],
    rows: view.members.length,
  };
}

const confirmValue = (c: Confirm) => (c.kind === "leave" ? "leave" : `${c.kind}:${c.member.id}`);

/**
 * The Members section of the dashboard: the invite form and the
 * table for the owner, member admins and platform admins; a plain member's own row with Leave.
 */
/** A members form kept while "Confirm it's you" was asked, to fill again (app/web/proof.server.ts). */
export type MemberFormRefill = {
  intent: "member-invite" | "member-role";
  values: Record<string, string | string[]>;
} | null;

const single = (value: string | string[] | undefined) =>
  typeof value === "string" ? value : undefined;

export function MembersSection({
  studioId,
  projectName,
  view,
  refill = null,
}: {
  studioId: string;
  projectName: string;
  view: MembersView;
  refill?: MemberFormRefill;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const fromUrl = parseConfirm(searchParams.get("confirm"), view.members);
  const [local, setLocal] = useState<Confirm | null>(null);
  const confirm = local ?? fromUrl;
  const back = usePageWithoutConfirm();
  const location = useLocation();

  // The link that opened the confirmation gets the focus back when it closes.
  const opener = useRef<HTMLElement | null>(null);
  const openConfirm = (next: Confirm) => (event: MouseEvent<HTMLElement>) => {
    if (!hydrated) return;
    event.preventDefault();
    opener.current = event.currentTarget;
    setLocal(next);
  };
  const closeConfirm = () => {
    setLocal(null);
    if (fromUrl) navigate(back, { replace: true, preventScrollReset: true });
    const target = opener.current;
    opener.current = null;
    // After the dialog has unmounted.
    if (target) setTimeout(() => target.isConnected && target.focus(), 0);
  };
  const confirmHref = (next: Confirm) =>
    urlWith(location.pathname, location.search, { confirm: confirmValue(next) });

  return (
    <section
      aria-labelledby="members-heading"
      className="space-y-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id="members-heading" className="text-lg font-semibold">
        Members
      </h2>
      {view.canManage ? (
        <LazyInviteMemberForm
          studioId={studioId}
          takenEmails={view.takenEmails}
          initial={
            refill?.intent === "member-invite"
              ? { email: single(refill.values.email), role: single(refill.values.role) }
              : undefined
          }
        />
      ) : null}
      {/* The table only: the confirmation dialog below is fixed, which containment would break. */}
      <div {...renderWhenNear(tableHeight(view), "relative overflow-x-auto")}>
        <table className="min-w-full text-left text-sm">
          <caption className="sr-only">Members of {projectName}</caption>
          <TableHead
            columns={[
              "Name",
              "Email",
              "Role",
              "Status",
              <span key="actions" className="sr-only">
                Actions
              </span>,
            ]}
          />
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {view.members.map((member) => (
              <MemberRow
                key={member.id}
                studioId={studioId}
                member={member}
                canManage={view.canManage}
                canLeave={view.canLeave}
                refill={refill}
                confirmLink={(next) => ({
                  to: confirmHref(next),
                  onClick: openConfirm(next),
                })}
              />
            ))}
          </tbody>
        </table>
      </div>
      {view.members.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">Nothing to show here yet...</p>
      ) : null}
      {view.total > view.members.length ? (
        <p className="text-sm">
          Showing {view.members.length} of {view.total}.{" "}
          <Link
            to={`${urlWith(location.pathname, location.search, { confirm: null, members: "all" })}#members-heading`}
            preventScrollReset
            className="font-medium text-brand underline"
          >
            Show all {view.total} members
          </Link>
        </p>
      ) : null}
      {confirm ? (
        <ConfirmDialog
          studioId={studioId}
          projectName={projectName}
          confirm={confirm}
          back={back}
          onClose={closeConfirm}
        />
      ) : null}
    </section>
  );
}

function StatusBadges({ member }: { member: DisplayedMember }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {member.status === "accepted" ? (
        <Badge tone="green">Accepted</Badge>
      ) : (
        <Badge tone="yellow">Invited</Badge>
      )}
      {member.expired ? <Badge tone="red">Expired</Badge> : null}
    </span>
  );
}

function MemberRow({
  studioId,
  member,
  canManage,
  canLeave,
  refill,
  confirmLink,
}: {
  studioId: string;
  member: DisplayedMember;
  canManage: boolean;
  canLeave: boolean;
  refill: MemberFormRefill;
  confirmLink: (next: Confirm) => {
    to: string;
    onClick: (event: MouseEvent<HTMLElement>) => void;
  };
}) {
  const manageable = canManage && !member.isOwner;
  const invited = member.status === "invited";
  return (
    <tr>
      <td className="py-2 pr-4">
        {member.name}
        {member.isSelf ? <span className="text-slate-500"> (you)</span> : null}
      </td>
      <td className="break-all py-2 pr-4">{member.email}</td>
      <td className="py-2 pr-4">
        {manageable ? (
          <LazyRoleForm
            studioId={studioId}
            member={member}
            initialRole={
              refill?.intent === "member-role" && single(refill.values.memberId) === member.id
                ? single(refill.values.role)
                : undefined
            }
          />
        ) : (
          member.roleLabel
        )}
      </td>
      <td className="py-2 pr-4">
        <StatusBadges member={member} />
      </td>
      <td className="py-2 pr-4">
        <div className="flex flex-wrap justify-end gap-2">
          {manageable && invited ? <ResendButton studioId={studioId} member={member} /> : null}
          {manageable && invited ? (
            <Link
              preventScrollReset
              className={buttonClass("secondary", "px-3 py-1")}
              aria-label={`Revoke the invitation of ${member.email}`}
              {...confirmLink({ kind: "revoke", member })}
            >
              Revoke
            </Link>
          ) : null}
          {manageable && !invited && !member.isSelf ? (
            <Link
              preventScrollReset
              className={buttonClass("secondary", "px-3 py-1")}
              aria-label={`Remove ${member.email}`}
              {...confirmLink({ kind: "remove", member })}
            >
              Remove
            </Link>
          ) : null}
          {member.isSelf && !member.isOwner && canLeave ? (
            <Link
              preventScrollReset
              className={buttonClass("secondary", "px-3 py-1")}
              {...confirmLink({ kind: "leave" })}
            >
              Leave
            </Link>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

function ResendButton({ studioId, member }: { studioId: string; member: DisplayedMember }) {
  const fetcher = useFetcher();
  const back = usePageWithoutConfirm();
  // Busy state resending_invitation.
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={`/sites/${studioId}`}>
      <input type="hidden" name="intent" value="member-resend" />
      <input type="hidden" name="memberId" value={member.id} />
      <input type="hidden" name="redirectTo" value={back} />
      <Button
        type="submit"
        variant="secondary"
        className="px-3 py-1"
        disabled={busy}
        aria-label={`Resend the invitation to ${member.email}`}
      >
        {busy ? "Resending..." : "Resend"}
      </Button>
    </fetcher.Form>
  );
}

function ConfirmDialog({
  studioId,
  projectName,
  confirm,
  back,
  onClose,
}: {
  studioId: string;
  projectName: string;
  confirm: Confirm;
  back: string;
  onClose: () => void;
}) {
  const fetcher = useFetcher();
  // Busy states removing / leaving_project.
  const busy = fetcher.state !== "idle";
  useSettled(fetcher, () => onClose());

  const text =
    confirm.kind === "leave"
      ? {
          title: "Leave project?",
          body: `You will lose access to ${projectName} until someone invites you again.`,
          action: "Yes, leave",
          busy: "Leaving...",
        }
      : confirm.kind === "revoke"
        ? {
            title: "Revoke invitation?",
            body: `The invitation link sent to ${confirm.member.email} will stop working.`,
            action: "Yes, revoke",
            busy: "Revoking...",
          }
        : {
            title: `Remove ${confirm.member.name}?`,
            body: `${confirm.member.email} will lose access to ${projectName} right away.`,
            action: "Yes, remove",
            busy: "Removing...",
          };

  return (
    <Dialog
      open
      onOpenChange={(next) => {
        if (!next && !busy) onClose();
      }}
      role="alertdialog"
      title={text.title}
      description={text.body}
    >
      <fetcher.Form method="post" action={`/sites/${studioId}`} className="flex justify-end gap-3">
        <input type="hidden" name="redirectTo" value={back} />
        {confirm.kind === "leave" ? (
          <input type="hidden" name="intent" value="member-leave" />
        ) : (
          <>
            <input type="hidden" name="intent" value="member-remove" />
            <input type="hidden" name="memberId" value={confirm.member.id} />
            <input type="hidden" name="memberEmail" value={confirm.member.email} />
            {confirm.member.memberInvitationKey ? (
              <input
                type="hidden"
                name="memberInvitationKey"
                value={confirm.member.memberInvitationKey}
              />
            ) : null}
          </>
        )}
        <DialogCancelLink back={back} busy={busy} onClose={onClose} />
        <Button type="submit" variant="danger" disabled={busy}>
          {busy ? text.busy : text.action}
        </Button>
      </fetcher.Form>
    </Dialog>
  );
}
