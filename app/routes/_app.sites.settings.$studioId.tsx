import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadProjectSection } from "~/components/project-dashboard/project-loader.server";
import { ProjectSectionPage } from "~/components/project-dashboard/section-page";
import { SchemaVersionSection } from "~/components/settings/schema-version-section";
import { DomainError, NotFoundError } from "~/services/errors";
import { SCHEMA_VERSION_INTENT, schemaVersionFormSchema } from "~/services/project-settings.schema";
import { getSchemaVersion, raiseSchemaVersion } from "~/services/project-settings.server";
import { formReply, readForm } from "~/utils/http.server";
import { notFound } from "~/utils/responses.server";
import { requireUser } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Settings | ${data.project.name} | StackShift` : "Settings | StackShift" },
];

/** /sites/settings/{studioId}: owner, members and platform admins (others get 404). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const section = await loadProjectSection(request, params.studioId);
  const user = await requireUser(request);
  return { ...section, schema: await getSchemaVersion(user, section.project.studioId) };
}

/**
 * 'Raise version' (platform admins): back to the page with 'StackShift version raised to {n}.',
 * or the reason beside the form (a version not above the current one, not a platform admin).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const studioId = params.studioId ?? "";
  const formData = await readForm(request, 4 * 1024);
  if (formData.get("intent") !== SCHEMA_VERSION_INTENT) {
    return formReply({ result: { status: "error", error: { "": ["Unknown form"] } } }, 400);
  }
  const submission = parseWithZod(formData, { schema: schemaVersionFormSchema });
  if (submission.status !== "success") return formReply({ result: submission.reply() }, 400);
  try {
    const change = await raiseSchemaVersion(user, studioId, submission.value.schemaVersion);
    return redirectWithToast(`/sites/settings/${studioId}`, {
      type: "success",
      title: `StackShift version raised to ${change.to}.`,
    });
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (!(error instanceof DomainError)) throw error;
    return formReply({ result: submission.reply({ formErrors: [error.message] }) }, error);
  }
}

export default function ProjectSettingsRoute() {
  const { project, schema } = useLoaderData<typeof loader>();
  return (
    <ProjectSectionPage section="settings" project={project}>
      <SchemaVersionSection view={schema} />
    </ProjectSectionPage>
  );
}
