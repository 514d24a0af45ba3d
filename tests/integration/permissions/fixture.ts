/**
 * The permission table's fixture: the actors (one user each, signed in), projects A and B with
 * real rows, the state each request starts from, and the snapshot a denied request must leave
 * unchanged.
 */
import {
  type ActorName,
  type ProjectFixture,
  type TestUser,
  makeProject,
} from "../project-fixture";
import { BASE, createUser, sessionCookie } from "../../helpers";
import { LATEST_SCHEMA_VERSION } from "~/services/projects/project-status";
import { type SignedIn } from "./table";
import {
  accessRequests,
  apiTokens,
  eventLogs,
  newsletterSavedTemplates,
  formSubmissions,
  localDeploys,
  localNewsletterDomains,
  localSites,
  localStudioInvites,
  localStudios,
  members,
  newsletterDomains,
  newsletterSettings,
  oauthLinkStates,
  outbox,
  paymentAccounts,
  projectSites,
  projects,
  socialAccounts,
  supportTickets,
  ticketComments,
  users,
  projectEvents,
  webhookDeliveries,
  webhooks,
} from "~/db/schema";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { createApiToken } from "~/services/accounts/api-tokens.server";
import { db } from "~/db/client.server";
import { encryptSecret } from "~/utils/secrets.server";
import { ensureDefaultForm } from "~/services/forms/forms.server";
import { randomBytes } from "node:crypto";

/** Ids the rows' setups record and later requests use. */
export const held = {
  contactFormIdA: "",
  publishedDeployA: "",
  contactFormIdB: "",
  analyticsKeyA: "",
  ownerInviteId: "",
  templateIdA: "",
  webhookIdA: "",
  deliveryIdA: "",
};

// ---------------------------------------------------------------------------------------------
// Fixture: two projects with real rows

export type Fixture = {
  users: Record<SignedIn, TestUser> & { ownerB: TestUser; memberB: TestUser };
  cookies: Record<ActorName, string | undefined>;
  a: ProjectFixture;
  b: ProjectFixture;
  /** Member rows restored before every request (fixed ids and invitation keys). */
  memberRows: (typeof members.$inferInsert)[];
  memberIds: { invited: string; editor: string; developer: string; admin: string; b: string };
  invitationKeyA: string;
  invitationKeyB: string;
  accessRequestId: string;
  /** A token of B's owner, that a platform admin revokes as leaked (un-revoked before each). */
  leakedToken: string;
};

/** The Stripe account of project A the remove case removes (re-created before each actor). */
export const PAYMENT_ACCOUNT_A = "5b9d6c1e-2f4a-4e8b-9c3d-7a1f0e2d4b6c";
export const LOCAL_AUTHORIZE = `/local/oauth/instagram/authorize?client_id=local-instagram&response_type=code&state=x.${"a".repeat(24)}&redirect_uri=${encodeURIComponent(`${BASE}/oauth/instagram/callback`)}`;
export const SOCIAL_ACCOUNT_A = "8e2f4a6c-1b3d-4f5e-8a7c-9d0e1f2a3b4c";

/** Project A's public analytics key (what its site's script sends). */
export async function analyticsKeyOfA(f: Fixture) {
  const [row] = await db()
    .select({ key: projects.analyticsKey })
    .from(projects)
    .where(eq(projects.id, f.a.id));
  held.analyticsKeyA = row.key;
}

/** Project A's Contact form with one submission. */
export async function contactFormA(f: Fixture) {
  held.contactFormIdA = await ensureDefaultForm(f.a.id);
  await db().delete(formSubmissions).where(eq(formSubmissions.formId, held.contactFormIdA));
  await db()
    .insert(formSubmissions)
    .values({ formId: held.contactFormIdA, data: { name: "Ada" }, searchText: "ada" });
}

/** Project A's published deployment (held.publishedDeployA): what a rollback publishes again. */
export async function publishedDeployA(f: Fixture) {
  const [site] = await db()
    .select({ published: localSites.publishedDeployId })
    .from(localSites)
    .where(eq(localSites.id, f.a.siteId));
  held.publishedDeployA = site?.published ?? "";
}

/** Project A's one saved newsletter template (held.templateIdA). */
export async function savedTemplateA(f: Fixture) {
  await db().delete(newsletterSavedTemplates).where(eq(newsletterSavedTemplates.projectId, f.a.id));
  const [row] = await db()
    .insert(newsletterSavedTemplates)
    .values({ projectId: f.a.id, name: "A weekly", subject: "A news", body: "<p>A</p>" })
    .returning({ id: newsletterSavedTemplates.id });
  held.templateIdA = row.id;
}

/** One webhook of project A (to a public address literal, so no lookup) with one delivery. */
export async function webhookA(f: Fixture) {
  await db().delete(webhooks).where(eq(webhooks.projectId, f.a.id));
  const [hook] = await db()
    .insert(webhooks)
    .values({
      projectId: f.a.id,
      url: "https://93.184.215.14/a-hook",
      events: ["member.invited"],
      secretEncrypted: encryptSecret(`whsec_${randomBytes(24).toString("base64")}`),
    })
    .returning({ id: webhooks.id });
  const [event] = await db()
    .insert(projectEvents)
    .values({
      projectId: f.a.id,
      studioId: f.a.studioId,
      projectName: "A",
      type: "member.invited",
      payload: {},
    })
    .returning({ id: projectEvents.id });
  const [delivery] = await db()
    .insert(webhookDeliveries)
    .values({
      webhookId: hook.id,
      eventId: event.id,
      eventType: "member.invited",
      status: "failed",
    })
    .returning({ id: webhookDeliveries.id });
  held.webhookIdA = hook.id;
  held.deliveryIdA = delivery.id;
}

/** Project A's newsletter sender (its domain not added yet, here or at the local provider). */
export async function senderSettingsA(f: Fixture) {
  await db().delete(newsletterDomains).where(eq(newsletterDomains.projectId, f.a.id));
  await db()
    .delete(localNewsletterDomains)
    .where(eq(localNewsletterDomains.name, "a-perm.example"));
  await db()
    .insert(newsletterSettings)
    .values({ projectId: f.a.id, settings: { email_from_address: "news@a-perm.example" } })
    .onConflictDoUpdate({
      target: newsletterSettings.projectId,
      set: { settings: { email_from_address: "news@a-perm.example" } },
    });
}

/** Project A's Stripe account, with a key the local catalogue accepts (listing reads it). */
export async function paymentAccountA(f: Fixture) {
  await db().delete(paymentAccounts).where(eq(paymentAccounts.projectId, f.a.id));
  await db()
    .insert(paymentAccounts)
    .values({
      id: PAYMENT_ACCOUNT_A,
      projectId: f.a.id,
      accountName: "Shop A",
      publishableKey: "pk_test_shopa",
      secretKeyEncrypted: encryptSecret("sk_test_ShopAkey123"),
      secretKeyLast4: "y123",
      apiVersion: "2020-08-27",
    });
}

/** Project A's linked Instagram account. */
export const SOCIAL_ACCOUNT_B = "3c5e7a9b-2d4f-4a6b-8c0d-1e2f3a4b5c6d";
export const PAYMENT_ACCOUNT_B = "6d8f0a2c-4e6b-4c8d-9e1f-2a3b4c5d6e7f";

/** Project B's Instagram and Stripe accounts, for the cross-project cases. */
export async function accountsOfB(f: Fixture) {
  await db().delete(socialAccounts).where(eq(socialAccounts.id, SOCIAL_ACCOUNT_B));
  await db().delete(paymentAccounts).where(eq(paymentAccounts.id, PAYMENT_ACCOUNT_B));
  await db()
    .insert(socialAccounts)
    .values({
      id: SOCIAL_ACCOUNT_B,
      projectId: f.b.id,
      platform: "instagram",
      providerUserId: "17841400000000002",
      userName: "shop.b",
      accessTokenEncrypted: encryptSecret("IGLOCALpermissiontableB"),
      tokenExpiresAt: new Date(Date.now() + 50 * 86_400_000),
    });
  await db()
    .insert(paymentAccounts)
    .values({
      id: PAYMENT_ACCOUNT_B,
      projectId: f.b.id,
      accountName: "Shop B",
      publishableKey: "pk_test_shopb",
      secretKeyEncrypted: encryptSecret("sk_test_ShopBkey123"),
      secretKeyLast4: "y123",
      apiVersion: "2020-08-27",
    });
}

export async function socialAccountA(f: Fixture) {
  await db().delete(socialAccounts).where(eq(socialAccounts.id, SOCIAL_ACCOUNT_A));
  await db()
    .insert(socialAccounts)
    .values({
      id: SOCIAL_ACCOUNT_A,
      projectId: f.a.id,
      platform: "instagram",
      providerUserId: "17841400000000001",
      userName: "shop.a",
      accessTokenEncrypted: encryptSecret("IGLOCALpermissiontable"),
      tokenExpiresAt: new Date(Date.now() + 50 * 86_400_000),
    });
}

/** The support tickets the ticket cases read and write: one about A (its owner's), one about B. */
export const TICKET_A = "2f6b8d0e-4a1c-4e3f-9b5d-7c9e1a3b5d7f";
export const TICKET_B = "4b8d0f2a-6c3e-4a5b-8d7f-9e1b3c5d7f9a";

/** A's ticket, as its owner opened it: open, no reply yet (re-created before each actor). */
export async function ticketA(f: Fixture) {
  await db().delete(supportTickets).where(eq(supportTickets.id, TICKET_A));
  await db().insert(supportTickets).values({
    id: TICKET_A,
    subject: "Ticket about A",
    description: "Help with A",
    projectId: f.a.id,
    requesterId: f.users.owner.id,
  });
}

export async function ticketB(f: Fixture) {
  await db().delete(supportTickets).where(eq(supportTickets.id, TICKET_B));
  await db().insert(supportTickets).values({
    id: TICKET_B,
    subject: "Ticket about B",
    description: "Help with B",
    projectId: f.b.id,
    requesterId: f.users.ownerB.id,
  });
}

/** A's ticket after a request: its status and how many replies it has. */
export async function ticketAState() {
  const [ticket] = await db()
    .select({ status: supportTickets.status })
    .from(supportTickets)
    .where(eq(supportTickets.id, TICKET_A));
  const [replies] = await db()
    .select({ n: count() })
    .from(ticketComments)
    .where(eq(ticketComments.ticketId, TICKET_A));
  return { status: ticket?.status, replies: Number(replies.n) };
}

export const invitationKey = () => randomBytes(32).toString("base64url");
export const uuid = () => crypto.randomUUID();

export async function buildFixture(): Promise<Fixture> {
  const make = (name: string, email?: string) => createUser({ name, email });
  const [owner, outsider, invited, editor, developer, admin, platformAdmin, ownerB, memberB] =
    await Promise.all([
      make("Olivia Owner"),
      make("Oscar Outsider"),
      make("Ivy Invited"),
      make("Eddie Editor"),
      make("Dana Developer"),
      make("Ada Admin"),
      make("Pat Platform", "admin@example.com"),
      make("Bob Owner"),
      make("Bea Member"),
    ]);
  const a = await makeProject(owner, "Permission project A");
  const b = await makeProject(ownerB, "Permission project B");
  const ids = { invited: uuid(), editor: uuid(), developer: uuid(), admin: uuid(), b: uuid() };
  const invitationKeyA = invitationKey();
  const invitationKeyB = invitationKey();
  const expires = new Date(Date.now() + 7 * 86400_000);
  const accepted = (
    id: string,
    projectId: string,
    u: TestUser,
    role: "editor" | "developer" | "admin",
  ) => ({ id, projectId, userId: u.id, invitedEmail: u.email, role, status: "accepted" }) as const;
  const memberRows: (typeof members.$inferInsert)[] = [
    {
      id: ids.invited,
      projectId: a.id,
      userId: invited.id,
      invitedEmail: invited.email,
      role: "editor",
      status: "invited",
      invitationKey: invitationKeyA,
      invitationExpiresAt: expires,
    },
    accepted(ids.editor, a.id, editor, "editor"),
    accepted(ids.developer, a.id, developer, "developer"),
    accepted(ids.admin, a.id, admin, "admin"),
    accepted(ids.b, b.id, memberB, "editor"),
    {
      projectId: b.id,
      id: uuid(),
      invitedEmail: "invited-to-b@example.com",
      role: "admin",
      status: "invited",
      invitationKey: invitationKeyB,
      invitationExpiresAt: expires,
    },
  ];
  const [request] = await db()
    .insert(accessRequests)
    .values({ fullName: "Rita Requester", businessEmail: `rita-${uuid()}@example.com` })
    .returning();
  const { token: leakedToken } = await createApiToken(
    { id: ownerB.id, name: ownerB.name, email: ownerB.email, isAdmin: false },
    { name: "Leaked", scope: "read", lifetimeDays: 30, projectIds: [] },
  );
  const signedIn = { owner, outsider, invited, editor, developer, admin, platformAdmin };
  const cookies = { anonymous: undefined } as Record<ActorName, string | undefined>;
  for (const [name, u] of Object.entries(signedIn)) {
    cookies[name as SignedIn] = await sessionCookie(u.id);
  }
  return {
    users: { ...signedIn, ownerB, memberB },
    cookies,
    a,
    b,
    memberRows,
    memberIds: ids,
    invitationKeyA,
    invitationKeyB,
    accessRequestId: request.id,
    leakedToken,
  };
}

/** The state every request starts from: what earlier allowed requests changed is put back. */
export async function baseline(f: Fixture) {
  await db()
    .update(projects)
    .set({
      siteCreationStatus: "success",
      studioCreationStatus: "success",
      deployRetryCount: 0,
      permanentErrorAt: null,
      schemaVersion: LATEST_SCHEMA_VERSION,
    })
    .where(eq(projects.id, f.a.id));
  // Project B's deployment failed, so retrying it would be possible for its own members.
  await db()
    .update(projects)
    .set({ siteCreationStatus: "failed", deployRetryCount: 0, permanentErrorAt: null })
    .where(eq(projects.id, f.b.id));
  await db()
    .update(accessRequests)
    .set({ requestStatus: "Pending", decidedAt: null, decidedBy: null })
    .where(eq(accessRequests.id, f.accessRequestId));
  await db().update(apiTokens).set({ revokedAt: null, revokedBy: null });
  await db()
    .delete(members)
    .where(inArray(members.projectId, [f.a.id, f.b.id]));
  await db().insert(members).values(f.memberRows);
}

/** Project A's owner holds a pending invitation to its local studio (as provisioning leaves it). */
export async function pendingOwnerInvite(f: Fixture) {
  const email = f.users.owner.email;
  await contentStudioProvider().inviteMember(f.a.studioSanityId, { email, role: "administrator" });
  const [row] = await db()
    .update(localStudioInvites)
    .set({ status: "pending" })
    .where(
      and(eq(localStudioInvites.studioId, f.a.studioSanityId), eq(localStudioInvites.email, email)),
    )
    .returning({ id: localStudioInvites.id });
  held.ownerInviteId = row.id;
}

export async function failA(f: Fixture) {
  await db().update(projects).set({ siteCreationStatus: "failed" }).where(eq(projects.id, f.a.id));
}

/** The columns a denied request must leave as they were, per table, read in id order. */
const KEPT_COLUMNS = [
  [
    "projects",
    projects,
    [
      projects.id,
      projects.name,
      projects.ownerId,
      projects.siteType,
      projects.siteCreationStatus,
      projects.studioCreationStatus,
      projects.deployRetryCount,
      projects.permanentErrorAt,
      projects.inviteToProjectAccepted,
      projects.siteCustomDomain,
    ],
  ],
  [
    "members",
    members,
    [
      members.id,
      members.projectId,
      members.userId,
      members.invitedEmail,
      members.role,
      members.status,
      members.invitationKey,
    ],
  ],
  ["users", users, [users.id, users.email, users.hideStudioSplash]],
  ["access_requests", accessRequests, [accessRequests.id, accessRequests.requestStatus]],
  [
    "local_studio_invites",
    localStudioInvites,
    [localStudioInvites.id, localStudioInvites.status, localStudioInvites.sentCount],
  ],
] as const;

/** Tables whose row count a denied request must leave as it was. */
const KEPT_COUNTS = {
  event_logs: eventLogs,
  outbox,
  local_deploys: localDeploys,
  local_sites: localSites,
  local_studios: localStudios,
  project_sites: projectSites,
  payment_accounts: paymentAccounts,
  social_accounts: socialAccounts,
  oauth_link_states: oauthLinkStates,
  form_submissions: formSubmissions,
  newsletter_domains: newsletterDomains,
};

// One statement for the whole snapshot: it is taken twice for each denied request (about 1,500
// times a run), and 17 round trips each were most of the table's time.
const SNAPSHOT = sql.join(
  [
    ...KEPT_COLUMNS.map(
      ([name, table, columns]) =>
        sql`(select coalesce(json_agg(json_build_array(${sql.join([...columns], sql`, `)}) order by ${columns[0]}), '[]')::text from ${table}) as ${sql.identifier(name)}`,
    ),
    ...Object.entries(KEPT_COUNTS).map(
      ([name, table]) => sql`(select count(*)::text from ${table}) as ${sql.identifier(name)}`,
    ),
    sql`(select count(*)::text from pgboss.job where name not like '\_\_pgboss%') as jobs`,
  ],
  sql`, `,
);

/** What a denied request must leave as it was: each value as text, by table. */
export async function snapshot(): Promise<Record<string, string>> {
  const result = await db().execute(sql`select ${SNAPSHOT}`);
  return (result as unknown as { rows: Record<string, string>[] }).rows[0];
}

export function changedTables(before: Record<string, string>, after: Record<string, string>) {
  return Object.keys(before).filter((k) => before[k] !== after[k]);
}
