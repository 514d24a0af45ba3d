import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { loadActivityLog } from "./activity-log.server";
import { dashboardVersion, loadLiveParts } from "./live-parts.server";
import { projectDataDigest } from "~/services/projects/index.server";
import { getProject } from "~/services/projects/index.server";
import { ActivityLogSection, activityLogHeight } from "~/components/activity/activity-log";
import { ProjectInvitationScreen } from "~/components/members/invitation-card";
import { invitationsAction } from "~/web/invitations-action.server";
import {
  INVITATION_INTENTS,
  MEMBER_INTENTS,
  type InvitationIntent,
  type MemberIntent,
} from "~/components/members/member-intents";
import { dispatchIntent, type IntentContext } from "~/web/intents.server";
import { membersAction } from "./members-action.server";
import {
  DashboardHeader,
  FailureBanner,
  SupportBanner,
} from "~/components/project-dashboard/dashboard-header";
import { requireProjectMemberOrInvitee } from "~/web/project-loader.server";
import { projectTitle, useProject } from "~/components/project-dashboard/project-frame";
import { ADDON_INTENT, addonsAction } from "./addons-action.server";
import { AddonsSection } from "~/components/addons/addons-section";
import { DOMAIN_INTENT, domainsAction } from "./domains-action.server";
import { DomainSettings } from "~/components/domains/domain-settings";
import { ActiveIntegrations, Members } from "~/components/project-dashboard/project-sections";
import { SiteBuilds, siteBuildsHeight } from "~/components/project-dashboard/site-builds";
import { useSmartRefresh } from "~/components/project-dashboard/use-smart-refresh";
import { StudioActivation } from "~/components/studio/studio-activation";
import { getDomainSettings } from "~/services/domains/index.server";
import { listDashboardIntegrations } from "~/services/integrations/index.server";
import { SocialAccountsSection } from "~/components/social/social-accounts";
import { SOCIAL_INTENTS, socialAction } from "./social-action.server";
import { listMembers, MEMBERS_PAGE_SIZE } from "~/services/members/index.server";
import { stashedForm } from "~/web/proof.server";
import { requireUser } from "~/web/session.server";
import { renderWhenNear } from "~/utils/page-load";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data?.invitation
    ? [{ title: `Invitation to ${data.invitation.projectName} | StackShift` }]
    : projectTitle(matches, null);

/**
 * /sites/{studioId}: the project dashboard, for its owner and accepted members; the project's
 * invitee gets the invitation card instead, everyone else 404. The permission check
 * comes before any input is read. The Site Builds page comes from the URL, so page links work
 * without JavaScript; with it, the same loader answers the builds fetcher and the 30 s refresh.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const access = await requireProjectMemberOrInvitee(request, params.studioId);
  if (access.invitation) {
    // Nothing of the project but its name and the invitation until it is accepted.
    return data({
      invitation: access.invitation,
      viewer: { name: access.user.name, email: access.user.email },
    });
  }
  const { user, project } = access;
  const now = new Date();
  const url = new URL(request.url);
  // Read before the sections: a change landing meanwhile makes the next version check differ.
  const digest = await projectDataDigest(project._id);
  const [live, members, activity, domains, integrations] = await Promise.all([
    loadLiveParts(user, project, url),
    // ?members=all: the whole table; otherwise its first page ('Show all members').
    listMembers(user, project.studioId, {
      limit: url.searchParams.get("members") === "all" ? undefined : MEMBERS_PAGE_SIZE,
    }),
    loadActivityLog(user, project.studioId, url),
    getDomainSettings(user, project.studioId),
    listDashboardIntegrations(user, project.studioId),
  ]);
  const { activation, builds, deployment, addons } = live;
  // Back from "Confirm it's you" (making someone an admin): the form filled again as it was.
  const refillIntent = url.searchParams.get("refill");
  const refill =
    refillIntent === "member-invite" || refillIntent === "member-role"
      ? await stashedForm(request, refillIntent).then((values) =>
          values ? { intent: refillIntent as typeof refillIntent, values } : null,
        )
      : null;

  const latest = builds.ok ? builds.latestDeployment : null;
  const view = {
    invitation: null,
    viewer: { name: user.name, email: user.email },
    accepted: activation.accepted,
    builds,
    members,
    refill,
    activity,
    domains,
    addons,
    paymentAccounts: integrations.paymentAccounts,
    social: integrations.social,
    screenshotUrl: latest?.screenshotUrl ?? null,
    // Failed: the retry page; after the last retry, the permanent 'Deployment Error' page.
    failure:
      deployment && (deployment.failed || deployment.permanent)
        ? { permanent: deployment.permanent }
        : null,
    now: now.toISOString(),
    // What the 30 s refresh compares with /sites/{id}/version before it reloads anything.
    dataVersion: dashboardVersion(digest, live),
  };
  // A bad page or cursor is a 400, but still the dashboard, with the reason in Site Builds.
  return data(view, { status: !builds.ok && builds.invalid ? 400 : 200 });
}

/**
 * The dashboard's forms, with or without JavaScript: the Members section's invite, resend,
 * revoke/remove, leave and role change (app/components/members/members-action.server.ts), the
 * invitation card's Accept Invitation and Decline (invitations-action.server.ts), Domain
 * Settings, the add-on switches and the Social accounts card (social-action.server.ts).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const studioId = params.studioId ?? "";
  // One handler for a family of intents (the members' five, the invitation's two, ...).
  const each = <I extends string, R>(
    intents: readonly I[],
    run: (context: IntentContext) => Promise<R>,
  ) => Object.fromEntries(intents.map((intent) => [intent, run])) as Record<I, typeof run>;
  return dispatchIntent(
    request,
    {
      [DOMAIN_INTENT]: ({ formData }) => domainsAction(user, studioId, formData),
      [ADDON_INTENT]: async ({ formData }) => {
        const project = await getProject(user, studioId);
        return addonsAction(user, studioId, project.name, formData);
      },
      ...each(SOCIAL_INTENTS, ({ formData }) => socialAction(request, user, studioId, formData)),
      ...each(INVITATION_INTENTS, ({ formData, intent }) =>
        invitationsAction(user, intent as InvitationIntent, formData, {
          page: "dashboard",
          studioId,
        }),
      ),
      ...each(MEMBER_INTENTS, ({ formData, intent }) =>
        membersAction(user, studioId, intent as MemberIntent, formData, request),
      ),
    },
    { maxBytes: 16 * 1024 },
  );
}

export { overlayShouldRevalidate as shouldRevalidate } from "~/components/shell/shell-helpers";

export default function ProjectDashboardPage() {
  const loaded = useLoaderData<typeof loader>();
  if (loaded.invitation) {
    return (
      <ProjectInvitationScreen invitation={loaded.invitation} viewerEmail={loaded.viewer.email} />
    );
  }
  return <ProjectDashboard {...loaded} />;
}

type DashboardData = Exclude<
  ReturnType<typeof useLoaderData<typeof loader>>,
  { invitation: object }
>;

function ProjectDashboard({
  viewer,
  accepted,
  builds,
  members,
  refill,
  activity,
  domains,
  addons,
  paymentAccounts,
  social,
  screenshotUrl,
  failure,
  now: loadedAt,
  dataVersion,
}: DashboardData) {
  const project = useProject();
  const [searchParams] = useSearchParams();
  const buildsKey = ["page", "next", "prev"].map((k) => searchParams.get(k) ?? "").join("|");
  const query = searchParams.toString();
  const currentAt = useSmartRefresh({
    url: `/sites/${project.studioId}/version${query ? `?${query}` : ""}`,
    version: dataVersion,
  });
  // 'Minutes ago' counts from the last check that found the data current.
  const now = currentAt && currentAt > loadedAt ? currentAt : loadedAt;
  return (
    <article className="space-y-8">
      {project.role === "support" ? <SupportBanner ownerName={project.owner.name} /> : null}
      {failure ? <FailureBanner studioId={project.studioId} permanent={failure.permanent} /> : null}
      <DashboardHeader
        project={project}
        screenshotUrl={screenshotUrl}
        studio={
          project.role === "support" ? null : (
            <StudioActivation
              project={{ studioId: project.studioId, name: project.name }}
              accepted={accepted}
              userEmail={viewer.email}
            />
          )
        }
      />
      {/* Another page in the URL (a no-JavaScript page link, back/forward) starts afresh. */}
      <div {...renderWhenNear(siteBuildsHeight(builds))}>
        <SiteBuilds
          key={buildsKey}
          studioId={project.studioId}
          builds={builds}
          providers={project.providers}
          now={now}
        />
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <DomainSettings
          studioId={project.studioId}
          schemaVersion={project.schemaVersion}
          settings={domains}
        />
        <AddonsSection studioId={project.studioId} view={addons} now={now} />
        <ActiveIntegrations
          studioId={project.studioId}
          paymentAccounts={paymentAccounts}
          socialAccounts={social.accounts}
        />
        <SocialAccountsSection view={social} />
        <div className="lg:col-span-2">
          <Members
            studioId={project.studioId}
            projectName={project.name}
            view={members}
            refill={refill}
          />
        </div>
        <div {...renderWhenNear(activityLogHeight(activity), "lg:col-span-2")}>
          <ActivityLogSection {...activity} now={now} />
        </div>
      </div>
    </article>
  );
}
