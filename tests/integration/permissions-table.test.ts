/**
 * The permission table: every route module of app/routes, each
 * loader and action, against every actor - anonymous, signed-in outsider, invited (not accepted)
 * member, editor, developer, admin member, owner and platform admin - with real rows and real
 * sessions. Allowed requests must succeed (2xx, or a redirect within the app); denied ones get
 * 401/403/404 or a redirect to /auth/login, and change nothing (row counts and key columns of
 * the app's tables, and queued jobs, before and after).
 *
 * The route list is read from app/routes: a route file without a row fails the test, naming it.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import {
  apiTokens,
  accessRequests,
  eventLogs,
  localDeploys,
  localSites,
  localStudioInvites,
  localStudios,
  members,
  formSubmissions,
  localNewsletterDomains,
  newsletterDomains,
  newsletterSettings,
  oauthLinkStates,
  outbox,
  paymentAccounts,
  socialAccounts,
  projects,
  projectSites,
  supportTickets,
  ticketComments,
  users,
} from "~/db/schema";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { LATEST_SCHEMA_VERSION } from "~/services/project-status";
import { createLaunchToken } from "~/services/studio.server";
import { createApiToken } from "~/services/api-tokens.server";
import { encryptSecret } from "~/utils/secrets.server";
import { ensureDefaultForm } from "~/services/forms.server";
import { BASE, call, createUser, makeRequest, sessionCookie } from "../helpers";
import {
  ACTORS,
  asUser,
  makeProject,
  type ActorName,
  type ProjectFixture,
  type TestUser,
} from "./project-fixture";
import { locationOf, toastOf } from "../setup/matchers";

// ---------------------------------------------------------------------------------------------
// Actors and expectations

type SignedIn = Exclude<ActorName, "anonymous">;

/**
 * "allow": 2xx, or a redirect within the app (not to login) without an error toast. "deny": 401,
 * 403, 404 or a redirect to /auth/login. "refused": a form's answer to a viewer who may not do
 * this - back within the app with an error toast. A status (and Location prefix): exactly that
 * (public routes, wrong methods). Everything but "allow" must also change nothing.
 */
type Expect = "allow" | "deny" | "refused" | { status: number; location?: string };
type Expectations = Record<ActorName, Expect>;

const allow = (who: readonly ActorName[], otherwise: Expect = "deny"): Expectations =>
  Object.fromEntries(ACTORS.map((a) => [a, who.includes(a) ? "allow" : otherwise])) as Expectations;
const everyone = (e: Expect): Expectations =>
  Object.fromEntries(ACTORS.map((a) => [a, e])) as Expectations;
const status = (code: number, location?: string): Expect => ({ status: code, location });

const MEMBERS = allow(["editor", "developer", "admin", "owner"]);
const SIGNED_IN = allow(ACTORS.filter((a) => a !== "anonymous"));
const PLATFORM_ADMIN = allow(["platformAdmin"]);
/** Who sees a project: its owner and members, and platform admins (support access, decision 011). */
const VIEWERS = allow(["editor", "developer", "admin", "owner", "platformAdmin"]);
/**
 * Who reads a ticket about A that A's owner opened: the owner, member admins and platform admins
 * (editors and developers read only their own tickets; decision 019 as amended).
 */
const TICKET_READERS = allow(["admin", "owner", "platformAdmin"]);
/** Who manages members and the domain: owner, member admins and platform admins. */
const MANAGERS = allow(["admin", "owner", "platformAdmin"]);
const PUBLIC = everyone("allow");
const NOT_ALLOWED = everyone(status(405));

// ---------------------------------------------------------------------------------------------
// Fixture: two projects with real rows

type Fixture = {
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
const PAYMENT_ACCOUNT_A = "5b9d6c1e-2f4a-4e8b-9c3d-7a1f0e2d4b6c";
const LOCAL_AUTHORIZE = `/local/oauth/instagram/authorize?client_id=local-instagram&response_type=code&state=x.${"a".repeat(24)}&redirect_uri=${encodeURIComponent(`${BASE}/oauth/instagram/callback`)}`;
const SOCIAL_ACCOUNT_A = "8e2f4a6c-1b3d-4f5e-8a7c-9d0e1f2a3b4c";

let contactFormIdA = "";
let publishedDeployA = "";
let contactFormIdB = "";
let analyticsKeyA = "";
/** Project A's public analytics key (what its site's script sends). */
async function analyticsKeyOfA(f: Fixture) {
  const [row] = await db()
    .select({ key: projects.analyticsKey })
    .from(projects)
    .where(eq(projects.id, f.a.id));
  analyticsKeyA = row.key;
}

/** Project A's Contact form with one submission. */
async function contactFormA(f: Fixture) {
  contactFormIdA = await ensureDefaultForm(f.a.id);
  await db().delete(formSubmissions).where(eq(formSubmissions.formId, contactFormIdA));
  await db()
    .insert(formSubmissions)
    .values({ formId: contactFormIdA, data: { name: "Ada" }, searchText: "ada" });
}

/** Project A's newsletter sender (its domain not added yet, here or at the local provider). */
async function senderSettingsA(f: Fixture) {
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
async function paymentAccountA(f: Fixture) {
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
const SOCIAL_ACCOUNT_B = "3c5e7a9b-2d4f-4a6b-8c0d-1e2f3a4b5c6d";
const PAYMENT_ACCOUNT_B = "6d8f0a2c-4e6b-4c8d-9e1f-2a3b4c5d6e7f";

/** Project B's Instagram and Stripe accounts, for the cross-project cases. */
async function accountsOfB(f: Fixture) {
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

async function socialAccountA(f: Fixture) {
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
const TICKET_A = "2f6b8d0e-4a1c-4e3f-9b5d-7c9e1a3b5d7f";
const TICKET_B = "4b8d0f2a-6c3e-4a5b-8d7f-9e1b3c5d7f9a";

/** A's ticket, as its owner opened it: open, no reply yet (re-created before each actor). */
async function ticketA(f: Fixture) {
  await db().delete(supportTickets).where(eq(supportTickets.id, TICKET_A));
  await db().insert(supportTickets).values({
    id: TICKET_A,
    subject: "Ticket about A",
    description: "Help with A",
    projectId: f.a.id,
    requesterId: f.users.owner.id,
  });
}

async function ticketB(f: Fixture) {
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
async function ticketAState() {
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

const invitationKey = () => randomBytes(32).toString("base64url");
const uuid = () => crypto.randomUUID();

async function buildFixture(): Promise<Fixture> {
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
async function baseline(f: Fixture) {
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

let ownerInviteId = "";
/** Project A's owner holds a pending invitation to its local studio (as provisioning leaves it). */
async function pendingOwnerInvite(f: Fixture) {
  const email = f.users.owner.email;
  await contentStudioProvider().inviteMember(f.a.studioSanityId, { email, role: "administrator" });
  const [row] = await db()
    .update(localStudioInvites)
    .set({ status: "pending" })
    .where(
      and(eq(localStudioInvites.studioId, f.a.studioSanityId), eq(localStudioInvites.email, email)),
    )
    .returning({ id: localStudioInvites.id });
  ownerInviteId = row.id;
}

async function failA(f: Fixture) {
  await db().update(projects).set({ siteCreationStatus: "failed" }).where(eq(projects.id, f.a.id));
}

/** What a denied request must leave as it was. */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const put = (name: string, value: unknown) => {
    out[name] = JSON.stringify(value);
  };
  put(
    "projects",
    await db()
      .select({
        id: projects.id,
        name: projects.name,
        ownerId: projects.ownerId,
        siteType: projects.siteType,
        site: projects.siteCreationStatus,
        studio: projects.studioCreationStatus,
        retries: projects.deployRetryCount,
        permanent: projects.permanentErrorAt,
        accepted: projects.inviteToProjectAccepted,
        domain: projects.siteCustomDomain,
      })
      .from(projects)
      .orderBy(asc(projects.id)),
  );
  put(
    "members",
    await db()
      .select({
        id: members.id,
        projectId: members.projectId,
        userId: members.userId,
        email: members.invitedEmail,
        role: members.role,
        status: members.status,
        key: members.invitationKey,
      })
      .from(members)
      .orderBy(asc(members.id)),
  );
  put(
    "users",
    await db()
      .select({ id: users.id, email: users.email, splash: users.hideStudioSplash })
      .from(users)
      .orderBy(asc(users.id)),
  );
  put(
    "access_requests",
    await db()
      .select({ id: accessRequests.id, status: accessRequests.requestStatus })
      .from(accessRequests)
      .orderBy(asc(accessRequests.id)),
  );
  put(
    "local_studio_invites",
    await db()
      .select({
        id: localStudioInvites.id,
        status: localStudioInvites.status,
        sent: localStudioInvites.sentCount,
      })
      .from(localStudioInvites)
      .orderBy(asc(localStudioInvites.id)),
  );
  for (const [name, table] of Object.entries({
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
  })) {
    const [row] = await db().select({ n: count() }).from(table);
    put(name, row.n);
  }
  const jobs = await db().execute(
    sql`select count(*)::int as n from pgboss.job where name not like '\_\_pgboss%'`,
  );
  put("jobs", (jobs as unknown as { rows: { n: number }[] }).rows[0]?.n);
  return out;
}

function changedTables(before: Record<string, string>, after: Record<string, string>) {
  return Object.keys(before).filter((k) => before[k] !== after[k]);
}

// ---------------------------------------------------------------------------------------------
// The table

type Req = {
  path: string;
  method?: string;
  form?: Record<string, string>;
  json?: unknown;
  headers?: Record<string, string>;
  params?: Record<string, string>;
};

type Case = {
  name: string;
  fn: "loader" | "action";
  /** State this request needs, after the baseline (e.g. a failed deployment to retry). */
  setup?: (f: Fixture) => Promise<void>;
  request: (f: Fixture, actor: ActorName) => Req;
  expect: Expectations;
  /** A new session for this request (the request ends it). */
  freshSession?: true;
  /** Extra assertions on the response, e.g. that a list leaks no other project. */
  check?: (res: Response, actor: ActorName, f: Fixture) => Promise<void>;
};

type Row = {
  file: string;
  /** Why the route is open to anyone (login, signup, public stand-ins, ...). */
  public?: string;
  cases: Case[];
};

const emailOf = (f: Fixture, actor: ActorName) =>
  actor === "anonymous" ? "nobody@example.com" : f.users[actor].email;

let unique = 0;
const next = () => `${Date.now().toString(36)}-${(unique += 1)}`;

/** The dashboard's member forms: managers act, other members are refused, the rest denied. */
const MANAGERS_FORM: Expectations = {
  ...MANAGERS,
  editor: "refused",
  developer: "refused",
};

/** Add-on switches: the owner, member admins and support; other members are refused. */
const ADDON_FORM: Expectations = {
  ...allow(["admin", "owner", "platformAdmin"]),
  editor: "refused",
  developer: "refused",
};

/** An add-on route of the JSON API: 405 for GET, the owner, member admins and support for PUT. */
const addonApiRow = (file: string, path: string, body: (f: Fixture) => unknown): Row => ({
  file,
  cases: [
    { name: "GET (405)", fn: "loader", request: () => ({ path }), expect: NOT_ALLOWED },
    {
      name: `PUT ${path} on A`,
      fn: "action",
      request: (f) => ({ path, method: "PUT", json: body(f) }),
      expect: MANAGERS,
    },
  ],
});

/** The dashboard: its viewers see it, and its invitee the invitation card instead. */
const INVITED_OR_MEMBERS: Expectations = { ...VIEWERS, invited: "allow" };

/** The card's forms: the invitee answers; members and owner are refused; the rest get 404. */
const INVITEE_FORM: Expectations = {
  ...allow(["invited"]),
  editor: "refused",
  developer: "refused",
  admin: "refused",
  owner: "refused",
  platformAdmin: "refused",
};

const dashboardForm = (f: Fixture, form: Record<string, string>): Req => ({
  path: `/sites/${f.a.studioId}`,
  params: { studioId: f.a.studioId },
  form: { ...form, redirectTo: `/sites/${f.a.studioId}` },
});

const sectionRow = (section: string): Row => ({
  file: `_app.sites.${section}.$studioId.tsx`,
  cases: [
    {
      name: `GET /sites/${section}/{A}`,
      fn: "loader",
      request: (f) => ({
        path: `/sites/${section}/${f.a.studioId}`,
        params: { studioId: f.a.studioId },
      }),
      expect: VIEWERS,
    },
  ],
});

/** A list answer names project A exactly for A's owner and members. */
function listsProjectA(studioIds: (body: unknown) => string[]) {
  return async (res: Response, actor: ActorName, f: Fixture) => {
    if (res.status !== 200) return;
    const listed = studioIds(await res.clone().json()).includes(f.a.studioId);
    expect(listed, `${actor} sees project A in the list`).toBe(MEMBERS[actor] === "allow");
  };
}

const ROWS: Row[] = [
  {
    file: "_app._index.tsx",
    cases: [
      {
        name: "GET / (the project list)",
        fn: "loader",
        request: () => ({ path: "/" }),
        expect: SIGNED_IN,
        check: listsProjectA((b) =>
          (b as { data: { studioId: string }[] }).data.map((p) => p.studioId),
        ),
      },
    ],
  },
  {
    file: "_app.tsx",
    cases: [
      {
        name: "GET /sites/{A}?pq= (the picker names A for its viewers, and lists only one's own)",
        fn: "loader",
        request: (f) => ({ path: `/sites/${f.a.studioId}?pq=` }),
        expect: SIGNED_IN,
        check: async (res, actor, f) => {
          if (res.status !== 200) return;
          const body = (await res.clone().json()) as {
            picker: { projects: { studioId: string }[]; selected: { studioId: string } | null };
          };
          const member = MEMBERS[actor] === "allow";
          const viewer = VIEWERS[actor] === "allow";
          expect(body.picker.selected?.studioId ?? null, actor).toBe(viewer ? f.a.studioId : null);
          expect(
            body.picker.projects.some((p) => p.studioId === f.a.studioId),
            actor,
          ).toBe(member);
        },
      },
    ],
  },
  {
    file: "_app.admin.tsx",
    cases: [
      {
        name: "GET /admin",
        fn: "loader",
        request: () => ({ path: "/admin" }),
        expect: PLATFORM_ADMIN,
      },
      {
        name: "POST /admin approve",
        fn: "action",
        request: (f) => ({ path: "/admin", form: { intent: "approve", id: f.accessRequestId } }),
        expect: PLATFORM_ADMIN,
      },
    ],
  },
  {
    file: "_app.admin_.tokens.tsx",
    cases: [
      {
        name: "GET /admin/tokens",
        fn: "loader",
        request: () => ({ path: "/admin/tokens" }),
        expect: PLATFORM_ADMIN,
      },
      {
        name: "POST /admin/tokens revoke a leaked token of B's owner",
        fn: "action",
        request: (f) => ({ path: "/admin/tokens", form: { token: f.leakedToken } }),
        expect: PLATFORM_ADMIN,
      },
    ],
  },
  {
    file: "_app.dev.outbox.tsx",
    cases: [
      {
        name: "GET /dev/outbox",
        fn: "loader",
        request: () => ({ path: "/dev/outbox" }),
        expect: PLATFORM_ADMIN,
      },
    ],
  },
  {
    file: "_app.sites.$studioId.tsx",
    cases: [
      {
        name: "GET /sites/{A} (dashboard; the invitee gets the invitation card, support the page)",
        fn: "loader",
        request: (f) => ({ path: `/sites/${f.a.studioId}`, params: { studioId: f.a.studioId } }),
        expect: INVITED_OR_MEMBERS,
        check: async (res, actor) => {
          if (res.status !== 200) return;
          const body = (await res.clone().json()) as {
            invitation: unknown;
            project?: { role: string };
          };
          // The invitee sees the card and nothing of the project; members see no card, and a
          // platform admin outside the project sees it as support.
          expect(Boolean(body.invitation), actor).toBe(actor === "invited");
          expect(body.project === undefined, actor).toBe(actor === "invited");
          if (actor === "platformAdmin") expect(body.project?.role).toBe("support");
        },
      },
      {
        name: "POST invitation-accept (the card's Accept Invitation)",
        fn: "action",
        request: (f) => dashboardForm(f, { intent: "invitation-accept" }),
        expect: INVITEE_FORM,
      },
      {
        name: "POST invitation-decline (the card's Decline)",
        fn: "action",
        request: (f) => dashboardForm(f, { intent: "invitation-decline" }),
        expect: INVITEE_FORM,
      },
      {
        name: "POST member-invite",
        fn: "action",
        request: (f) =>
          dashboardForm(f, {
            intent: "member-invite",
            email: `form-invitee-${next()}@example.com`,
            role: "developer",
          }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST member-resend (the invitation)",
        fn: "action",
        request: (f) =>
          dashboardForm(f, { intent: "member-resend", memberId: f.memberIds.invited }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST member-remove (the editor)",
        fn: "action",
        request: (f) =>
          dashboardForm(f, {
            intent: "member-remove",
            memberId: f.memberIds.editor,
            memberEmail: f.users.editor.email,
          }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST member-role (the developer becomes editor)",
        fn: "action",
        request: (f) =>
          dashboardForm(f, {
            intent: "member-role",
            memberId: f.memberIds.developer,
            role: "editor",
          }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST social-link (Connect an Instagram account: to the authorization page)",
        fn: "action",
        request: (f) =>
          dashboardForm(f, {
            intent: "social-link",
            platform: "instagram",
            professional: "on",
            mode: "tab",
          }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST social-unlink (A's Instagram account)",
        fn: "action",
        setup: socialAccountA,
        request: (f) => dashboardForm(f, { intent: "social-unlink", accountId: SOCIAL_ACCOUNT_A }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST domain-change (set a custom domain)",
        fn: "action",
        request: (f) =>
          dashboardForm(f, { intent: "domain-change", domain: `form-${next()}.example.com` }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST domain-change (revert the custom domain)",
        fn: "action",
        request: (f) => dashboardForm(f, { intent: "domain-change", domain: "" }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST addon-toggle (GPT on)",
        fn: "action",
        request: (f) => dashboardForm(f, { intent: "addon-toggle", addon: "gpt", enabled: "true" }),
        expect: ADDON_FORM,
      },
      {
        name: "POST member-leave",
        fn: "action",
        request: (f) => dashboardForm(f, { intent: "member-leave" }),
        expect: {
          ...allow(["editor", "developer", "admin"]),
          owner: "refused",
          platformAdmin: "refused",
        },
      },
    ],
  },
  {
    file: "_app.sites.domains.tsx",
    cases: [
      {
        name: "GET /sites/domains (the user's own projects' domains)",
        fn: "loader",
        request: () => ({ path: "/sites/domains" }),
        expect: SIGNED_IN,
      },
    ],
  },
  {
    file: "_app.sites.support._index.tsx",
    cases: [
      {
        name: "GET /sites/support (A's owner's ticket for A's owner, admins and support only)",
        fn: "loader",
        setup: ticketA,
        request: () => ({ path: "/sites/support" }),
        expect: SIGNED_IN,
        check: async (res, actor) => {
          if (res.status !== 200) return;
          const body = (await res.clone().json()) as { page: { tickets: { id: string }[] } };
          const listed = body.page.tickets.some((t) => t.id === TICKET_A);
          expect(listed, `${actor} sees A's ticket`).toBe(TICKET_READERS[actor] === "allow");
        },
      },
      {
        name: "POST ticket-create (about no project)",
        fn: "action",
        request: (_f, actor) => ({
          path: "/sites/support?index",
          form: { intent: "ticket-create", subject: `Help ${actor}`, description: "Please" },
        }),
        expect: SIGNED_IN,
      },
      {
        name: "POST ticket-create about A (a project one may not view is refused as a field error)",
        fn: "action",
        request: (f, actor) => ({
          path: "/sites/support?index",
          form: {
            intent: "ticket-create",
            subject: `Help with A ${actor}`,
            projectId: f.a.id,
            description: "Please",
          },
        }),
        expect: { ...VIEWERS, outsider: status(400), invited: status(400) },
      },
    ],
  },
  {
    file: "_app.sites.support.$ticketId.tsx",
    cases: [
      {
        name: "GET A's ticket",
        fn: "loader",
        setup: ticketA,
        request: () => ({ path: `/sites/support/${TICKET_A}`, params: { ticketId: TICKET_A } }),
        expect: TICKET_READERS,
      },
      {
        name: "POST ticket-comment on A's ticket",
        fn: "action",
        setup: ticketA,
        request: () => ({
          path: `/sites/support/${TICKET_A}`,
          params: { ticketId: TICKET_A },
          form: { intent: "ticket-comment", body: "Any news?" },
        }),
        expect: TICKET_READERS,
        check: async (_res, actor) => {
          const replies = TICKET_READERS[actor] === "allow" ? 1 : 0;
          expect(await ticketAState(), actor).toEqual({ status: "open", replies });
        },
      },
      {
        name: "POST ticket-status of A's ticket (support only; its other viewers are refused)",
        fn: "action",
        setup: ticketA,
        request: () => ({
          path: `/sites/support/${TICKET_A}`,
          params: { ticketId: TICKET_A },
          form: { intent: "ticket-status", status: "in_progress" },
        }),
        expect: {
          ...allow(["platformAdmin"]),
          admin: "refused",
          owner: "refused",
        },
        check: async (_res, actor) => {
          const changed = actor === "platformAdmin";
          expect(await ticketAState(), actor).toEqual({
            status: changed ? "in_progress" : "open",
            replies: 0,
          });
        },
      },
    ],
  },
  {
    file: "_app.sites.integrations._index.tsx",
    cases: [
      {
        name: "GET /sites/integrations (the catalogue)",
        fn: "loader",
        request: () => ({ path: "/sites/integrations" }),
        expect: SIGNED_IN,
      },
    ],
  },
  {
    file: "_app.sites.integrations.$integrationId.tsx",
    cases: [
      {
        name: "GET /sites/integrations/payments (the projects to configure)",
        fn: "loader",
        request: () => ({
          path: "/sites/integrations/payments",
          params: { integrationId: "payments" },
        }),
        expect: SIGNED_IN,
        // Project A is listed for its owner and members, and platform admins (support).
        check: async (res, actor, f) => {
          if (res.status !== 200) return;
          const body = (await res.clone().json()) as { data: { configure: string }[] };
          const listed = body.data.some((p) => p.configure.includes(`/${f.a.studioId}`));
          expect(listed, `${actor} sees project A`).toBe(VIEWERS[actor] === "allow");
        },
      },
    ],
  },
  {
    file: "_app.sites.integrations.$integrationId_.$studioId.tsx",
    cases: [
      {
        name: "GET A's Stripe accounts",
        fn: "loader",
        request: (f) => ({
          path: `/sites/integrations/payments/${f.a.studioId}`,
          params: { integrationId: "payments", studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
      {
        name: "POST add a Stripe account to A",
        fn: "action",
        request: (f, actor) => ({
          path: `/sites/integrations/payments/${f.a.studioId}`,
          params: { integrationId: "payments", studioId: f.a.studioId },
          form: {
            intent: "payment-add",
            accountName: `Account of ${actor}`,
            publishableKey: `pk_test_${actor}${next()}`,
            secretKey: `sk_test_Secret${next().replace(/\W/g, "")}abc`,
          },
        }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST remove A's Stripe account",
        fn: "action",
        setup: async (f) => {
          await db().delete(paymentAccounts).where(eq(paymentAccounts.projectId, f.a.id));
          await db().insert(paymentAccounts).values({
            id: PAYMENT_ACCOUNT_A,
            projectId: f.a.id,
            accountName: "Shop A",
            publishableKey: "pk_test_shopa",
            secretKeyEncrypted: "v1.00000000.x.y.z",
            secretKeyLast4: "abcd",
            apiVersion: "2020-08-27",
          });
        },
        request: (f) => ({
          path: `/sites/integrations/payments/${f.a.studioId}`,
          params: { integrationId: "payments", studioId: f.a.studioId },
          form: { intent: "payment-remove", accountId: PAYMENT_ACCOUNT_A },
        }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST stripe-connect on A (to Stripe Connect's authorization page)",
        fn: "action",
        request: (f) => ({
          path: `/sites/integrations/payments/${f.a.studioId}`,
          params: { integrationId: "payments", studioId: f.a.studioId },
          form: { intent: "stripe-connect", mode: "tab" },
        }),
        expect: MANAGERS_FORM,
      },
    ],
  },
  {
    file: "studios.integrations.$integrationId.$studioId.($adminUserId).tsx",
    cases: [
      {
        name: "GET Configure payments on A",
        fn: "loader",
        request: (f) => ({
          path: `/studios/integrations/payments/${f.a.studioId}`,
          params: { integrationId: "payments", studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "_app.sites.$studioId_.activity.tsx",
    cases: [
      {
        name: "GET /sites/{A}/activity",
        fn: "loader",
        request: (f) => ({
          path: `/sites/${f.a.studioId}/activity`,
          params: { studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "_app.sites.$studioId_.deployment-error.tsx",
    cases: [
      {
        name: "GET /sites/{A}/deployment-error (not failed: back to the dashboard)",
        fn: "loader",
        request: (f) => ({
          path: `/sites/${f.a.studioId}/deployment-error`,
          params: { studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "_app.sites.$studioId_.failed-deployment.tsx",
    cases: [
      {
        name: "GET /sites/{A}/failed-deployment",
        fn: "loader",
        request: (f) => ({
          path: `/sites/${f.a.studioId}/failed-deployment`,
          params: { studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
      {
        name: "POST Retry deploy of A (failed)",
        fn: "action",
        setup: failA,
        request: (f) => ({
          path: `/sites/${f.a.studioId}/failed-deployment`,
          params: { studioId: f.a.studioId },
          form: { name: f.a.name, idempotencyKey: f.a.idempotencyKey },
        }),
        expect: MEMBERS,
      },
    ],
  },
  {
    file: "_app.sites._index.tsx",
    cases: [
      {
        name: "GET /sites (with the pending invitations)",
        fn: "loader",
        request: () => ({ path: "/sites" }),
        expect: SIGNED_IN,
        check: async (res, actor, f) => {
          if (res.status !== 200) return;
          const body = (await res.clone().json()) as { invitations: { studioId: string }[] };
          // A's invitation to its invitee only; B's (to an address nobody here has) to no one.
          expect(
            body.invitations.map((i) => i.studioId),
            actor,
          ).toEqual(actor === "invited" ? [f.a.studioId] : []);
        },
      },
      {
        name: "POST invitation-accept of A",
        fn: "action",
        request: (f) => ({
          path: "/sites?index",
          form: { intent: "invitation-accept", studioId: f.a.studioId },
        }),
        expect: { ...allow(["invited"], "refused"), anonymous: "deny" },
      },
      {
        name: "POST invitation-decline of A",
        fn: "action",
        request: (f) => ({
          path: "/sites?index",
          form: { intent: "invitation-decline", studioId: f.a.studioId },
        }),
        expect: { ...allow(["invited"], "refused"), anonymous: "deny" },
      },
      {
        name: "POST create a business project",
        fn: "action",
        request: () => ({
          path: "/sites?index",
          form: { intent: "create", name: `Created ${next()}`, idempotencyKey: `k-${next()}` },
        }),
        expect: SIGNED_IN,
      },
      {
        name: "POST create an enterprise project (choosing the site type)",
        fn: "action",
        request: () => ({
          path: "/sites?index",
          form: {
            intent: "create",
            name: `Enterprise ${next()}`,
            siteType: "enterprise",
            idempotencyKey: `k-${next()}`,
          },
        }),
        expect: PLATFORM_ADMIN,
      },
    ],
  },
  sectionRow("analytics"),
  {
    ...sectionRow("forms"),
    cases: [
      ...sectionRow("forms").cases,
      {
        name: "POST form-settings of A's Contact form",
        fn: "action",
        setup: contactFormA,
        request: (f) => ({
          path: `/sites/forms/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: {
            intent: "form-settings",
            formId: contactFormIdA,
            enabled: "on",
            notificationEmails: "",
          },
        }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST submissions-delete-all of A's Contact form",
        fn: "action",
        setup: contactFormA,
        request: (f) => ({
          path: `/sites/forms/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "submissions-delete-all", formId: contactFormIdA },
        }),
        expect: MANAGERS_FORM,
      },
    ],
  },
  {
    ...sectionRow("newsletter"),
    cases: [
      ...sectionRow("newsletter").cases,
      {
        name: "POST newsletter-save on A",
        fn: "action",
        request: (f) => ({
          path: `/sites/newsletter/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "newsletter-save", fromName: "A news", fromEmail: "news@a-perm.example" },
        }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST newsletter-test on A (a mail to oneself)",
        fn: "action",
        request: (f) => ({
          path: `/sites/newsletter/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "newsletter-test" },
        }),
        expect: VIEWERS,
      },
      {
        name: "POST sender-domain-add on A",
        fn: "action",
        setup: senderSettingsA,
        request: (f) => ({
          path: `/sites/newsletter/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "sender-domain-add" },
        }),
        expect: MANAGERS_FORM,
      },
    ],
  },
  {
    ...sectionRow("settings"),
    cases: [
      ...sectionRow("settings").cases,
      {
        name: "POST raise A's StackShift version",
        fn: "action",
        setup: async (f) => {
          await db().update(projects).set({ schemaVersion: 3 }).where(eq(projects.id, f.a.id));
        },
        request: (f) => ({
          path: `/sites/settings/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "schema-version", schemaVersion: "6" },
        }),
        expect: allow(["platformAdmin"]),
      },
      {
        name: "POST rename A (to its own name: nothing changes but the permission)",
        fn: "action",
        request: (f) => ({
          path: `/sites/settings/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "project-rename", name: f.a.name },
        }),
        // A refusal is said beside the form (403), so "deny" covers editors and developers.
        expect: MANAGERS,
      },
      {
        name: "POST delete A with a name that is not A's (refused beside the field)",
        fn: "action",
        request: (f) => ({
          path: `/sites/settings/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "project-delete", confirmName: "not the name" },
        }),
        // The owner and platform admins reach the name check (400); the rest are refused first.
        expect: { ...allow([]), owner: status(400), platformAdmin: status(400) },
      },
      {
        name: "POST transfer A to its admin member",
        fn: "action",
        request: (f) => ({
          path: `/sites/settings/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "project-transfer", toUserId: f.users.admin.id, confirm: "on" },
        }),
        expect: allow(["owner"]),
        // The fixture's owner must stay A's owner for the cases after this one.
        check: async (res, actor, f) => {
          if (actor !== "owner" || res.status >= 400) return;
          await db()
            .update(projects)
            .set({ ownerId: f.users.owner.id })
            .where(eq(projects.id, f.a.id));
          await db()
            .delete(members)
            .where(and(eq(members.projectId, f.a.id), eq(members.userId, f.users.owner.id)));
        },
      },
    ],
  },
  sectionRow("social-media"),
  {
    file: "_app.sites.user-settings.tsx",
    cases: [
      {
        name: "GET the signed-in user's settings",
        fn: "loader",
        request: () => ({ path: "/sites/user-settings" }),
        expect: SIGNED_IN,
      },
      {
        name: "POST save one's own name (unchanged)",
        fn: "action",
        request: (f, actor) => ({
          path: "/sites/user-settings",
          form: {
            intent: "account-name",
            name: actor === "anonymous" ? "Nobody" : f.users[actor].name,
          },
        }),
        expect: SIGNED_IN,
      },
    ],
  },
  {
    file: "_app.sites.user-settings_.tokens.tsx",
    cases: [
      {
        name: "GET one's own API tokens",
        fn: "loader",
        request: () => ({ path: "/sites/user-settings/tokens" }),
        expect: SIGNED_IN,
      },
      {
        name: "POST make a read token for oneself",
        fn: "action",
        request: () => ({
          path: "/sites/user-settings/tokens",
          form: { intent: "token-create", name: "Table", scope: "read", lifetimeDays: "7" },
        }),
        expect: SIGNED_IN,
      },
    ],
  },
  {
    file: "auth.email-change.$token.tsx",
    public: "the confirmation link mailed to a new e-mail address (the token is the proof)",
    cases: [
      {
        name: "GET with a token that was never issued",
        fn: "loader",
        request: () => ({
          path: "/auth/email-change/not-a-token",
          params: { token: "not-a-token" },
        }),
        expect: everyone(status(400)),
      },
      {
        name: "POST confirm with a token that was never issued",
        fn: "action",
        request: () => ({
          path: "/auth/email-change/not-a-token",
          params: { token: "not-a-token" },
          form: {},
        }),
        // Only a browser signed in to the account that asked may confirm.
        expect: { ...everyone(status(400)), anonymous: status(403) },
      },
    ],
  },
  {
    file: "form-notifications.$token.tsx",
    public:
      "the link mailed to a new notification address of a form (the token is the proof); it only shows",
    cases: [
      {
        name: "GET with a token that was never issued",
        fn: "loader",
        request: () => ({
          path: "/form-notifications/not-a-token",
          params: { token: "not-a-token" },
        }),
        expect: everyone(status(400)),
      },
      {
        name: "POST confirm with a token that was never issued",
        fn: "action",
        request: () => ({
          path: "/form-notifications/not-a-token",
          params: { token: "not-a-token" },
          form: {},
        }),
        expect: everyone(status(400)),
      },
    ],
  },
  {
    file: "auth.email-revert.$token.tsx",
    public:
      "the revert link mailed to the old address after an e-mail change (the token is the proof)",
    cases: [
      {
        name: "GET with a token that was never issued",
        fn: "loader",
        request: () => ({
          path: "/auth/email-revert/not-a-token",
          params: { token: "not-a-token" },
        }),
        expect: everyone(status(400)),
      },
      {
        name: "POST restore with a token that was never issued",
        fn: "action",
        request: () => ({
          path: "/auth/email-revert/not-a-token",
          params: { token: "not-a-token" },
          form: {},
        }),
        expect: everyone(status(400)),
      },
    ],
  },
  {
    ...sectionRow("website"),
    cases: [
      ...sectionRow("website").cases,
      {
        name: "POST Redeploy A",
        fn: "action",
        request: (f) => ({
          path: `/sites/website/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "site-redeploy" },
        }),
        // Not support (decision 011 as amended): publishing is the customer's team's.
        expect: {
          ...allow(["developer", "admin", "owner"]),
          editor: "refused",
          platformAdmin: "refused",
        },
      },
      {
        name: "POST Roll back A to its published deployment",
        fn: "action",
        setup: async (f) => {
          const [site] = await db()
            .select({ published: localSites.publishedDeployId })
            .from(localSites)
            .where(eq(localSites.id, f.a.siteId));
          publishedDeployA = site?.published ?? "";
        },
        request: (f) => ({
          path: `/sites/website/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "site-rollback", deployId: publishedDeployA },
        }),
        // Not support (decision 011 as amended): publishing is the customer's team's.
        expect: {
          ...allow(["developer", "admin", "owner"]),
          editor: "refused",
          platformAdmin: "refused",
        },
      },
    ],
  },
  {
    file: "api.app.$id.ts",
    cases: [
      {
        name: "GET /api/app/{A._id}",
        fn: "loader",
        request: (f) => ({ path: `/api/app/${f.a.id}`, params: { id: f.a.id } }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "api.app._index.ts",
    cases: [
      {
        name: "GET /api/app",
        fn: "loader",
        request: () => ({ path: "/api/app" }),
        expect: SIGNED_IN,
        check: listsProjectA((b) =>
          (b as { data: { studioId: string }[] }).data.map((p) => p.studioId),
        ),
      },
    ],
  },
  {
    file: "api.app.create.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/create" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST a business project",
        fn: "action",
        request: () => ({
          path: "/api/app/create",
          json: { name: `Api ${next()}`, idempotencyKey: `k-${next()}` },
        }),
        expect: SIGNED_IN,
      },
      {
        name: "POST an enterprise project (choosing the site type)",
        fn: "action",
        request: () => ({
          path: "/api/app/create",
          json: {
            name: `Api ent ${next()}`,
            siteType: "enterprise",
            idempotencyKey: `k-${next()}`,
          },
        }),
        expect: PLATFORM_ADMIN,
      },
    ],
  },
  {
    file: "api.app.deployments.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/deployments" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST deploy A",
        fn: "action",
        request: (f) => ({ path: "/api/app/deployments", json: { id: f.a.id } }),
        expect: MEMBERS,
      },
    ],
  },
  addonApiRow("api.app.activate-cstudio.ts", "/api/app/activate-cstudio", (f) => ({
    studioId: f.a.studioId,
    value: "true",
  })),
  addonApiRow("api.app.gpt3.ts", "/api/app/gpt3", (f) => ({
    studioId: f.a.studioId,
    value: "true",
  })),
  addonApiRow("api.app.newsletter.ts", "/api/app/newsletter", (f) => ({
    studioId: f.a.studioId,
    action: "enable",
  })),
  addonApiRow("api.app.studios.social-media.ts", "/api/app/studios/social-media", (f) => ({
    studioId: f.a.studioId,
    action: "enable",
  })),
  addonApiRow("api.app.e2e-tests.ts", "/api/app/e2e-tests", (f) => ({
    studioId: f.a.studioId,
    action: "enable",
  })),
  addonApiRow("api.app.chromatic.ts", "/api/app/chromatic", (f) => ({
    studioId: f.a.studioId,
    action: "enable",
    chromaticProjectToken: "chpt_0123456789",
  })),
  {
    file: "api.app.e2e-test-runs.ts",
    cases: [
      {
        name: "GET the runs of A's site repository",
        fn: "loader",
        request: (f) => ({ path: `/api/app/e2e-test-runs?repo=${f.a.repo}` }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "api.app.integrations.$integrationId.ts",
    cases: [
      {
        name: "GET A's Stripe accounts",
        fn: "loader",
        request: (f) => ({
          path: `/api/app/integrations/payments?action=get-accounts&studioId=${f.a.studioId}`,
          params: { integrationId: "payments" },
        }),
        expect: VIEWERS,
      },
      {
        name: "POST add-account to A",
        fn: "action",
        request: (f, actor) => ({
          path: "/api/app/integrations/payments",
          params: { integrationId: "payments" },
          json: {
            action: "add-account",
            studio: { pagebuilderId: f.a.studioId },
            stripeAccounts: {
              accountName: `API account of ${actor}`,
              stripePKey: `pk_test_api${actor}${next()}`,
              stripeSKey: `sk_test_Api${next().replace(/\W/g, "")}abc`,
            },
          },
        }),
        expect: MANAGERS,
      },
      {
        name: "POST connect-account on A with a state nobody started",
        fn: "action",
        request: (f) => ({
          path: "/api/app/integrations/payments",
          params: { integrationId: "payments" },
          json: {
            action: "connect-account",
            studio: { pagebuilderId: f.a.studioId },
            authorizationCode: "ac_forged",
            state: `${f.a.studioId}.${"F".repeat(32)}`,
          },
        }),
        expect: { ...everyone(status(400)), anonymous: "deny" },
      },
      {
        name: "POST exchange_token on A with a state nobody started",
        fn: "action",
        request: (f) => ({
          path: "/api/app/integrations/social-accounts",
          params: { integrationId: "social-accounts" },
          json: {
            action: "exchange_token",
            integration: { platform: "instagram" },
            pageBuilderId: f.a.studioId,
            authorizationCode: "forged-code",
            state: `${f.a.studioId}.${"F".repeat(32)}`,
          },
        }),
        expect: { ...everyone(status(400)), anonymous: "deny" },
      },
      {
        name: "PATCH unlink_account of A's Instagram account",
        fn: "action",
        setup: socialAccountA,
        request: (f) => ({
          path: "/api/app/integrations/social-accounts",
          method: "PATCH",
          params: { integrationId: "social-accounts" },
          json: {
            action: "unlink_account",
            integration: { platform: "instagram" },
            pageBuilderId: f.a.studioId,
            accountId: SOCIAL_ACCOUNT_A,
          },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "api.payments.stripe.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/payments/stripe" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST list the products of A's Stripe account",
        fn: "action",
        setup: paymentAccountA,
        request: () => ({
          path: "/api/payments/stripe?resource=products&action=list",
          json: { accountId: PAYMENT_ACCOUNT_A, limit: 3 },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "api.app.domains.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/domains" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "PUT update A's domain",
        fn: "action",
        request: (f) => ({
          path: "/api/app/domains",
          method: "PUT",
          json: {
            type: "site",
            action: "update",
            domain: `api-${next()}.example.com`,
            studioId: f.a.studioId,
          },
        }),
        expect: MANAGERS,
      },
      {
        name: "PUT revert A's domain",
        fn: "action",
        request: (f) => ({
          path: "/api/app/domains",
          method: "PUT",
          json: { action: "revert", domain: "", studioId: f.a.studioId },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "api.app.members.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/members" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST invite to A",
        fn: "action",
        request: (f) => ({
          path: "/api/app/members",
          json: { studioId: f.a.studioId, email: `invitee-${next()}@example.com`, role: "editor" },
        }),
        expect: MANAGERS,
      },
      {
        name: "PATCH accept A's invitation",
        fn: "action",
        request: (f, actor) => ({
          path: "/api/app/members",
          method: "PATCH",
          json: {
            studioId: f.a.studioId,
            memberInvitationKey: f.invitationKeyA,
            action: "accept",
            email: emailOf(f, actor),
          },
        }),
        expect: allow(["invited"]),
      },
      {
        name: "PATCH leave A",
        fn: "action",
        request: (f) => ({
          path: "/api/app/members",
          method: "PATCH",
          json: { studioId: f.a.studioId, action: "leave" },
        }),
        expect: allow(["editor", "developer", "admin"]),
      },
      {
        name: "PATCH change the developer's role",
        fn: "action",
        request: (f) => ({
          path: "/api/app/members",
          method: "PATCH",
          json: {
            studioId: f.a.studioId,
            action: "role",
            memberId: f.memberIds.developer,
            role: "editor",
          },
        }),
        expect: MANAGERS,
      },
      {
        name: "DELETE revoke the invitation",
        fn: "action",
        request: (f) => ({
          path: "/api/app/members",
          method: "DELETE",
          json: {
            studioId: f.a.studioId,
            memberId: f.memberIds.invited,
            memberEmail: f.users.invited.email,
            memberInvitationKey: f.invitationKeyA,
          },
        }),
        expect: MANAGERS,
      },
      {
        name: "DELETE remove the editor",
        fn: "action",
        request: (f) => ({
          path: "/api/app/members",
          method: "DELETE",
          json: {
            studioId: f.a.studioId,
            memberId: f.memberIds.editor,
            memberEmail: f.users.editor.email,
          },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "api.app.project-invite.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/project-invite" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST resend my studio invitation on A",
        fn: "action",
        request: (f, actor) => ({
          path: "/api/app/project-invite",
          json: { projectId: f.a.id, email: emailOf(f, actor) },
        }),
        // Support has no studio invitation of its own to resend.
        expect: { ...MEMBERS, platformAdmin: status(400) },
      },
      {
        name: "POST resend the developer's studio invitation on A",
        fn: "action",
        request: (f) => ({
          path: "/api/app/project-invite",
          json: { projectId: f.a.id, email: f.users.developer.email },
        }),
        expect: allow(["developer", "admin", "owner", "platformAdmin"]),
      },
    ],
  },
  {
    file: "api.app.retry.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/retry" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST retry A (failed)",
        fn: "action",
        setup: failA,
        request: (f) => ({
          path: "/api/app/retry",
          json: { name: f.a.name, idempotencyKey: f.a.idempotencyKey },
        }),
        expect: MEMBERS,
      },
    ],
  },
  {
    file: "api.auth.logout-callback.tsx",
    public: "the identity provider sends the browser back here after logging out",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/api/auth/logout-callback" }),
        expect: everyone(status(302, "/auth/login")),
      },
    ],
  },
  {
    file: "api.deployments.$studioId.ts",
    cases: [
      {
        name: "GET /api/deployments/{A}",
        fn: "loader",
        request: (f) => ({
          path: `/api/deployments/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
      {
        name: "POST (405)",
        fn: "action",
        request: (f) => ({
          path: `/api/deployments/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          json: {},
        }),
        expect: NOT_ALLOWED,
      },
    ],
  },
  {
    file: "auth.forgot.tsx",
    public: "asking for a password reset needs no session",
    cases: [
      { name: "GET", fn: "loader", request: () => ({ path: "/auth/forgot" }), expect: PUBLIC },
      {
        name: "POST",
        fn: "action",
        request: () => ({ path: "/auth/forgot", form: { email: `forgot-${next()}@example.com` } }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "auth.login.tsx",
    public: "the login page",
    cases: [
      { name: "GET", fn: "loader", request: () => ({ path: "/auth/login" }), expect: PUBLIC },
      {
        name: "POST wrong password",
        fn: "action",
        request: (f) => ({
          path: "/auth/login",
          form: { email: f.users.outsider.email, password: "not the password" },
        }),
        expect: everyone(status(401)),
      },
    ],
  },
  {
    file: "auth.logout.tsx",
    public: "logging out ends whatever session there is",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/auth/logout" }),
        expect: everyone(status(302, "/")),
      },
      {
        name: "POST",
        fn: "action",
        request: () => ({ path: "/auth/logout", form: {} }),
        freshSession: true,
        expect: everyone(status(302, "/auth/login")),
      },
    ],
  },
  {
    file: "auth.oidc.callback.tsx",
    public: "the identity provider's return (single sign-on is off in tests: back to login)",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/auth/oidc/callback?code=x&state=y" }),
        expect: everyone(status(302, "/auth/login")),
      },
    ],
  },
  {
    file: "auth.oidc.tsx",
    public: "starting single sign-on (off in tests: back to login)",
    cases: [
      { name: "GET", fn: "loader", request: () => ({ path: "/auth/oidc" }), expect: PUBLIC },
      {
        name: "POST",
        fn: "action",
        request: () => ({ path: "/auth/oidc", form: {} }),
        expect: everyone(status(302, "/auth/login")),
      },
    ],
  },
  {
    file: "auth.reset.$token.tsx",
    public: "the password reset link; the token is the credential",
    cases: [
      {
        name: "GET with an unknown token",
        fn: "loader",
        request: () => ({ path: "/auth/reset/nope", params: { token: "nope" } }),
        expect: everyone(status(400)),
      },
      {
        name: "POST with an unknown token",
        fn: "action",
        request: () => ({
          path: "/auth/reset/nope",
          params: { token: "nope" },
          form: { password: "a new password 123", confirmPassword: "a new password 123" },
        }),
        expect: everyone(status(400)),
      },
    ],
  },
  {
    file: "api.openapi[.]json.ts",
    public: "the OpenAPI document of the JSON API",
    cases: [
      { name: "GET", fn: "loader", request: () => ({ path: "/api/openapi.json" }), expect: PUBLIC },
    ],
  },
  {
    file: "api.user.ts",
    cases: [
      // Each signed-in actor reads only themselves: the answer comes from the session, never a parameter.
      {
        name: "GET /api/user",
        fn: "loader",
        request: () => ({ path: "/api/user" }),
        expect: SIGNED_IN,
      },
    ],
  },
  {
    file: "auth.verify._index.tsx",
    public: "'Confirm your email' after signup, with Resend (same answer for any address)",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/auth/verify?email=someone%40example.com" }),
        expect: PUBLIC,
      },
      {
        name: "POST Resend",
        fn: "action",
        request: () => ({ path: "/auth/verify", form: { email: `resend-${next()}@example.com` } }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "auth.verify.$token.tsx",
    public: "the confirmation link of a signup; the token is the credential",
    cases: [
      {
        name: "GET with an unknown token",
        fn: "loader",
        request: () => ({ path: "/auth/verify/nope", params: { token: "nope" } }),
        expect: everyone(status(400)),
      },
      {
        name: "POST confirm with an unknown token",
        fn: "action",
        request: () => ({
          path: "/auth/verify/nope",
          params: { token: "nope" },
          form: { password: "a long enough password" },
        }),
        expect: everyone(status(400)),
      },
    ],
  },
  {
    file: "dashboard.tsx",
    public: "an alias of /sites",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/dashboard" }),
        expect: everyone(status(302, "/sites")),
      },
    ],
  },
  {
    file: "healthz.ts",
    public: "liveness",
    cases: [{ name: "GET", fn: "loader", request: () => ({ path: "/healthz" }), expect: PUBLIC }],
  },
  {
    file: "invitations.$invitationKey.tsx",
    public: "the invitation card: the key in the e-mailed link is the credential",
    cases: [
      {
        name: "GET the card of A's invitation",
        fn: "loader",
        request: (f) => ({
          path: `/invitations/${f.invitationKeyA}`,
          params: { invitationKey: f.invitationKeyA },
        }),
        expect: PUBLIC,
      },
      {
        name: "POST Accept Invitation",
        fn: "action",
        request: (f) => ({
          path: `/invitations/${f.invitationKeyA}`,
          params: { invitationKey: f.invitationKeyA },
          form: { intent: "accept" },
        }),
        // Others are sent back to the card with an error toast; nothing changes.
        expect: { ...everyone("refused"), anonymous: "deny", invited: "allow" },
      },
      {
        name: "POST Ignore",
        fn: "action",
        request: (f) => ({
          path: `/invitations/${f.invitationKeyA}`,
          params: { invitationKey: f.invitationKeyA },
          form: { intent: "decline" },
        }),
        expect: { ...everyone("refused"), anonymous: status(302, "/"), invited: "allow" },
      },
    ],
  },
  {
    file: "forms.$formId.ts",
    public: "the public endpoint the hosted sites' forms post to (CORS limits it to their origins)",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: (f) => ({ path: `/forms/${f.a.studioId}`, params: { formId: f.a.studioId } }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST a submission to A's Contact form",
        fn: "action",
        setup: contactFormA,
        request: () => ({
          path: `/forms/${contactFormIdA}`,
          params: { formId: contactFormIdA },
          json: { name: "Visitor", message: "Hello" },
        }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "analytics.collect.ts",
    public: "hosted sites report page views here (only from their own origins)",
    cases: [
      {
        name: "POST a page view of A's site",
        fn: "action",
        setup: analyticsKeyOfA,
        request: () => ({
          path: "/analytics/collect",
          json: { k: analyticsKeyA, p: "/", r: "" },
        }),
        expect: everyone(status(204)),
      },
      {
        name: "POST a page view of A's site from another site's page (403)",
        fn: "action",
        setup: analyticsKeyOfA,
        request: () => ({
          path: "/analytics/collect",
          json: { k: analyticsKeyA, p: "/" },
          headers: { Origin: "https://elsewhere.example" },
        }),
        expect: everyone(status(403)),
      },
      {
        name: "GET the <noscript> pixel of A's site",
        fn: "loader",
        setup: analyticsKeyOfA,
        request: () => ({ path: `/analytics/collect?k=${analyticsKeyA}&p=/` }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "analytics[.]js.ts",
    public: "the page-view script hosted sites include",
    cases: [
      {
        name: "GET the script",
        fn: "loader",
        request: () => ({ path: "/analytics.js" }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "forms.$formId.thanks.tsx",
    public: "the thank-you page after a plain form post",
    cases: [
      {
        name: "GET the thanks of A's Contact form",
        fn: "loader",
        setup: contactFormA,
        request: () => ({
          path: `/forms/${contactFormIdA}/thanks`,
          params: { formId: contactFormIdA },
        }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "newsletter.logo.$studioId.ts",
    public: "newsletter logos, loaded by every subscriber's mail client",
    cases: [
      {
        name: "GET A's logo (none uploaded: 404)",
        fn: "loader",
        request: (f) => ({
          path: `/newsletter/logo/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
        }),
        expect: everyone(status(404)),
      },
    ],
  },
  {
    file: "resources.forms-export.$formId.ts",
    cases: [
      {
        name: "GET the CSV of A's Contact form",
        fn: "loader",
        setup: contactFormA,
        request: () => ({
          path: `/resources/forms-export/${contactFormIdA}`,
          params: { formId: contactFormIdA },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "api.app.forms.$id.ts",
    cases: [
      {
        name: "GET A's Contact form",
        fn: "loader",
        setup: contactFormA,
        request: () => ({
          path: `/api/app/forms/${contactFormIdA}`,
          params: { id: contactFormIdA },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "api.app.forms.settings.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/forms/settings" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST the settings of A's Contact form",
        fn: "action",
        setup: contactFormA,
        request: () => ({
          path: "/api/app/forms/settings",
          json: { formId: contactFormIdA, enabled: true },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "api.app.forms.submissions.delete.$id.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/forms/submissions/delete/x", params: { id: "x" } }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST delete a submission of A's Contact form",
        fn: "action",
        setup: contactFormA,
        request: () => ({
          path: `/api/app/forms/submissions/delete/00000000-0000-4000-8000-000000000000`,
          params: { id: "00000000-0000-4000-8000-000000000000" },
          json: { formId: contactFormIdA },
        }),
        // Managers reach the submission lookup (not found); the rest are refused before it.
        expect: { ...MANAGERS, admin: status(404), owner: status(404), platformAdmin: status(404) },
      },
    ],
  },
  {
    file: "api.app.forms.submissions.deleteAll.$id.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/forms/submissions/deleteAll/x", params: { id: "x" } }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST delete all submissions of A's Contact form",
        fn: "action",
        setup: contactFormA,
        request: () => ({
          path: `/api/app/forms/submissions/deleteAll/${contactFormIdA}`,
          params: { id: contactFormIdA },
          json: { formId: contactFormIdA },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "api.newsletter.ts",
    cases: [
      {
        name: "GET A's sender domains",
        fn: "loader",
        request: (f) => ({ path: `/api/newsletter?path=domains&studioId=${f.a.studioId}` }),
        expect: VIEWERS,
      },
      {
        name: "POST add a sender domain to A",
        fn: "action",
        setup: senderSettingsA,
        request: (f) => ({
          path: "/api/newsletter?path=domains",
          json: { studioId: f.a.studioId, domain: "a-perm.example", region: "us-east-1" },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "local.oauth.$provider.authorize.tsx",
    public: "the local Instagram and Stripe authorization pages, stand-ins for the vendors' own",
    cases: [
      {
        name: "GET Instagram's page",
        fn: "loader",
        request: () => ({ path: LOCAL_AUTHORIZE, params: { provider: "instagram" } }),
        expect: PUBLIC,
      },
      {
        name: "GET with another site's return address (no open redirect)",
        fn: "loader",
        request: () => ({
          path: LOCAL_AUTHORIZE.replace("localhost%3A3000", "evil.example"),
          params: { provider: "instagram" },
        }),
        expect: everyone(status(400)),
      },
      {
        name: "POST Authorize (back to the return page with a code)",
        fn: "action",
        request: () => ({
          path: LOCAL_AUTHORIZE,
          params: { provider: "instagram" },
          form: { decision: "authorize", userName: "perm.table" },
        }),
        expect: everyone(status(302, "/oauth/instagram/callback")),
      },
    ],
  },
  {
    file: "oauth.$provider.callback.tsx",
    cases: [
      {
        name: "GET with a state nobody started (refused, code untouched)",
        fn: "loader",
        request: (f) => ({
          path: `/oauth/instagram/callback?code=abc&state=${f.a.studioId}.${"F".repeat(32)}`,
          params: { provider: "instagram" },
        }),
        expect: SIGNED_IN,
      },
      {
        name: "POST Continue with a state nobody started",
        fn: "action",
        request: (f) => ({
          path: "/oauth/stripe/callback",
          params: { provider: "stripe" },
          form: { code: "abc", state: `${f.a.studioId}.${"F".repeat(32)}` },
        }),
        expect: { ...everyone("refused"), anonymous: "deny" },
      },
    ],
  },
  {
    file: "local.sites.$siteId.tsx",
    public: "the local hosting provider's published site (a public website)",
    cases: [
      {
        name: "GET A's site",
        fn: "loader",
        request: (f) => ({ path: `/local/sites/${f.a.siteId}`, params: { siteId: f.a.siteId } }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "local.studio.$projectId.tsx",
    public: "the local content studio stand-in; only the invited account accepts an invite",
    cases: [
      {
        name: "GET A's studio",
        fn: "loader",
        request: (f) => ({
          path: `/local/studio/${f.a.studioSanityId}`,
          params: { projectId: f.a.studioSanityId },
        }),
        expect: PUBLIC,
      },
      {
        name: "POST accept an unknown invite",
        fn: "action",
        request: (f) => ({
          path: `/local/studio/${f.a.studioSanityId}`,
          params: { projectId: f.a.studioSanityId },
          form: { inviteId: "not-an-invite" },
        }),
        expect: everyone(status(404)),
      },
      {
        name: "POST accept the owner's invite",
        fn: "action",
        setup: pendingOwnerInvite,
        request: (f) => ({
          path: `/local/studio/${f.a.studioSanityId}`,
          params: { projectId: f.a.studioSanityId },
          form: { inviteId: ownerInviteId },
        }),
        // The link is not enough: only the invited address accepts (a login redirect first).
        expect: { ...everyone(status(403)), anonymous: "deny", owner: "allow" },
      },
    ],
  },
  {
    file: "pagebuilders.tsx",
    public: "an alias of /sites",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/pagebuilders" }),
        expect: everyone(status(302, "/sites")),
      },
    ],
  },
  {
    file: "request-access.tsx",
    public: "prospective customers ask for access here",
    cases: [
      { name: "GET", fn: "loader", request: () => ({ path: "/request-access" }), expect: PUBLIC },
      {
        name: "POST review",
        fn: "action",
        request: () => ({
          path: "/request-access",
          form: {
            intent: "review",
            fullName: "Rae Viewer",
            businessEmail: `rae-${next()}@example.com`,
          },
        }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "resources.picker.ts",
    cases: [
      {
        name: "GET /resources/picker",
        fn: "loader",
        request: () => ({ path: "/resources/picker?q=permission" }),
        expect: SIGNED_IN,
        check: listsProjectA((b) =>
          (b as { projects: { studioId: string }[] }).projects.map((p) => p.studioId),
        ),
      },
    ],
  },
  {
    file: "resources.studio-invite.ts",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/resources/studio-invite" }),
        expect: everyone(status(302, "/")),
      },
      {
        name: "POST Resend Invitation (own e-mail) on A",
        fn: "action",
        request: (f, actor) => ({
          path: "/resources/studio-invite",
          form: {
            projectId: f.a.studioId,
            email: emailOf(f, actor),
            redirectTo: `/sites/${f.a.studioId}`,
          },
        }),
        // Support has no studio invitation of its own: the form says it could not resend.
        expect: { ...MEMBERS, platformAdmin: "refused" },
      },
    ],
  },
  {
    file: "resources.studio-launch.ts",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/resources/studio-launch" }),
        expect: everyone(status(302, "/")),
      },
      {
        name: "POST Take me to Studio (JSON)",
        fn: "action",
        request: (f) => ({
          path: "/resources/studio-launch",
          form: { studioId: f.a.studioId },
          headers: { Accept: "application/json" },
        }),
        expect: MEMBERS,
      },
      {
        name: "POST Dev Console (JSON)",
        fn: "action",
        request: (f) => ({
          path: "/resources/studio-launch",
          form: { studioId: f.a.studioId, target: "dev-console" },
          headers: { Accept: "application/json" },
        }),
        expect: allow(["developer", "admin", "owner", "platformAdmin"]),
      },
      {
        name: "POST Theme Preview (JSON)",
        fn: "action",
        request: (f) => ({
          path: "/resources/studio-launch",
          form: { studioId: f.a.studioId, target: "theme-preview" },
          headers: { Accept: "application/json" },
        }),
        expect: allow(["developer", "admin", "owner", "platformAdmin"]),
      },
    ],
  },
  {
    file: "resources.theme.tsx",
    public: "colour mode is a cookie of the browser",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/resources/theme" }),
        expect: everyone(status(302, "/")),
      },
      {
        name: "POST dark",
        fn: "action",
        request: () => ({ path: "/resources/theme", form: { theme: "dark" } }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "signup.tsx",
    public: "the signup page",
    cases: [
      { name: "GET", fn: "loader", request: () => ({ path: "/signup" }), expect: PUBLIC },
      {
        name: "POST without fields",
        fn: "action",
        request: () => ({ path: "/signup", form: {} }),
        expect: everyone(status(400)),
      },
    ],
  },
  {
    file: "studios.autologin.$studioId.tsx",
    cases: [
      {
        name: "GET with the actor's own launch token for A",
        fn: "loader",
        request: (f, actor) => {
          const token = actor === "anonymous" ? "" : createLaunchToken(asUser(f.users[actor]), f.a);
          return {
            path: `/studios/autologin/${f.a.studioId}?token=${token}`,
            params: { studioId: f.a.studioId },
          };
        },
        // The token names the user; without one the link is invalid (400).
        expect: { ...MEMBERS, anonymous: status(400) },
      },
      {
        name: "POST Take me to Studio from the splash",
        fn: "action",
        request: (f) => ({
          path: `/studios/autologin/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { hideSplash: "on" },
        }),
        expect: MEMBERS,
      },
    ],
  },
];

/**
 * Cross-project checks: A's admin (and A's owner) send project B's ids to B's routes and APIs,
 * or B's rows through A's. Every one is denied and changes nothing.
 */
type CrossCase = {
  name: string;
  file: string;
  fn: "loader" | "action";
  request: (f: Fixture) => Req;
  setup?: (f: Fixture) => Promise<void>;
  /** "deny" unless said otherwise. */
  expect?: Expect;
};
const CROSS: CrossCase[] = [
  {
    name: "B's support ticket",
    file: "_app.sites.support.$ticketId.tsx",
    fn: "loader",
    setup: ticketB,
    request: () => ({ path: `/sites/support/${TICKET_B}`, params: { ticketId: TICKET_B } }),
  },
  {
    name: "reply on B's support ticket",
    file: "_app.sites.support.$ticketId.tsx",
    fn: "action",
    setup: ticketB,
    request: () => ({
      path: `/sites/support/${TICKET_B}`,
      params: { ticketId: TICKET_B },
      form: { intent: "ticket-comment", body: "Let me in" },
    }),
  },
  {
    name: "dashboard of B",
    file: "_app.sites.$studioId.tsx",
    fn: "loader",
    request: (f) => ({ path: `/sites/${f.b.studioId}`, params: { studioId: f.b.studioId } }),
  },
  {
    name: "invite to B with B's dashboard form",
    file: "_app.sites.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { intent: "member-invite", email: `cross-${next()}@example.com`, role: "admin" },
    }),
  },
  {
    name: "remove B's member with A's dashboard form",
    file: "_app.sites.$studioId.tsx",
    fn: "action",
    request: (f) =>
      dashboardForm(f, {
        intent: "member-remove",
        memberId: f.memberIds.b,
        memberEmail: f.users.memberB.email,
      }),
    expect: "refused",
  },
  {
    name: "accept B's invitation (someone else's) from /sites",
    file: "_app.sites._index.tsx",
    fn: "action",
    expect: "refused",
    request: (f) => ({
      path: "/sites?index",
      form: { intent: "invitation-accept", studioId: f.b.studioId },
    }),
  },
  {
    name: "decline B's invitation (someone else's) on B's dashboard",
    file: "_app.sites.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { intent: "invitation-decline" },
    }),
  },
  {
    name: "activity of B",
    file: "_app.sites.$studioId_.activity.tsx",
    fn: "loader",
    request: (f) => ({
      path: `/sites/${f.b.studioId}/activity`,
      params: { studioId: f.b.studioId },
    }),
  },
  {
    name: "GET /api/app/{B._id}",
    file: "api.app.$id.ts",
    fn: "loader",
    request: (f) => ({ path: `/api/app/${f.b.id}`, params: { id: f.b.id } }),
  },
  {
    name: "GET /api/deployments/{B}",
    file: "api.deployments.$studioId.ts",
    fn: "loader",
    request: (f) => ({
      path: `/api/deployments/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
    }),
  },
  {
    name: "deploy B",
    file: "api.app.deployments.ts",
    fn: "action",
    request: (f) => ({ path: "/api/app/deployments", json: { id: f.b.id } }),
  },
  {
    name: "retry B through the API",
    file: "api.app.retry.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/retry",
      json: { name: f.b.name, idempotencyKey: f.b.idempotencyKey },
    }),
  },
  {
    name: "retry B through A's failed-deployment page",
    file: "_app.sites.$studioId_.failed-deployment.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/${f.a.studioId}/failed-deployment`,
      params: { studioId: f.a.studioId },
      form: { name: f.b.name, idempotencyKey: f.b.idempotencyKey },
    }),
  },
  {
    name: "invite to B",
    file: "api.app.members.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/members",
      json: { studioId: f.b.studioId, email: `cross-${next()}@example.com`, role: "admin" },
    }),
  },
  {
    name: "remove B's member through B",
    file: "api.app.members.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/members",
      method: "DELETE",
      json: { studioId: f.b.studioId, memberId: f.memberIds.b, memberEmail: f.users.memberB.email },
    }),
  },
  {
    name: "remove B's member through A",
    file: "api.app.members.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/members",
      method: "DELETE",
      json: { studioId: f.a.studioId, memberId: f.memberIds.b, memberEmail: f.users.memberB.email },
    }),
  },
  {
    name: "change the role of B's member through A",
    file: "api.app.members.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/members",
      method: "PATCH",
      json: { studioId: f.a.studioId, action: "role", memberId: f.memberIds.b, role: "admin" },
    }),
  },
  {
    name: "accept B's invitation (someone else's) through A",
    file: "api.app.members.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/members",
      method: "PATCH",
      json: { studioId: f.a.studioId, memberInvitationKey: f.invitationKeyB, action: "accept" },
    }),
  },
  {
    name: "leave B",
    file: "api.app.members.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/members",
      method: "PATCH",
      json: { studioId: f.b.studioId, action: "leave" },
    }),
  },
  {
    name: "resend the studio invitation of B's member",
    file: "api.app.project-invite.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/project-invite",
      json: { projectId: f.b.id, email: f.users.memberB.email },
    }),
  },
  {
    name: "Resend Invitation form on B",
    file: "resources.studio-invite.ts",
    fn: "action",
    request: (f) => ({
      path: "/resources/studio-invite",
      form: { projectId: f.b.studioId, email: f.users.admin.email },
    }),
  },
  {
    name: "launch B's studio",
    file: "resources.studio-launch.ts",
    fn: "action",
    request: (f) => ({
      path: "/resources/studio-launch",
      form: { studioId: f.b.studioId },
      headers: { Accept: "application/json" },
    }),
  },
  {
    name: "Dev Console of B",
    file: "resources.studio-launch.ts",
    fn: "action",
    request: (f) => ({
      path: "/resources/studio-launch",
      form: { studioId: f.b.studioId, target: "dev-console" },
      headers: { Accept: "application/json" },
    }),
  },
  {
    name: "End To End Tests runs of B's repository",
    file: "api.app.e2e-test-runs.ts",
    fn: "loader",
    request: (f) => ({ path: `/api/app/e2e-test-runs?repo=${f.b.repo}` }),
  },
  {
    name: "Stripe accounts of B",
    file: "_app.sites.integrations.$integrationId_.$studioId.tsx",
    fn: "loader",
    request: (f) => ({
      path: `/sites/integrations/payments/${f.b.studioId}`,
      params: { integrationId: "payments", studioId: f.b.studioId },
    }),
  },
  {
    name: "add a Stripe account to B",
    file: "_app.sites.integrations.$integrationId_.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/integrations/payments/${f.b.studioId}`,
      params: { integrationId: "payments", studioId: f.b.studioId },
      form: {
        intent: "payment-add",
        accountName: "Not mine",
        publishableKey: `pk_test_cross${next()}`,
        secretKey: `sk_test_Cross${next().replace(/\W/g, "")}abc`,
      },
    }),
  },
  {
    name: "remove-account of B's account through the API",
    file: "api.app.integrations.$integrationId.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/integrations/payments",
      params: { integrationId: "payments" },
      json: {
        action: "remove-account",
        studio: { pagebuilderId: f.b.studioId },
        account: { id: PAYMENT_ACCOUNT_A },
      },
    }),
  },
  {
    name: "Connect an Instagram account to B with B's dashboard form",
    file: "_app.sites.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { intent: "social-link", platform: "instagram", professional: "on", mode: "tab" },
    }),
  },
  {
    name: "unlink B's Instagram account through the API",
    file: "api.app.integrations.$integrationId.ts",
    fn: "action",
    setup: accountsOfB,
    request: (f) => ({
      path: "/api/app/integrations/social-accounts",
      method: "PATCH",
      params: { integrationId: "social-accounts" },
      json: {
        action: "unlink_account",
        integration: { platform: "instagram" },
        pageBuilderId: f.b.studioId,
        accountId: SOCIAL_ACCOUNT_B,
      },
    }),
  },
  {
    name: "list the products of B's Stripe account",
    file: "api.payments.stripe.ts",
    fn: "action",
    setup: accountsOfB,
    request: () => ({
      path: "/api/payments/stripe?resource=products&action=list",
      json: { accountId: PAYMENT_ACCOUNT_B },
    }),
  },
  {
    name: "start Stripe Connect on B",
    file: "_app.sites.integrations.$integrationId_.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/integrations/payments/${f.b.studioId}`,
      params: { integrationId: "payments", studioId: f.b.studioId },
      form: { intent: "stripe-connect", mode: "tab" },
    }),
  },
  {
    name: "save B's newsletter settings with B's form",
    file: "_app.sites.newsletter.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/newsletter/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { intent: "newsletter-save", fromName: "Not mine" },
    }),
  },
  {
    name: "delete all submissions of B's Contact form",
    file: "_app.sites.forms.$studioId.tsx",
    fn: "action",
    setup: async (f) => {
      contactFormIdB = await ensureDefaultForm(f.b.id);
    },
    request: (f) => ({
      path: `/sites/forms/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { intent: "submissions-delete-all", formId: contactFormIdB },
    }),
  },
  {
    name: "delete all submissions of B's form through A's page",
    file: "_app.sites.forms.$studioId.tsx",
    fn: "action",
    setup: async (f) => {
      contactFormIdB = await ensureDefaultForm(f.b.id);
    },
    request: (f) => ({
      path: `/sites/forms/${f.a.studioId}`,
      params: { studioId: f.a.studioId },
      form: { intent: "submissions-delete-all", formId: contactFormIdB },
    }),
    // A's page is A's: B's form is not found there, said in a toast, and nothing is deleted.
    expect: "refused",
  },
  {
    name: "export B's submissions",
    file: "resources.forms-export.$formId.ts",
    fn: "loader",
    setup: async (f) => {
      contactFormIdB = await ensureDefaultForm(f.b.id);
    },
    request: () => ({
      path: `/resources/forms-export/${contactFormIdB}`,
      params: { formId: contactFormIdB },
    }),
  },
  {
    name: "delete B through B's Settings page",
    file: "_app.sites.settings.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/settings/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { intent: "project-delete", confirmName: f.b.name },
    }),
  },
  {
    name: "Configure an integration on B",
    file: "studios.integrations.$integrationId.$studioId.($adminUserId).tsx",
    fn: "loader",
    request: (f) => ({
      path: `/studios/integrations/social-accounts/${f.b.studioId}`,
      params: { integrationId: "social-accounts", studioId: f.b.studioId },
    }),
  },
  {
    name: "autologin splash of B",
    file: "studios.autologin.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/studios/autologin/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { hideSplash: "on" },
    }),
  },
  {
    name: "accept B's invitation on its card",
    file: "invitations.$invitationKey.tsx",
    fn: "action",
    expect: "refused",
    request: (f) => ({
      path: `/invitations/${f.invitationKeyB}`,
      params: { invitationKey: f.invitationKeyB },
      form: { intent: "accept" },
    }),
  },
];

// ---------------------------------------------------------------------------------------------
// Checking the table against the route files

type RouteModule = { loader?: RouteFn; action?: RouteFn };
type RouteFn = Parameters<typeof call>[0];

const routesDir = path.resolve("app/routes");
const routeFiles = fs
  .readdirSync(routesDir)
  .filter((f) => /\.(ts|tsx)$/.test(f) && !f.includes(".test."))
  .sort();

/** Problems of the table against a list of route files: missing rows, rows for no file. */
function tableProblems(files: readonly string[], rows: readonly Row[]): string[] {
  const problems: string[] = [];
  const byFile = new Map<string, number>();
  for (const row of rows) byFile.set(row.file, (byFile.get(row.file) ?? 0) + 1);
  for (const file of files) {
    if (!byFile.has(file)) {
      problems.push(
        `app/routes/${file} has no row in the permission table (tests/integration/permissions-table.test.ts): add one for its loader/action and every actor`,
      );
    }
  }
  for (const [file, n] of byFile) {
    if (!files.includes(file)) problems.push(`the row for ${file} names no route file`);
    if (n > 1) problems.push(`${file} has ${n} rows; merge them`);
  }
  return problems;
}

/** Every exported loader and action has a case, and every case's function exists. */
function caseProblems(row: Row, mod: RouteModule): string[] {
  const problems: string[] = [];
  for (const fn of ["loader", "action"] as const) {
    const has = typeof mod[fn] === "function";
    const cases = row.cases.filter((c) => c.fn === fn);
    if (has && cases.length === 0) problems.push(`${row.file}: its ${fn} has no case`);
    if (!has && cases.length > 0)
      problems.push(`${row.file}: has no ${fn}, but the table tests one`);
  }
  return problems;
}

const importRoute = (file: string) =>
  import(/* @vite-ignore */ path.join(routesDir, file)) as Promise<RouteModule>;

// ---------------------------------------------------------------------------------------------
// Running a request

const APP_URL = BASE;

/** The redirect's target as a path of the app (an absolute URL on APP_URL shortened). */
function redirectPath(res: Response) {
  const raw = locationOf(res);
  if (!raw) return null;
  return raw.startsWith(`${APP_URL}/`) ? raw.slice(APP_URL.length) : raw;
}

async function classify(res: Response): Promise<"allow" | "deny" | "refused" | "other"> {
  if (res.status >= 200 && res.status < 300) return "allow";
  if (res.status >= 300 && res.status < 400) {
    const location = redirectPath(res) ?? "";
    if (location.startsWith("/auth/login")) return "deny";
    if (!location.startsWith("/") || location.startsWith("//")) return "other";
    return (await toastOf(res))?.type === "error" ? "refused" : "allow";
  }
  if ([401, 403, 404].includes(res.status)) return "deny";
  return "other";
}

async function matches(res: Response, expected: Expect) {
  if (typeof expected === "string") return (await classify(res)) === expected;
  if (res.status !== expected.status) return false;
  return expected.location === undefined || (redirectPath(res) ?? "").startsWith(expected.location);
}

const show = (e: Expect) =>
  typeof e === "string" ? e : `${e.status}${e.location ? ` -> ${e.location}` : ""}`;

async function describeResponse(res: Response) {
  const location = redirectPath(res);
  const toast = await toastOf(res);
  if (toast) return `${res.status} -> ${location} (${toast.type} toast: ${toast.title})`;
  let body = "";
  try {
    body = (await res.clone().text()).slice(0, 160);
  } catch {
    // a stream already read
  }
  return `${res.status}${location ? ` -> ${location}` : ""}${body ? ` ${body}` : ""}`;
}

let ip = 0;
async function run(
  f: Fixture,
  mod: RouteModule,
  fn: "loader" | "action",
  req: Req,
  cookie: string | undefined,
) {
  const handler = mod[fn];
  if (!handler) throw new Error(`no ${fn}`);
  const request = makeRequest(req.path, {
    method: req.method ?? (fn === "action" ? "POST" : "GET"),
    cookie,
    form: req.form,
    json: req.json,
    headers: req.headers,
  });
  ip += 1;
  return call(handler, request, req.params ?? {}, { clientIp: `10.9.${ip >> 8}.${ip & 255}` });
}

/** One request as one actor: returns what went wrong, if anything. */
async function check(
  f: Fixture,
  mod: RouteModule,
  c: Pick<Case, "fn" | "request" | "freshSession" | "check" | "setup">,
  actor: ActorName,
  expected: Expect,
): Promise<string[]> {
  await baseline(f);
  await c.setup?.(f);
  const before = expected === "allow" ? null : await snapshot();
  const cookie =
    actor !== "anonymous" && c.freshSession
      ? await sessionCookie(f.users[actor].id)
      : f.cookies[actor];
  let res: Response;
  try {
    res = await run(f, mod, c.fn, c.request(f, actor), cookie);
  } catch (error) {
    return [`${actor}: threw ${String(error)}`];
  }
  const problems: string[] = [];
  if (!(await matches(res, expected))) {
    problems.push(`${actor}: expected ${show(expected)}, got ${await describeResponse(res)}`);
  }
  if (before) {
    const changed = changedTables(before, await snapshot());
    if (changed.length > 0) problems.push(`${actor}: changed ${changed.join(", ")}`);
  }
  if (c.check) {
    try {
      await c.check(res, actor, f);
    } catch (error) {
      problems.push(`${actor}: ${String(error)}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------

let fixture: Fixture;
beforeAll(async () => {
  fixture = await buildFixture();
});

describe("the permission table", () => {
  it("has a row for every route file, and only for route files", async () => {
    expect(tableProblems(routeFiles, ROWS)).toEqual([]);
    const problems: string[] = [];
    for (const row of ROWS) {
      if (!routeFiles.includes(row.file)) continue;
      problems.push(...caseProblems(row, await importRoute(row.file)));
    }
    expect(problems).toEqual([]);
    // Imports every route module: on a busy 2-core machine that alone took over 20 s.
  }, 90_000);

  it("fails, naming the file, when a route has no row (fixture with a made-up route)", () => {
    const files = [...routeFiles, "api.app.made-up-route.ts"];
    expect(tableProblems(files, ROWS)).toEqual([
      "app/routes/api.app.made-up-route.ts has no row in the permission table (tests/integration/permissions-table.test.ts): add one for its loader/action and every actor",
    ]);
    // ...and a row whose route was deleted is reported too.
    expect(tableProblems(routeFiles.slice(1), ROWS)).toEqual([
      `the row for ${routeFiles[0]} names no route file`,
    ]);
  });

  it("marks why each public route is public", () => {
    for (const row of ROWS.filter((r) => r.public !== undefined)) {
      expect(row.public!.length, row.file).toBeGreaterThan(5);
    }
  });
});

describe.each(ROWS.filter((row) => routeFiles.includes(row.file)))("$file", (row) => {
  it.each(row.cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const mod = await importRoute(row.file);
    const problems: string[] = [];
    for (const actor of ACTORS) {
      problems.push(...(await check(fixture, mod, c, actor, c.expect[actor])));
    }
    expect(problems).toEqual([]);
  });
});

describe("cross-project: project A's admin and owner send project B's ids", () => {
  it.each(CROSS.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const mod = await importRoute(c.file);
    const problems: string[] = [];
    for (const actor of ["admin", "owner"] as const) {
      problems.push(...(await check(fixture, mod, c, actor, c.expect ?? "deny")));
    }
    expect(problems).toEqual([]);
  });
});

describe("membership is read on every request", () => {
  it("a role change or a removal applies to the very next request", async () => {
    const f = fixture;
    await baseline(f);
    const { action } = await importRoute("api.app.members.ts");
    const { loader } = await importRoute("api.app.$id.ts");
    const invite = () =>
      call(
        action!,
        makeRequest("/api/app/members", {
          cookie: f.cookies.editor,
          json: { studioId: f.a.studioId, email: `fresh-${next()}@example.com`, role: "editor" },
        }),
      );
    const view = () =>
      call(loader!, makeRequest(`/api/app/${f.a.id}`, { cookie: f.cookies.editor }), {
        id: f.a.id,
      });

    expect((await invite()).status).toBe(403);
    await db().update(members).set({ role: "admin" }).where(eq(members.id, f.memberIds.editor));
    expect((await invite()).status).toBe(201);
    expect(((await (await view()).json()) as { role: string }).role).toBe("admin");

    await db().delete(members).where(eq(members.id, f.memberIds.editor));
    expect((await view()).status).toBe(404);
    expect((await invite()).status).toBe(404);
    await baseline(f);
  });
});

describe("platform admins on other people's projects (support access)", () => {
  const supportEntries = async (projectId: string, userId: string) =>
    db()
      .select({ type: eventLogs.type, content: eventLogs.content })
      .from(eventLogs)
      .where(and(eq(eventLogs.projectId, projectId), eq(eventLogs.actorId, userId)))
      .then((rows) => rows.filter((r) => r.type.startsWith("support.")));

  it("add members outside the project, each change logged; as a member, no support entry", async () => {
    const f = fixture;
    await baseline(f);
    await db().delete(eventLogs).where(eq(eventLogs.actorId, f.users.platformAdmin.id));
    const { action } = await importRoute("api.app.members.ts");
    const invite = () =>
      call(
        action!,
        makeRequest("/api/app/members", {
          cookie: f.cookies.platformAdmin,
          json: { studioId: f.a.studioId, email: `pa-${next()}@example.com`, role: "editor" },
        }),
      );
    // Outside the project (as "platform admin, owner or member admin" may): allowed, logged.
    expect((await invite()).status).toBe(201);
    expect((await invite()).status).toBe(201);
    const logged = await supportEntries(f.a.id, f.users.platformAdmin.id);
    expect(logged.filter((e) => e.type === "support.changed")).toEqual([
      { type: "support.changed", content: "Support access by Pat Platform: added a member" },
      { type: "support.changed", content: "Support access by Pat Platform: added a member" },
    ]);
    // An editor member who is a platform admin acts as a member: no support entry.
    await db().delete(eventLogs).where(eq(eventLogs.actorId, f.users.platformAdmin.id));
    await db().insert(members).values({
      projectId: f.a.id,
      userId: f.users.platformAdmin.id,
      invitedEmail: f.users.platformAdmin.email,
      role: "editor",
      status: "accepted",
    });
    expect((await invite()).status).toBe(201);
    expect(await supportEntries(f.a.id, f.users.platformAdmin.id)).toEqual([]);
    await baseline(f);
  });
});
