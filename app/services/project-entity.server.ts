/**
 * GET /api/app/{id}: the full project entity with its members[], eventLogs[] and
 * integrations[], each filtered by what the caller may see, exactly as the dashboard shows them.
 */
import { asc, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { members, newsletterSettings, paymentAccounts, socialAccounts, users } from "~/db/schema";
import { socialProvider } from "~/providers/social/index.server";
import type { User } from "./accounts.server";
import { EVENT_LOG_PAGE, listActivityPage, type ActivityEntry } from "./activity-log.server";
import { integrationBySlug } from "./integration-catalog";
import { can, projectForAction } from "./permissions.server";
import { getProject, type Project } from "./projects.server";

/** A member. `invitationKey` only while invited, and only for those who manage members. */
export type MemberEntity = {
  user: { _id: string; name: string; email: string; status: "invited" | "accepted" } | null;
  invitedEmail: string;
  role: "editor" | "developer" | "admin";
  status: "invited" | "accepted";
  invitationKey: string | null;
};

/**
 * An integration the project has set up, in the specification's shapes (section 3): the Stripe
 * accounts (never a secret key), the linked social accounts (`isSocialMedia`, each with the
 * profile's `baseUrl`), and the AI Newsletter once its settings are saved (`newsletterAccount`
 * without a key: the platform's mail provider sends for every project).
 */
export type IntegrationEntity =
  | {
      id: "payments";
      name: string;
      predefined: true;
      content: string;
      accounts: {
        id: string;
        accountName: string;
        stripePKey: string;
        apiVersion: string;
        dateAdded: string;
      }[];
    }
  | {
      id: "social-accounts";
      name: string;
      predefined: true;
      content: string;
      isSocialMedia: true;
      accounts: {
        id: string;
        platform: "instagram";
        userName: string;
        profileName: string | null;
        profilePictureUrl: string | null;
        dateAdded: string;
        baseUrl: string;
      }[];
    }
  | { id: "newsletter"; name: string; predefined: true; newsletterAccount: { id: string } };

export type ProjectEntity = Project & {
  members: MemberEntity[];
  eventLogs: ActivityEntry[];
  /** Fetches the older entries: GET /api/app/{id}?eventLogsCursor={this}. */
  eventLogsNextCursor: string | null;
  integrations: IntegrationEntity[];
};

export async function getProjectEntity(
  user: User,
  id: string,
  opts: { eventLogsCursor?: string } = {},
): Promise<ProjectEntity> {
  const project = await getProject(user, id);
  const { actor } = await projectForAction(user, project._id, "project.view");
  const manages = can(actor, "members.view-all");
  const rows = await db()
    .select({ member: members, account: users })
    .from(members)
    .leftJoin(users, eq(users.id, members.userId))
    .where(eq(members.projectId, project._id))
    .orderBy(asc(members.createdAt), asc(members.id));
  const visible = rows.filter(
    // A plain member sees only their own entry, as on the page.
    ({ member }) => manages || (member.userId === user.id && member.status === "accepted"),
  );
  const events = can(actor, "activity.view")
    ? await listActivityPage(user, project._id, {
        cursor: opts.eventLogsCursor,
        limit: EVENT_LOG_PAGE,
      })
    : { entries: [], nextCursor: null };
  return {
    ...project,
    members: visible.map(({ member, account }) => ({
      user: account
        ? { _id: account.id, name: account.name, email: account.email, status: member.status }
        : null,
      invitedEmail: member.invitedEmail,
      role: member.role ?? "editor",
      status: member.status,
      invitationKey: manages && member.status === "invited" ? member.invitationKey : null,
    })),
    eventLogs: events.entries,
    eventLogsNextCursor: events.nextCursor,
    integrations: await integrationsOf(project._id),
  };
}

/** The project's integrations that hold something: an account, a linked profile, settings. */
async function integrationsOf(projectId: string): Promise<IntegrationEntity[]> {
  const [payments, social, newsletter] = await Promise.all([
    db()
      .select({
        id: paymentAccounts.id,
        accountName: paymentAccounts.accountName,
        stripePKey: paymentAccounts.publishableKey,
        apiVersion: paymentAccounts.apiVersion,
        createdAt: paymentAccounts.createdAt,
      })
      .from(paymentAccounts)
      .where(eq(paymentAccounts.projectId, projectId))
      .orderBy(asc(paymentAccounts.createdAt)),
    db()
      .select({
        id: socialAccounts.id,
        userName: socialAccounts.userName,
        profileName: socialAccounts.profileName,
        profilePictureUrl: socialAccounts.profilePictureUrl,
        createdAt: socialAccounts.createdAt,
      })
      .from(socialAccounts)
      .where(eq(socialAccounts.projectId, projectId))
      .orderBy(asc(socialAccounts.createdAt)),
    db()
      .select({ projectId: newsletterSettings.projectId })
      .from(newsletterSettings)
      .where(eq(newsletterSettings.projectId, projectId)),
  ]);
  const stripe = integrationBySlug("payments")!;
  const socialEntry = integrationBySlug("social-accounts")!;
  const found: IntegrationEntity[] = [];
  if (payments.length) {
    found.push({
      id: "payments",
      name: stripe.name,
      predefined: true,
      content: stripe.text,
      accounts: payments.map(({ createdAt, ...a }) => ({
        ...a,
        dateAdded: createdAt.toISOString(),
      })),
    });
  }
  if (social.length) {
    const baseUrl = socialProvider().profileBaseUrl;
    found.push({
      id: "social-accounts",
      name: socialEntry.name,
      predefined: true,
      content: socialEntry.text,
      isSocialMedia: true,
      accounts: social.map(({ createdAt, ...a }) => ({
        ...a,
        platform: "instagram",
        dateAdded: createdAt.toISOString(),
        baseUrl,
      })),
    });
  }
  if (newsletter.length) {
    found.push({
      id: "newsletter",
      name: "AI Newsletter",
      predefined: true,
      newsletterAccount: { id: projectId },
    });
  }
  return found;
}
