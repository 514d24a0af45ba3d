import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Button } from "~/components/ui/button";
import { TableHead } from "~/components/ui/table-head";
import {
  acceptLocalInvite,
  findLocalInvite,
  getLocalStudio,
  localStudioAccessFor,
} from "~/providers/content-studio/local.server";
import type { StudioPeople } from "~/providers/content-studio/types";
import { formErrorOf } from "~/utils/form-errors";
import { formReply, readForm, requireLocalProviders } from "~/web/http.server";
import { invariantResponse } from "~/utils/responses.server";
import { getOptionalUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `StackShift Studio - ${data.studio.displayName}` : "StackShift Studio" },
  { name: "robots", content: "noindex" },
];

async function studioOr404(projectId: string | undefined) {
  requireLocalProviders();
  const studio = await getLocalStudio(projectId ?? "");
  invariantResponse(studio, "Not Found");
  return studio;
}

function loginUrl(studioId: string, inviteId: string) {
  const back = `/local/studio/${encodeURIComponent(studioId)}?accept=${encodeURIComponent(inviteId)}`;
  return `/auth/login?redirectTo=${encodeURIComponent(back)}`;
}

type AcceptView =
  | { state: "missing" }
  | { state: "login"; loginUrl: string }
  | { state: "otherAddress"; signedInAs: string }
  | { state: "pending"; id: string; email: string }
  | { state: "accepted"; email: string };

/**
 * The local content studio (PROVIDERS=local only), standing in for a hosted Sanity studio: where
 * 'Take me to Studio' lands, and where the invitation e-mail's link (?accept={inviteId}) is
 * accepted, with a POST form so it works without JavaScript. Only the signed-in account with the
 * invited address may accept; the invitation's details are shown to that account alone.
 * The studio's members see its Members table (members and pending invitations, with their
 * roles), as on the vendor's members page; everyone else is told to log in as a member.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const studio = await studioOr404(params.projectId);
  const user = await getOptionalUser(request);
  const access: StudioPeople | null = user
    ? await localStudioAccessFor(studio.id, user.email)
    : null;
  const acceptId = new URL(request.url).searchParams.get("accept");
  if (!acceptId) return { studio, accept: null, access };
  const invite = await findLocalInvite(studio.id, acceptId);
  let accept: AcceptView;
  if (!invite || invite.status === "revoked") accept = { state: "missing" };
  else if (!user) accept = { state: "login", loginUrl: loginUrl(studio.id, invite.id) };
  else if (user.email.toLowerCase() !== invite.email)
    accept = { state: "otherAddress", signedInAs: user.email };
  else if (invite.status === "accepted") accept = { state: "accepted", email: invite.email };
  else accept = { state: "pending", id: invite.id, email: invite.email };
  return { studio, accept, access };
}

/** The accept form: the invitation it answers. */
const acceptSchema = z.object({ inviteId: z.string().max(200) });

export async function action({ request, params }: ActionFunctionArgs) {
  const studio = await studioOr404(params.projectId);
  const form = await readForm(request, 4 * 1024);
  const submission = parseWithZod(form, { schema: acceptSchema });
  const refuse = (message: string, status: number) =>
    formReply({ result: submission.reply({ formErrors: [message] }) }, status);
  const inviteId = submission.status === "success" ? submission.value.inviteId : undefined;
  const invite = inviteId ? await findLocalInvite(studio.id, inviteId) : null;
  const invalid = () => refuse("This invitation is no longer valid.", 404);
  if (!invite || invite.status === "revoked") return invalid();
  const user = await getOptionalUser(request);
  if (!user) throw redirect(loginUrl(studio.id, invite.id));
  const result = await acceptLocalInvite(studio.id, invite.id, user.email);
  if (result.outcome === "missing") return invalid();
  if (result.outcome === "otherAddress") {
    return refuse("This invitation is for another address. Log in with the invited address.", 403);
  }
  return redirectWithToast(`/local/studio/${encodeURIComponent(studio.id)}`, {
    type: "success",
    title: "Invitation accepted",
    description: `Welcome to ${studio.displayName}.`,
  });
}

const roleLabel = (role: string) => role.charAt(0).toUpperCase() + role.slice(1);

/** The studio's members and pending invitations, as the vendor's members page lists them. */
function StudioMembers({ access, name }: { access: StudioPeople | null; name: string }) {
  return (
    <section aria-labelledby="studio-members-title" className="space-y-3">
      <h2 id="studio-members-title" className="text-lg font-medium">
        Members
      </h2>
      {access ? (
        <div className="relative overflow-x-auto">
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">Members of the studio {name}</caption>
            <TableHead columns={["Email", "Role", "Status"]} />
            <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
              {access.members.map((member) => (
                <tr key={`m:${member.email}`}>
                  <td className="py-2 pr-3">{member.email}</td>
                  <td className="py-2 pr-3">{member.roles.map(roleLabel).join(", ")}</td>
                  <td className="py-2">Member</td>
                </tr>
              ))}
              {access.invitations.map((invitation) => (
                <tr key={`i:${invitation.email}`}>
                  <td className="py-2 pr-3">{invitation.email}</td>
                  <td className="py-2 pr-3">{roleLabel(invitation.role)}</td>
                  <td className="py-2">Invitation pending</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Log in as a member of this studio to see its members.
        </p>
      )}
    </section>
  );
}

export default function LocalStudio() {
  const { studio, accept, access } = useLoaderData<typeof loader>();
  const refused = formErrorOf(useActionData<typeof action>()?.result);
  const busy = useIsPending();
  return (
    <main className="mx-auto max-w-2xl space-y-6 p-10">
      <header>
        <p className="text-sm text-slate-500">Local content studio (stands in for Sanity)</p>
        <h1 className="mt-1 text-2xl font-semibold">StackShift Studio - {studio.displayName}</h1>
      </header>
      {refused ? (
        <p role="alert" className="text-red-600 dark:text-red-400">
          {refused}
        </p>
      ) : null}
      {accept?.state === "missing" ? (
        <p role="alert">
          This invitation is no longer valid. Ask for a new one from the dashboard.
        </p>
      ) : accept?.state === "login" ? (
        <section aria-labelledby="accept-title" className="space-y-3 rounded-lg border p-6">
          <h2 id="accept-title" className="text-lg font-medium">
            You are invited to edit content in {studio.displayName}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Log in with the address the invitation was sent to, then accept it here.
          </p>
          <Link to={accept.loginUrl} className="font-medium text-brand underline">
            Log in to accept
          </Link>
        </section>
      ) : accept?.state === "otherAddress" ? (
        <p role="alert">
          This invitation is for another address. You are logged in as {accept.signedInAs}; log in
          with the invited address to accept it.
        </p>
      ) : accept?.state === "accepted" ? (
        <p>The invitation for {accept.email} is accepted. You can use the studio.</p>
      ) : accept?.state === "pending" ? (
        <section aria-labelledby="accept-title" className="space-y-3 rounded-lg border p-6">
          <h2 id="accept-title" className="text-lg font-medium">
            You are invited to edit content in {studio.displayName}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Invitation for {accept.email}
          </p>
          <Form method="post">
            <input type="hidden" name="inviteId" value={accept.id} />
            <Button type="submit" disabled={busy}>
              Accept invitation
            </Button>
          </Form>
        </section>
      ) : (
        <p className="text-slate-600 dark:text-slate-300">
          Your content lives here. This built-in studio keeps the place of the hosted content studio
          when the dashboard runs with its local providers.
        </p>
      )}
      <StudioMembers access={access} name={studio.displayName} />
    </main>
  );
}
