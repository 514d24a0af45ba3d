import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireProjectMember } from "~/web/project-loader.server";
import { ProjectSectionPage } from "~/components/project-dashboard/section-page";
import { projectTitle, useProject } from "~/components/project-dashboard/project-frame";
import { SchemaVersionSection } from "~/components/settings/schema-version-section";
import {
  DeleteProjectSection,
  RenameSection,
  SecondFactorSection,
  TransferSection,
  WebhooksLinkSection,
} from "~/components/settings/project-settings-sections";
import { deleteProject } from "~/services/projects/index.server";
import { InvalidError } from "~/services/core";
import {
  DELETE_PROJECT_INTENT,
  deleteProjectSchema,
  RENAME_INTENT,
  renameProjectSchema,
  REQUIRE_TWO_FACTOR_INTENT,
  requireTwoFactorSchema,
  SCHEMA_VERSION_INTENT,
  schemaVersionFormSchema,
  TRANSFER_INTENT,
  transferOwnershipSchema,
} from "~/services/projects";
import {
  getProjectSettings,
  getSchemaVersion,
  raiseSchemaVersion,
  renameProject,
  setRequireTwoFactor,
  transferOwnership,
} from "~/services/projects/index.server";
import { projectDataDigest } from "~/services/projects/index.server";
import { dispatchIntent, formFailure } from "~/web/intents.server";
import { requireRecentProof, stashedForm } from "~/web/proof.server";
import { sectionVersion } from "~/web/section-version.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ matches }) => projectTitle(matches, "Settings");

/** /sites/settings/{studioId}: owner, members and platform admins (others get 404). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, project } = await requireProjectMember(request, params.studioId);
  // Read before the sections: a change landing meanwhile makes the next version check differ.
  const digest = await projectDataDigest(project._id, "settings");
  const [schema, settings, transferTyped, deleteTyped] = await Promise.all([
    getSchemaVersion(user, project.studioId),
    getProjectSettings(user, project.studioId),
    // What the form had typed before /auth/confirm sent the owner to prove it is them.
    stashedForm(request, TRANSFER_INTENT),
    stashedForm(request, DELETE_PROJECT_INTENT),
  ]);
  return {
    schema,
    settings,
    stashed: { transfer: transferTyped, delete: deleteTyped },
    // What the 60 s refresh compares with /sites/{id}/version?section=settings.
    dataVersion: sectionVersion(digest),
  };
}

/**
 * The page's five forms, one intent each. Bad input or a refusal goes back to the form that
 * posted (`reply` names it): field errors beside the field, the rest as a toast; done is a
 * redirect with its toast. A project hidden from the user is the dispatcher's 404.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const studioId = params.studioId ?? "";
  const page = `/sites/settings/${studioId}`;
  return dispatchIntent(
    request,
    {
      [RENAME_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: renameProjectSchema });
        if (submission.status !== "success") return reply({ result: submission.reply() }, 400);
        try {
          await renameProject(user, studioId, submission.value.name);
          return redirectWithToast(page, { type: "success", title: "Project renamed" });
        } catch (caught) {
          const error = formFailure(caught);
          return reply({ result: submission.reply({ formErrors: [error.message] }) }, error);
        }
      },
      [REQUIRE_TWO_FACTOR_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: requireTwoFactorSchema });
        if (submission.status !== "success") return reply({ result: submission.reply() }, 400);
        const required = submission.value.requireTwoFactor;
        try {
          const { changed } = await setRequireTwoFactor(user, studioId, required);
          return redirectWithToast(page, {
            type: changed ? "success" : "info",
            title: !changed
              ? "Nothing changed"
              : required
                ? "A second factor is now required of every member"
                : "A second factor is no longer required",
          });
        } catch (caught) {
          const error = formFailure(caught);
          const fields = error instanceof InvalidError ? error.fieldErrors : {};
          const errors = Object.keys(fields).length
            ? { fieldErrors: fields }
            : { formErrors: [error.message] };
          return reply({ result: submission.reply(errors) }, error);
        }
      },
      [TRANSFER_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: transferOwnershipSchema });
        if (submission.status !== "success") return reply({ result: submission.reply() }, 400);
        await requireRecentProof(request, user, { formData });
        try {
          const to = await transferOwnership(user, studioId, submission.value.toUserId);
          return redirectWithToast(page, {
            type: "success",
            title: "Ownership transferred",
            description: `${to.name} now owns the project; you are an admin of it.`,
          });
        } catch (caught) {
          const error = formFailure(caught);
          return reply({ result: submission.reply({ formErrors: [error.message] }) }, error);
        }
      },
      [DELETE_PROJECT_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: deleteProjectSchema });
        if (submission.status !== "success") return reply({ result: submission.reply() }, 400);
        await requireRecentProof(request, user, { formData });
        try {
          const deleted = await deleteProject(user, studioId, submission.value.confirmName);
          return redirectWithToast("/sites", {
            type: "success",
            title: `Project ${deleted.name} deleted`,
          });
        } catch (caught) {
          const error = formFailure(caught);
          // A wrong name is said beside the field; any other refusal is the toast.
          const fields = error instanceof InvalidError ? error.fieldErrors : {};
          const errors = Object.keys(fields).length
            ? { fieldErrors: fields }
            : { formErrors: [error.message] };
          return reply({ result: submission.reply(errors) }, error);
        }
      },
      // 'Raise version' (platform admins): a version not above the current one, or not a
      // platform admin, is said back to the form.
      [SCHEMA_VERSION_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: schemaVersionFormSchema });
        if (submission.status !== "success") return reply({ result: submission.reply() }, 400);
        try {
          const change = await raiseSchemaVersion(user, studioId, submission.value.schemaVersion);
          return redirectWithToast(page, {
            type: "success",
            title: `StackShift version raised to ${change.to}.`,
          });
        } catch (caught) {
          const error = formFailure(caught);
          return reply({ result: submission.reply({ formErrors: [error.message] }) }, error);
        }
      },
    },
    { maxBytes: 4 * 1024 },
  );
}

export default function ProjectSettingsRoute() {
  const { schema, settings, stashed, dataVersion } = useLoaderData<typeof loader>();
  const project = useProject();
  return (
    <ProjectSectionPage section="settings" dataVersion={dataVersion} status>
      <RenameSection view={settings} />
      <TransferSection view={settings} stashed={stashed.transfer} />
      <SecondFactorSection view={settings} />
      <WebhooksLinkSection view={settings} studioId={project.studioId} />
      <SchemaVersionSection view={schema} />
      <DeleteProjectSection view={settings} stashed={stashed.delete} />
    </ProjectSectionPage>
  );
}
