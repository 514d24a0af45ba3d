import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  FORM_SETTINGS_INTENT,
  FormSettings,
  FormsList,
  HeldMailsNotice,
  NOTIFICATION_RESEND_INTENT,
  resendErrorKey,
  SUBMISSION_DELETE_INTENT,
  SUBMISSIONS_DELETE_ALL_INTENT,
  Submissions,
} from "~/components/forms/form-submissions";
import { requireProjectMember } from "~/web/project-loader.server";
import { ProjectSectionPage } from "~/components/project-dashboard/section-page";
import { projectTitle } from "~/components/project-dashboard/project-frame";
import { ForbiddenError, NotFoundError, RateLimitedError } from "~/services/core";
import { resendConfirmation } from "~/services/forms/index.server";
import {
  deleteAllSchema,
  deleteSubmissionSchema,
  FORM_MESSAGES,
  formSettingsSchema,
  resendConfirmationSchema,
} from "~/services/forms";
import {
  deleteAllSubmissions,
  deleteSubmission,
  getSubmission,
  listSubmissions,
  saveFormSettings,
} from "~/services/forms/index.server";
import { projectDataDigest } from "~/services/projects/index.server";
import { dispatchIntent, formFailure } from "~/web/intents.server";
import { listParams } from "~/web/list-query";
import { sectionVersion } from "~/web/section-version.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ matches }) => projectTitle(matches, "Forms");

/**
 * /sites/forms/{studioId}: the site's forms with their submission counts; the chosen form's
 * (?form=, else the first) settings and submissions (?q= search, ?after= older page,
 * ?submission= one opened). Members read; the owner, admins and platform admins change.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, project } = await requireProjectMember(request, params.studioId);
  const url = new URL(request.url);
  // Read before the lists: a submission landing meanwhile makes the next version check differ.
  const digest = await projectDataDigest(project._id, "forms");
  const { query, cursor } = listParams(url.searchParams, { cursor: "after" });
  const submissions = await listSubmissions(user, project.studioId, {
    formId: url.searchParams.get("form") ?? undefined,
    q: query,
    after: cursor ?? undefined,
  });
  const chosen = submissions.form;
  const openedId = url.searchParams.get("submission");
  const opened = openedId
    ? await getSubmission(user, project.studioId, chosen.id, openedId).catch((error) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      })
    : null;
  return {
    forms: submissions.forms,
    submissions,
    opened,
    exportUrl: `/resources/forms-export/${chosen.id}`,
    // What the 60 s refresh compares with /sites/{id}/version?section=forms.
    dataVersion: sectionVersion(digest),
  };
}

/** Form settings, a notification address's link sent again, delete one submission, delete all. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const studioId = params.studioId ?? "";
  const page = (formId?: string) =>
    `/sites/forms/${encodeURIComponent(studioId)}${formId ? `?form=${formId}` : ""}`;
  return dispatchIntent(
    request,
    {
      [FORM_SETTINGS_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: formSettingsSchema });
        if (submission.status !== "success") return reply({ result: submission.reply() }, 400);
        try {
          await saveFormSettings(user, studioId, submission.value);
        } catch (caught) {
          // Past the limit of confirmation links per person or per project: beside the
          // addresses, what was typed kept (429 with Retry-After, with or without JavaScript).
          if (!(caught instanceof RateLimitedError)) throw caught;
          return reply(
            {
              result: submission.reply({ fieldErrors: { notificationEmails: [caught.message] } }),
            },
            caught,
          );
        }
        return redirectWithToast(page(submission.value.formId), {
          type: "success",
          title: FORM_MESSAGES.settingsSaved,
        });
      },
      [NOTIFICATION_RESEND_INTENT]: async ({ formData, reply }) => {
        const parsed = resendConfirmationSchema.safeParse(Object.fromEntries(formData));
        if (!parsed.success) throw new NotFoundError("Form not found");
        const { formId, email } = parsed.data;
        try {
          await resendConfirmation(user, studioId, formId, email);
        } catch (caught) {
          // Refused (limited, already confirmed, no longer listed): said beside the address. Not
          // allowed at all: the toast, like the page's other forms.
          const error = formFailure(caught);
          if (error instanceof ForbiddenError) throw error;
          return reply(
            { result: { status: "error", error: { [resendErrorKey(email)]: [error.message] } } },
            error,
          );
        }
        return redirectWithToast(page(formId), {
          type: "success",
          title: FORM_MESSAGES.linkResent,
          description: `A new confirmation link went to ${email}.`,
        });
      },
      [SUBMISSION_DELETE_INTENT]: async ({ formData }) => {
        const parsed = deleteSubmissionSchema.safeParse(Object.fromEntries(formData));
        if (!parsed.success) throw new NotFoundError("Submission not found");
        await deleteSubmission(user, studioId, parsed.data.formId, parsed.data.submissionId);
        return redirectWithToast(page(parsed.data.formId), {
          type: "success",
          title: FORM_MESSAGES.deleted,
        });
      },
      [SUBMISSIONS_DELETE_ALL_INTENT]: async ({ formData }) => {
        const parsed = deleteAllSchema.safeParse(Object.fromEntries(formData));
        if (!parsed.success) throw new NotFoundError("Form not found");
        const n = await deleteAllSubmissions(user, studioId, parsed.data.formId);
        return redirectWithToast(page(parsed.data.formId), {
          type: "success",
          title: FORM_MESSAGES.allDeleted,
          description: `${n} submission${n === 1 ? "" : "s"} deleted.`,
        });
      },
    },
    {
      maxBytes: 16 * 1024,
      onError: (error, { intent }) =>
        redirectWithToast(page(), {
          type: "error",
          title:
            intent === FORM_SETTINGS_INTENT
              ? FORM_MESSAGES.settingsFailed
              : FORM_MESSAGES.deleteFailed,
          description: error.message,
        }),
    },
  );
}

export default function FormsPage() {
  const { forms, submissions, opened, exportUrl, dataVersion } = useLoaderData<typeof loader>();
  return (
    <ProjectSectionPage
      section="forms"
      dataVersion={dataVersion}
      description="What visitors send through your site's forms."
    >
      <HeldMailsNotice held={forms.heldMails} />
      <FormsList forms={forms.forms} current={submissions.form.id} />
      <Submissions
        key={`${submissions.form.id}|${submissions.q}`}
        view={submissions}
        exportUrl={exportUrl}
        canManage={forms.canManage}
        opened={opened}
      />
      <FormSettings key={submissions.form.id} form={submissions.form} canManage={forms.canManage} />
    </ProjectSectionPage>
  );
}
