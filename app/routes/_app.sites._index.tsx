import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import type { CreateProjectActionData } from "~/components/projects/create-project-dialog";
import { LazyCreateProjectDialog } from "~/components/projects/create-project-dialog.lazy";
import { ProjectListPage, type ProjectListData } from "~/components/projects/project-list";
import { invitationsAction } from "~/web/invitations-action.server";
import type { InvitationIntent } from "~/components/members/member-intents";
import { dispatchIntent, formFailure, type IntentContext } from "~/web/intents.server";
import { PendingInvitations } from "~/components/members/pending-invitations";
import { listPendingInvitations, type PendingInvitation } from "~/services/members/index.server";
import { InvalidError, type ServiceError } from "~/services/core";
import { createProjectSchema, reviewProjectSchema } from "~/services/projects";
import { listProjects, reviewProject } from "~/services/projects/index.server";
import { createProjectAndProvision } from "~/services/lifecycle/index.server";
import { formReply, readForm } from "~/web/http.server";
import { listParams } from "~/web/list-query";
import { requireUser, safeRedirect } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Projects | StackShift" }];

/** The project list (also served at /, see _app._index.tsx): first page server-side. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const { query, cursor } = listParams(url.searchParams);
  // Platform admins choose 'My projects' (default) or 'All projects' (support, decision 011).
  const scope = user.isAdmin && url.searchParams.get("scope") === "all" ? "all" : "mine";
  // Pending invitations above the list; the section is not shown when there are none.
  const invitations = await listPendingInvitations(user);
  try {
    const page = await listProjects(user, { query, cursor, scope });
    return {
      ...page,
      query,
      cursor,
      scope,
      canSeeAll: user.isAdmin,
      isAdmin: user.isAdmin,
      invitations,
    } satisfies ProjectListData & {
      isAdmin: boolean;
      invitations: PendingInvitation[];
    };
  } catch (error) {
    // A mangled "Load more" link: start from the newest projects rather than fail.
    if (error instanceof InvalidError && cursor) {
      url.searchParams.delete("cursor");
      throw redirect(`${url.pathname}${url.search}`);
    }
    throw error;
  }
}

// Opening the Create New dialog (?dialog=create) does not reload the list; polling still does.
export { overlayShouldRevalidate as shouldRevalidate } from "~/components/shell/shell-helpers";

const reply = (body: CreateProjectActionData, failure?: ServiceError | number) =>
  formReply(body, failure);

/** Only a same-site path, and never one that reopens the dialog. */
function backTo(value: FormDataEntryValue | null): string | undefined {
  const path = safeRedirect(value, "");
  if (!path) return undefined;
  const url = new URL(path, "http://local");
  url.searchParams.delete("dialog");
  url.searchParams.delete("index");
  return `${url.pathname}${url.search}`;
}

/**
 * The 'Create New' dialog's action (it posts here from any page). Intents: "review" validates
 * and answers with the confirmation and its idempotency key (the no-JavaScript first step),
 * "edit" goes back to the form, "create" creates the project and redirects: to `redirectTo`
 * when the dialog sent one (with JavaScript: back to the page it came from), otherwise to the
 * new project's page, with a toast either way.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  // An oversized or unreadable body is answered by readForm with a 4xx JSON response.
  const formData = await readForm(request, 16 * 1024);
  const redirectTo = backTo(formData.get("redirectTo"));
  // Accept / Decline of a pending invitation (app/components/members/pending-invitations.tsx).
  const invitation = ({ intent }: IntentContext) =>
    invitationsAction(user, intent as InvitationIntent, formData, { page: "sites" });

  return dispatchIntent(
    request,
    {
      "invitation-accept": invitation,
      "invitation-decline": invitation,
      // The no-JavaScript first step: validated, answered with the confirmation and its key.
      review: async () => {
        const submission = parseWithZod(formData, { schema: reviewProjectSchema });
        if (submission.status !== "success")
          return reply({ result: submission.reply(), redirectTo }, 400);
        try {
          const confirm = reviewProject(user, submission.value);
          return reply({ result: submission.reply(), redirectTo, confirm });
        } catch (caught) {
          const error = formFailure(caught);
          return reply(
            { result: submission.reply({ formErrors: [error.message] }), redirectTo },
            error,
          );
        }
      },
      // Back from the confirmation to the form, as typed.
      edit: async () => {
        const submission = parseWithZod(formData, { schema: reviewProjectSchema });
        const failure = submission.status === "success" ? undefined : 400;
        return reply({ result: submission.reply(), redirectTo, confirm: null }, failure);
      },
      create: async () => {
        const submission = parseWithZod(formData, { schema: createProjectSchema });
        if (submission.status !== "success")
          return reply({ result: submission.reply(), redirectTo }, 400);
        try {
          const { project } = await createProjectAndProvision(user, submission.value);
          return redirectWithToast(redirectTo ?? `/sites/${project.studioId}`, {
            type: "success",
            title: `Project ${project.name} created!`,
          });
        } catch (caught) {
          const error = formFailure(caught);
          return reply(
            { result: submission.reply({ formErrors: [error.message] }), redirectTo },
            error,
          );
        }
      },
    },
    { maxBytes: 16 * 1024, formData },
  );
}

export default function Sites() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigate = useNavigate();
  return (
    <>
      <PendingInvitations invitations={page.invitations} />
      <ProjectListPage page={page} />
      {/* Only for a no-JavaScript submit that landed here; the top bar opens ?dialog=create. */}
      {actionData ? (
        <LazyCreateProjectDialog
          open
          isAdmin={page.isAdmin}
          lastResult={actionData}
          onOpenChange={(open) => {
            const back = "redirectTo" in actionData ? actionData.redirectTo : undefined;
            if (!open) navigate(back ?? "/sites", { replace: true });
          }}
        />
      ) : null}
    </>
  );
}
