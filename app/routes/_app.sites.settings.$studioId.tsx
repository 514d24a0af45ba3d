import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadProjectSection } from "~/web/project-loader.server";
import { ProjectSectionPage } from "~/components/project-dashboard/section-page";
import { SchemaVersionSection } from "~/components/settings/schema-version-section";
import {
  DeleteProjectSection,
  RenameSection,
  TransferSection,
} from "~/components/settings/project-settings-sections";
import { deleteProject } from "~/services/project-deletion.server";
import { ServiceError, InvalidError, NotFoundError } from "~/services/errors";
import {
  DELETE_PROJECT_INTENT,
  deleteProjectSchema,
  RENAME_INTENT,
  renameProjectSchema,
  SCHEMA_VERSION_INTENT,
  schemaVersionFormSchema,
  TRANSFER_INTENT,
  transferOwnershipSchema,
} from "~/services/project-settings.schema";
import {
  getProjectSettings,
  getSchemaVersion,
  raiseSchemaVersion,
  renameProject,
  transferOwnership,
} from "~/services/project-settings.server";
import { formReply, readForm } from "~/web/http.server";
import { notFound } from "~/utils/responses.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { ProjectNotFoundError } from "~/services/permissions.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Settings | ${data.project.name} | StackShift` : "Settings | StackShift" },
];

/** /sites/settings/{studioId}: owner, members and platform admins (others get 404). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const section = await loadProjectSection(request, params.studioId);
  const user = await requireUser(request);
  const [schema, settings] = await Promise.all([
    getSchemaVersion(user, section.project.studioId),
    getProjectSettings(user, section.project.studioId),
  ]);
  return { ...section, schema, settings };
}

/**
 * 'Raise version' (platform admins): back to the page with 'StackShift version raised to {n}.',
 * or the reason beside the form (a version not above the current one, not a platform admin).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const studioId = params.studioId ?? "";
  const formData = await readForm(request, 4 * 1024);
  const page = `/sites/settings/${studioId}`;
  if (formData.get("intent") === RENAME_INTENT) {
    const submission = parseWithZod(formData, { schema: renameProjectSchema });
    if (submission.status !== "success") return formReply({ result: submission.reply() }, 400);
    try {
      await renameProject(user, studioId, submission.value.name);
      return redirectWithToast(page, { type: "success", title: "Project renamed" });
    } catch (error) {
      if (error instanceof NotFoundError) notFound();
      if (!(error instanceof ServiceError)) throw error;
      return formReply({ result: submission.reply({ formErrors: [error.message] }) }, error);
    }
  }
  if (formData.get("intent") === TRANSFER_INTENT) {
    const submission = parseWithZod(formData, { schema: transferOwnershipSchema });
    if (submission.status !== "success") return formReply({ result: submission.reply() }, 400);
    try {
      const to = await transferOwnership(user, studioId, submission.value.toUserId);
      return redirectWithToast(page, {
        type: "success",
        title: "Ownership transferred",
        description: `${to.name} now owns the project; you are an admin of it.`,
      });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      if (error instanceof ProjectNotFoundError) notFound();
      return formReply({ result: submission.reply({ formErrors: [error.message] }) }, error);
    }
  }
  if (formData.get("intent") === DELETE_PROJECT_INTENT) {
    const submission = parseWithZod(formData, { schema: deleteProjectSchema });
    if (submission.status !== "success") return formReply({ result: submission.reply() }, 400);
    try {
      const deleted = await deleteProject(user, studioId, submission.value.confirmName);
      return redirectWithToast("/sites", {
        type: "success",
        title: `Project ${deleted.name} deleted`,
      });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      if (error instanceof NotFoundError) notFound();
      const fields = error instanceof InvalidError ? error.fieldErrors : {};
      return formReply(
        { result: submission.reply({ fieldErrors: fields, formErrors: [error.message] }) },
        error,
      );
    }
  }
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
    if (!(error instanceof ServiceError)) throw error;
    return formReply({ result: submission.reply({ formErrors: [error.message] }) }, error);
  }
}

export { ProjectErrorBoundary as ErrorBoundary } from "~/components/project-dashboard/section-page";

export default function ProjectSettingsRoute() {
  const { project, schema, settings } = useLoaderData<typeof loader>();
  return (
    <ProjectSectionPage section="settings" project={project} status>
      <RenameSection view={settings} />
      <TransferSection view={settings} />
      <SchemaVersionSection view={schema} />
      <DeleteProjectSection view={settings} />
    </ProjectSectionPage>
  );
}
