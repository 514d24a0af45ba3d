/**
 * GET /api/app/{id}: the full project entity with its members[], eventLogs[] and
 * integrations[], each filtered by what the caller may see, exactly as the dashboard shows them.
 */
import { asc, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { members, newsletterSettings, paymentAccounts, socialAccounts, users } from "~/db/schema";
import { socialProvider } from "~/providers/social/index.server";
import type { User } from "~/services/accounts/index.server";
import {
  EVENT_LOG_PAGE,
  listActivityPage,
  type ActivityEntry,
} from "~/services/activity/index.server";
import { env } from "~/utils/env.server";
import { integrationBySlug } from "~/services/integrations";
import { lastFour } from "~/services/integrations";
import { can, projectForAction } from "~/services/permissions/index.server";
import { getProject, type Project } from "./projects.server";

/** A member. `invitationKey` only while invited, and only for those who manage members. */
export type MemberEntity = {
  user: { _id: string; name: string; email: string; status: "invited" | "accepted" } | null;
  invitedEmail: string;
  role: "editor" | "developer" | "admin";
  status: "invited" | "accepted";
  invitationKey: string | null;
};

/** A linked social account in the social integration entry (`id`: ours, an addition). */
export type SocialAccountEntity = {
  id: string;
  platform: "instagram";
  userName: string;
  profileName: string | null;
  profilePictureUrl: string | null;
  dateAdded: string;
  baseUrl: string;
};

/** What every integration of the entity carries: the Integration entity's fields. */
type IntegrationBase = {
  name: string;
  predefined: true;
  /** Plain text: what the integration does (its catalogue card's text). */
  content: string;
  /** The integration's mark: /integrations/{id}.svg, served from public/integrations/. */
  logo: string;
};

/**
 * An integration the project has set up, in the specification's shapes (section 3): the Stripe
 * accounts (never a secret key), the social entry (`isSocialMedia`, its first linked `account`,
 * and every linked one in `accounts`), and the AI Newsletter once its settings are saved
 * (`newsletterAccount` with the sending key masked; decision 032).
 */
export type IntegrationEntity =
  | (IntegrationBase & {
      id: "payments";
      accounts: {
        id: string;
        accountName: string;
        stripePKey: string;
        apiVersion: string;
        dateAdded: string;
      }[];
    })
  | (IntegrationBase & {
      id: "social-accounts";
      isSocialMedia: true;
      account: SocialAccountEntity;
      accounts: SocialAccountEntity[];
    })
  | (IntegrationBase & {
      id: "newsletter";
      newsletterAccount: { id: string; api_key: string };
    });

/** The newsletter entry's text (the catalogue has no card for it: it is an add-on). */
export const NEWSLETTER_INTEGRATION_CONTENT =
  "Send newsletters drafted with AI from your site's content, from your own sender domain.";

/** Where an integration's mark is served (the SVG files in public/integrations/). */
export const integrationLogo = (id: IntegrationEntity["id"]) => `/integrations/${id}.svg`;

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
      logo: integrationLogo("payments"),
      accounts: payments.map(({ createdAt, ...a }) => ({
        ...a,
        dateAdded: createdAt.toISOString(),
      })),
    });
  }
  if (social.length) {
    const baseUrl = socialProvider().profileBaseUrl;
    const accounts = social.map(({ createdAt, ...a }): SocialAccountEntity => ({
      ...a,
      platform: "instagram",
      dateAdded: createdAt.toISOString(),
      baseUrl,
    }));
    found.push({
      id: "social-accounts",
      name: socialEntry.name,
      predefined: true,
      content: socialEntry.text,
      logo: integrationLogo("social-accounts"),
      isSocialMedia: true,
      account: accounts[0],
      accounts,
    });
  }
  if (newsletter.length) {
    found.push({
      id: "newsletter",
      name: "AI Newsletter",
      predefined: true,
      content: NEWSLETTER_INTEGRATION_CONTENT,
      logo: integrationLogo("newsletter"),
      newsletterAccount: { id: projectId, api_key: maskedKey(newsletterSendingKey()) },
    });
  }
  return found;
}

/**
 * The key every project's newsletter is sent with: the platform's Resend key (RESEND_API_KEY)
 * when PROVIDERS=live (app/providers/newsletter/index.server.ts); there is no key of a project's
 * own, and the local provider sends with none.
 */
function newsletterSendingKey(): string {
  const { PROVIDERS, RESEND_API_KEY } = env();
  return PROVIDERS === "live" ? (RESEND_API_KEY ?? "") : "";
}

/**
 * A key as the API shows it: its last 4 characters only; "••••" alone without a key, or with
 * one too short for 4 characters to leave most of it hidden.
 */
export const maskedKey = (key: string) => `••••${key.trim().length >= 12 ? lastFour(key) : ""}`;
