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
import { requireProjectMember } from "~/web/project-loader.server";
import { ProjectSectionPage } from "~/components/project-dashboard/section-page";
import { toProjectView } from "~/components/project-dashboard/project-view";
import { ServiceError, InvalidError } from "~/services/errors";
import {
  addSenderDomain,
  deleteSenderDomain,
  listSenderDomains,
  SenderDomainLimitError,
  verifySenderDomain,
} from "~/services/newsletter-domains.server";
import {
  domainIdSchema,
  LOGO_MAX_BYTES,
  NEWSLETTER_MESSAGES,
  newsletterSettingsSchema,
} from "~/services/newsletter.schema";
import {
  getNewsletterSettings,
  saveNewsletterSettings,
  sendTestEmail,
} from "~/services/newsletter.server";
import { formReply, readForm } from "~/web/http.server";
import { notFound } from "~/utils/responses.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { ProjectNotFoundError } from "~/services/permissions.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Newsletter | ${data.project.name} | StackShift` : "Newsletter | StackShift" },
];

/**
 * /sites/newsletter/{studioId}: the sender settings with their preview, and the sender domains.
 * Everyone who sees the project reads; the owner, admins and platform admins change them.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, project } = await requireProjectMember(request, params.studioId);
  const [view, domains] = await Promise.all([
    getNewsletterSettings(user, project.studioId),
    listSenderDomains(user, project.studioId),
  ]);
  return { project: toProjectView(project, new Date()), view, domains };
}

const PROVIDER_FAILURES = new Set<string>([
  NEWSLETTER_MESSAGES.createFailed,
  NEWSLETTER_MESSAGES.verifyRequestFailed,
  NEWSLETTER_MESSAGES.deleteRequestFailed,
]);

/** The page's forms: save, test e-mail, and add / verify / delete a sender domain. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const studioId = params.studioId ?? "";
  const page = `/sites/newsletter/${encodeURIComponent(studioId)}`;
  // Room for the largest logo, base64 overhead of multipart aside.
  const formData = await readForm(request, LOGO_MAX_BYTES + 64 * 1024);
  const intent = formData.get("intent");
  try {
    if (intent === NEWSLETTER_SAVE_INTENT) {
      const submission = parseWithZod(formData, { schema: newsletterSettingsSchema });
      if (submission.status !== "success") {
        return formReply({ result: submission.reply({ hideFields: ["logo"] }) }, 400);
      }
      await saveNewsletterSettings(user, studioId, submission.value);
      return redirectWithToast(page, { type: "success", title: NEWSLETTER_MESSAGES.saved });
    }
    if (intent === NEWSLETTER_TEST_INTENT) {
      const { to } = await sendTestEmail(user, studioId);
      return redirectWithToast(page, {
        type: "success",
        title: NEWSLETTER_MESSAGES.testSent,
        description: `Sent to ${to}.`,
      });
    }
    if (intent === DOMAIN_ADD_INTENT) {
      await addSenderDomain(user, studioId);
      return redirectWithToast(page, {
        type: "success",
        title: NEWSLETTER_MESSAGES.domainAdded,
        description: NEWSLETTER_MESSAGES.domainAddedHint,
      });
    }
    const parsed = domainIdSchema.safeParse({ domainId: formData.get("domainId") });
    if (intent === DOMAIN_VERIFY_INTENT) {
      if (!parsed.success) throw new InvalidError(NEWSLETTER_MESSAGES.domainIdRequired);
      const domain = await verifySenderDomain(user, studioId, parsed.data.domainId);
      return redirectWithToast(
        page,
        domain.isVerified
          ? { type: "success", title: NEWSLETTER_MESSAGES.verified }
          : {
              type: "error",
              title: NEWSLETTER_MESSAGES.notVerified,
              description: NEWSLETTER_MESSAGES.notVerifiedHint,
            },
      );
    }
    if (intent === DOMAIN_DELETE_INTENT) {
      if (!parsed.success) throw new InvalidError(NEWSLETTER_MESSAGES.domainIdRequired);
      await deleteSenderDomain(user, studioId, parsed.data.domainId);
      return redirectWithToast(page, { type: "success", title: NEWSLETTER_MESSAGES.deleted });
    }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error instanceof ProjectNotFoundError) notFound();
    // The project's sender domains are at the cap: said beside 'Add' (409), not in a toast.
    if (error instanceof SenderDomainLimitError) {
      return formReply(
        { result: { status: "error", error: { [SENDER_DOMAIN_FIELD]: [error.message] } } },
        error,
      );
    }
    const title =
      intent === NEWSLETTER_SAVE_INTENT
        ? NEWSLETTER_MESSAGES.saveFailed
        : intent === DOMAIN_ADD_INTENT
          ? error.message === NEWSLETTER_MESSAGES.domainExists
            ? NEWSLETTER_MESSAGES.domainExists
            : NEWSLETTER_MESSAGES.addFailed
          : intent === DOMAIN_VERIFY_INTENT
            ? NEWSLETTER_MESSAGES.verifyFailed
            : intent === DOMAIN_DELETE_INTENT
              ? NEWSLETTER_MESSAGES.deleteFailed
              : NEWSLETTER_MESSAGES.unexpected;
    // The API's wording of a provider failure says no more than the toast's title.
    const said = error.message === title || PROVIDER_FAILURES.has(error.message);
    return redirectWithToast(page, {
      type: "error",
      title,
      description: said ? undefined : error.message || NEWSLETTER_MESSAGES.unexpected,
    });
  }
  return formReply({ result: { status: "error", error: { "": ["Unknown form"] } } }, 400);
}

export { ProjectErrorBoundary as ErrorBoundary } from "~/components/project-dashboard/section-page";

export default function NewsletterPage() {
  const { project, view, domains } = useLoaderData<typeof loader>();
  return (
    <ProjectSectionPage
      section="newsletter"
      project={project}
      description="Who your newsletters come from, how they look, and the domain they are sent from."
    >
      <NewsletterSettingsForm settings={view.settings} canEdit={view.canEdit} />
      <SenderDomains
        senderDomain={view.senderDomain}
        domains={domains.domains}
        canEdit={domains.canEdit}
        error={domains.error ? NEWSLETTER_MESSAGES.fetchDomainsFailed : null}
      />
    </ProjectSectionPage>
  );
}
