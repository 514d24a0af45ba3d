import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import {
  acceptLocalInvite,
  findLocalInvite,
  getLocalStudio,
} from "~/providers/content-studio/local";
import { readForm } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `StackShift Studio - ${data.studio.displayName}` : "StackShift Studio" },
  { name: "robots", content: "noindex" },
];

async function studioOr404(projectId: string | undefined) {
  const studio = await getLocalStudio(projectId ?? "");
  if (!studio) throw new Response("Not Found", { status: 404 });
  return studio;
}

/**
 * The local content studio (PROVIDERS=local), standing in for a hosted Sanity studio: where
 * 'Take me to Studio' lands, and where the invitation e-mail's link (?accept={inviteId}) is
 * accepted, with a POST form so it works without JavaScript.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const studio = await studioOr404(params.projectId);
  const acceptId = new URL(request.url).searchParams.get("accept");
  const invite = acceptId ? await findLocalInvite(studio.id, acceptId) : null;
  return {
    studio,
    accept: acceptId
      ? invite && invite.status !== "revoked"
        ? { id: invite.id, email: invite.email, accepted: invite.status === "accepted" }
        : { missing: true as const }
      : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const studio = await studioOr404(params.projectId);
  const form = await readForm(request, 4 * 1024);
  const inviteId = form.get("inviteId");
  const invite =
    typeof inviteId === "string" && inviteId ? await acceptLocalInvite(studio.id, inviteId) : null;
  if (!invite) {
    return data({ error: "This invitation is no longer valid." }, { status: 404 });
  }
  return redirectWithToast(`/local/studio/${encodeURIComponent(studio.id)}`, {
    type: "success",
    title: "Invitation accepted",
    description: `Welcome to ${studio.displayName}.`,
  });
}

export default function LocalStudio() {
  const { studio, accept } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <main className="mx-auto max-w-2xl space-y-6 p-10">
      <header>
        <p className="text-sm text-slate-500">Local content studio (stands in for Sanity)</p>
        <h1 className="mt-1 text-2xl font-semibold">StackShift Studio - {studio.displayName}</h1>
      </header>
      {result?.error ? (
        <p role="alert" className="text-red-600 dark:text-red-400">
          {result.error}
        </p>
      ) : null}
      {accept && "missing" in accept ? (
        <p role="alert">
          This invitation is no longer valid. Ask for a new one from the dashboard.
        </p>
      ) : accept?.accepted ? (
        <p>The invitation for {accept.email} is accepted. You can use the studio.</p>
      ) : accept ? (
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
    </main>
  );
}
