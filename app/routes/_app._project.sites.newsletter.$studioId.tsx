import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  NEWSLETTER_SAVE_INTENT,
  NEWSLETTER_TEST_INTENT,
  NewsletterSettingsForm,
} from "~/components/newsletter/newsletter-settings-form";
import {
  DOMAIN_ADD_INTENT,
  DOMAIN_DELETE_INTENT,
  DOMAIN_VERIFY_INTENT,
  SENDER_DOMAIN_FIELD,
  SenderDomains,
} from "~/components/newsletter/sender-domains";
import {
  SavedTemplates,
  TEMPLATE_DELETE_INTENT,
  TEMPLATE_RENAME_INTENT,
  TEMPLATE_SAVE_INTENT,
} from "~/components/newsletter/saved-templates";
import { requireProjectMember } from "~/web/project-loader.server";
import { ProjectSectionPage } from "~/components/project-dashboard/section-page";
import { projectTitle } from "~/components/project-dashboard/project-frame";
import { ConflictError, InvalidError, type ServiceError, UpstreamError } from "~/services/core";
import {
  addSenderDomain,
  deleteSenderDomain,
  listSenderDomains,
  SenderDomainLimitError,
  verifySenderDomain,
} from "~/services/newsletter/index.server";
import {
  domainIdSchema,
  LOGO_MAX_BYTES,
  NEWSLETTER_MESSAGES,
  newsletterSettingsSchema,
} from "~/services/newsletter";
import {
  getNewsletterSettings,
  saveNewsletterSettings,
  sendTestEmail,
} from "~/services/newsletter/index.server";
import { projectDataDigest } from "~/services/projects/index.server";
import {
  deleteTemplateSchema,
  renameTemplateSchema,
  saveTemplateSchema,
  TEMPLATE_MESSAGES,
} from "~/services/newsletter";
import {
  deleteTemplate,
  getSavedTemplates,
  renameTemplate,
  saveTemplate,
  TemplateNameTakenError,
} from "~/services/newsletter/index.server";
import { dispatchIntent, formFailure } from "~/web/intents.server";
import { sectionVersion } from "~/web/section-version.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  projectTitle(matches, "Newsletter");

/**
 * /sites/newsletter/{studioId}: the sender settings with their preview, and the sender domains.
 * Everyone who sees the project reads; the owner, admins and platform admins change them.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, project } = await requireProjectMember(request, params.studioId);
  // Read before the sections: a change landing meanwhile (the domains' re-check, which reads
  // the provider only for a domain last asked 5 minutes ago) makes the next check differ.
  const digest = await projectDataDigest(project._id, "newsletter");
  const [view, domains, templates] = await Promise.all([
    getNewsletterSettings(user, project.studioId),
    listSenderDomains(user, project.studioId),
    getSavedTemplates(user, project.studioId),
  ]);
  return {
    view,
    domains,
    templates,
    dataVersion: sectionVersion(digest),
  };
}

/**
 * The page's forms: save, test e-mail, add / verify / delete a sender domain, and save / rename /
 * delete a saved template (a taken name beside the name field, other refusals as a toast).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const studioId = params.studioId ?? "";
  const page = `/sites/newsletter/${encodeURIComponent(studioId)}`;
  const domainId = (formData: FormData) => {
    const parsed = domainIdSchema.safeParse({ domainId: formData.get("domainId") });
    if (!parsed.success) throw new InvalidError(NEWSLETTER_MESSAGES.domainIdRequired);
    return parsed.data.domainId;
  };
  return dispatchIntent(
    request,
    {
      [NEWSLETTER_SAVE_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: newsletterSettingsSchema });
        if (submission.status !== "success") {
          return reply({ result: submission.reply({ hideFields: ["logo"] }) }, 400);
        }
        await saveNewsletterSettings(user, studioId, submission.value);
        return redirectWithToast(page, { type: "success", title: NEWSLETTER_MESSAGES.saved });
      },
      [NEWSLETTER_TEST_INTENT]: async () => {
        const { to } = await sendTestEmail(user, studioId);
        return redirectWithToast(page, {
          type: "success",
          title: NEWSLETTER_MESSAGES.testSent,
          description: `Sent to ${to}.`,
        });
      },
      [TEMPLATE_SAVE_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: saveTemplateSchema });
        if (submission.status !== "success") return reply({ result: submission.reply() }, 400);
        try {
          await saveTemplate(user, studioId, submission.value);
        } catch (caught) {
          const error = formFailure(caught);
          return reply({ result: submission.reply(templateErrors(error)) }, error);
        }
        return redirectWithToast(page, { type: "success", title: TEMPLATE_MESSAGES.saved });
      },
      [TEMPLATE_RENAME_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: renameTemplateSchema });
        if (submission.status !== "success") return reply({ result: submission.reply() }, 400);
        const { templateId, name } = submission.value;
        try {
          await renameTemplate(user, templateId, name, studioId);
        } catch (caught) {
          const error = formFailure(caught);
          return reply({ result: submission.reply(templateErrors(error)) }, error);
        }
        return redirectWithToast(page, { type: "success", title: TEMPLATE_MESSAGES.renamed });
      },
      [TEMPLATE_DELETE_INTENT]: async ({ formData }) => {
        const parsed = deleteTemplateSchema.safeParse({ templateId: formData.get("templateId") });
        if (!parsed.success) throw new InvalidError(TEMPLATE_MESSAGES.notFound);
        await deleteTemplate(user, parsed.data.templateId, studioId);
        return redirectWithToast(page, { type: "success", title: TEMPLATE_MESSAGES.deleted });
      },
      [DOMAIN_ADD_INTENT]: async ({ reply }) => {
        try {
          await addSenderDomain(user, studioId);
        } catch (error) {
          // The project's sender domains are at the cap: said beside 'Add' (409), not in a toast.
          if (!(error instanceof SenderDomainLimitError)) throw error;
          return reply(
            { result: { status: "error", error: { [SENDER_DOMAIN_FIELD]: [error.message] } } },
            error,
          );
        }
        return redirectWithToast(page, {
          type: "success",
          title: NEWSLETTER_MESSAGES.domainAdded,
          description: NEWSLETTER_MESSAGES.domainAddedHint,
        });
      },
      [DOMAIN_VERIFY_INTENT]: async ({ formData }) => {
        const domain = await verifySenderDomain(user, studioId, domainId(formData));
        // Still pending: not verified yet, and verification goes on (the job checks again), so
        // 'Verification in progress' shows beside the answer, with JavaScript or without.
        return redirectWithToast(
          page,
          domain.isVerified
            ? { type: "success", title: NEWSLETTER_MESSAGES.verified }
            : [
                {
                  type: "error",
                  title: NEWSLETTER_MESSAGES.notVerified,
                  description: NEWSLETTER_MESSAGES.notVerifiedHint,
                },
                {
                  type: "info",
                  title: NEWSLETTER_MESSAGES.verifying,
                  description: NEWSLETTER_MESSAGES.verifyingHint,
                },
              ],
        );
      },
      [DOMAIN_DELETE_INTENT]: async ({ formData }) => {
        await deleteSenderDomain(user, studioId, domainId(formData));
        return redirectWithToast(page, { type: "success", title: NEWSLETTER_MESSAGES.deleted });
      },
    },
    {
      // Room for the largest logo, base64 overhead of multipart aside.
      maxBytes: LOGO_MAX_BYTES + 64 * 1024,
      onError: (error, { intent }) => {
        const title =
          intent === NEWSLETTER_SAVE_INTENT
            ? NEWSLETTER_MESSAGES.saveFailed
            : intent === TEMPLATE_DELETE_INTENT
              ? TEMPLATE_MESSAGES.deleteFailed
              : intent === DOMAIN_ADD_INTENT
                ? // The one conflict of an add: the domain is already someone's.
                  error instanceof ConflictError
                  ? NEWSLETTER_MESSAGES.domainExists
                  : NEWSLETTER_MESSAGES.addFailed
                : intent === DOMAIN_VERIFY_INTENT
                  ? NEWSLETTER_MESSAGES.verifyFailed
                  : intent === DOMAIN_DELETE_INTENT
                    ? NEWSLETTER_MESSAGES.deleteFailed
                    : NEWSLETTER_MESSAGES.unexpected;
        // A provider's failure (and the add's conflict) says no more than the toast's title.
        const said =
          error instanceof UpstreamError ||
          (intent === DOMAIN_ADD_INTENT && error instanceof ConflictError);
        return redirectWithToast(page, {
          type: "error",
          title,
          description: said ? undefined : error.message || NEWSLETTER_MESSAGES.unexpected,
        });
      },
    },
  );
}

/** A taken name is said beside the name field; any other refusal is the form's toast. */
function templateErrors(error: ServiceError) {
  return error instanceof TemplateNameTakenError
    ? { fieldErrors: { name: [error.message] } }
    : { formErrors: [error.message] };
}

export default function NewsletterPage() {
  const { view, domains, templates, dataVersion } = useLoaderData<typeof loader>();
  return (
    <ProjectSectionPage
      section="newsletter"
      dataVersion={dataVersion}
      description="Who your newsletters come from, how they look, and the domain they are sent from."
    >
      <NewsletterSettingsForm settings={view.settings} canEdit={view.canEdit} />
      <SenderDomains
        senderDomain={view.senderDomain}
        domains={domains.domains}
        canEdit={domains.canEdit}
        error={domains.error ? NEWSLETTER_MESSAGES.fetchDomainsFailed : null}
      />
      <SavedTemplates templates={templates.templates} canEdit={templates.canEdit} />
    </ProjectSectionPage>
  );
}
