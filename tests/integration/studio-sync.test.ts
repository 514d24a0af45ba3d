/**
 * Leaving ends access everywhere (decision 025): every dashboard change that ends or changes someone's
 * access sends, in its transaction, the job that brings the content studio in line, and one run
 * of it leaves the studio matching the dashboard; the hourly reconciliation fixes planted drift.
 * Someone losing the studio's administrator role takes its API tokens with them (the vendor
 * cannot say who made one), and the project's Activity Log says so.
 * With the local studio (the default) and with Sanity's stand-in (PROVIDERS=live).
 */
import { and, eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eventLogs, localStudioInvites, members, outbox } from "~/db/schema";
import { queue } from "~/jobs/queue.server";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import {
  acceptLocalInvite,
  createLocalStudioToken,
  localStudioTokenWorks,
} from "~/providers/content-studio/local.server";
import { loader as studioLoader } from "~/routes/local.studio.$projectId";
import { changeMemberRole, leaveProject, removeMember } from "~/services/members/members.server";
import { inviteMemberToStudio } from "~/services/members/member-studio-job.server";
import { transferOwnership } from "~/services/projects/project-settings.server";
import {
  RECONCILE_BATCH,
  reconcileStudios,
  STUDIO_RECONCILE_JOB,
  STUDIO_SYNC_JOB,
  studioAccessJobs,
  syncStudioAccess,
  type StudioFix,
} from "~/services/studio/studio-access.server";
import {
  confirmEmailChange,
  deleteAccount,
  requestEmailChange,
  revertEmailChange,
} from "~/services/accounts/user-settings.server";
import { resetEnv } from "~/utils/env.server";
import { captureLogs } from "~/utils/logger.server";
import { call, makeRequest } from "../helpers";
import { startSanityStandIn, type SanityStandIn } from "../stand-ins/sanity";
import { acceptedMember, actor, invite, withFailingInsert, type Actor } from "./members-support";
import { provisionedProject } from "./studio-fixtures";

type Project = Awaited<ReturnType<typeof provisionedProject>>;

/** One run of the queued studio jobs, as a worker would take them (fetch, handle, complete). */
async function runJobs(name = STUDIO_SYNC_JOB): Promise<number> {
  const handler = studioAccessJobs.find((j) => j.name === name)!.handler;
  let ran = 0;
  for (;;) {
    const jobs = await queue().fetch<Record<string, unknown>>(name, { batchSize: 50 });
    if (!jobs || jobs.length === 0) return ran;
    for (const job of jobs) {
      await handler(job.data);
      await queue().complete(name, job.id);
      ran += 1;
    }
  }
}

async function queuedFor(projectId: string, email?: string) {
  const { rows } = (await db().execute(
    sql`select data from pgboss.job where name = ${STUDIO_SYNC_JOB} and state = 'created'
        and data->>'projectId' = ${projectId}`,
  )) as unknown as { rows: { data: { email: string; studio?: string } }[] };
  return rows.map((r) => r.data).filter((d) => !email || d.email === email);
}

const accessOf = (project: Project) => contentStudioProvider().listAccess(project.studioSanityId);

const rolesOf = async (project: Project, email: string) =>
  (await accessOf(project)).members.find((m) => m.email === email)?.roles;

const invitedIn = async (project: Project, email: string) =>
  (await accessOf(project)).invitations.find((i) => i.email === email)?.role;

/** The studio's owner accepted (the local studio's link, or the stand-in's acceptance). */
let acceptStudio: (project: Project, email: string) => Promise<void>;
/** An API token made in the studio's own interface (by some administrator: nobody records who). */
let makeToken: (project: Project, label: string) => Promise<{ id: string; key: string }>;
let tokenWorks: (project: Project, key: string) => Promise<boolean>;

/** The project's Activity Log entries about revoked studio tokens, oldest first. */
async function tokenEntries(project: Project) {
  const rows = await db()
    .select()
    .from(eventLogs)
    .where(and(eq(eventLogs.projectId, project._id), eq(eventLogs.type, "studio.tokens.revoked")));
  return rows.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
}

async function acceptLocally(project: Project, email: string) {
  const [row] = await db()
    .select({ id: localStudioInvites.id })
    .from(localStudioInvites)
    .where(
      and(
        eq(localStudioInvites.studioId, project.studioSanityId),
        eq(localStudioInvites.email, email),
      ),
    );
  expect((await acceptLocalInvite(project.studioSanityId, row.id, email)).outcome).toBe("accepted");
}

/** A dashboard member (accepted) who also joined the studio through the invitation job. */
async function studioMember(
  owner: Actor,
  project: Project,
  role: "editor" | "developer" | "admin" = "editor",
  { acceptInStudio = true } = {},
) {
  const member = await acceptedMember(owner, project, role);
  expect(await inviteMemberToStudio(member.memberId)).toBe("invited");
  if (acceptInStudio) await acceptStudio(project, member.email);
  return member;
}

async function ownerWithProject() {
  const owner = await actor();
  const project = await provisionedProject(owner);
  await acceptStudio(project, owner.email);
  return { owner, project };
}

function scenarios() {
  it("removing a member takes them out of the studio; a revoked invitation goes too", async () => {
    const { owner, project } = await ownerWithProject();
    const ann = await studioMember(owner, project, "admin");
    const bob = await studioMember(owner, project, "editor", { acceptInStudio: false });
    expect(await rolesOf(project, ann.email)).toEqual(["administrator"]);
    expect(await invitedIn(project, bob.email)).toBe("editor");

    await removeMember(owner.user, { studioId: project.studioId, memberId: ann.memberId });
    await removeMember(owner.user, { studioId: project.studioId, memberId: bob.memberId });
    const queued = await queuedFor(project._id);
    expect(queued.map((d) => d.email).sort()).toEqual([ann.email, bob.email].sort());
    await runJobs();

    const access = await accessOf(project);
    expect(access.members.map((m) => m.email)).toEqual([owner.email]);
    expect(access.invitations).toEqual([]);
    // Idempotent: the same jobs again (a retry after a lost answer) change nothing.
    const sync = studioAccessJobs.find((j) => j.name === STUDIO_SYNC_JOB)!.handler;
    for (const data of queued) await sync(data);
    expect(await accessOf(project)).toEqual(access);
  });

  it("a member leaving leaves the studio", async () => {
    const { owner, project } = await ownerWithProject();
    const ann = await studioMember(owner, project, "developer");
    await leaveProject(ann.user, project.studioId);
    await runJobs();
    expect(await rolesOf(project, ann.email)).toBeUndefined();
    expect(await rolesOf(project, owner.email)).toEqual(["administrator"]);
  });

  it("a role change sets the studio role, down and up; an administrator demoted takes the API tokens", async () => {
    const { owner, project } = await ownerWithProject();
    const ann = await studioMember(owner, project, "admin");
    const token = await makeToken(project, "Ann's script");
    await changeMemberRole(owner.user, {
      studioId: project.studioId,
      memberId: ann.memberId,
      role: "editor",
    });
    await runJobs();
    expect(await rolesOf(project, ann.email)).toEqual(["editor"]);
    expect(await tokenWorks(project, token.key)).toBe(false);
    expect((await tokenEntries(project)).map((e) => e.metadata)).toEqual([{ email: ann.email }]);
    await changeMemberRole(owner.user, {
      studioId: project.studioId,
      memberId: ann.memberId,
      role: "developer",
    });
    await runJobs();
    expect(await rolesOf(project, ann.email)).toEqual(["developer"]);
  });

  it("an ownership transfer keeps both as administrators, and the former owner can then be removed", async () => {
    const { owner, project } = await ownerWithProject();
    const ann = await studioMember(owner, project, "admin");
    await transferOwnership(owner.user, project.studioId, ann.id);
    expect((await queuedFor(project._id)).map((d) => d.email).sort()).toEqual(
      [owner.email, ann.email].sort(),
    );
    await runJobs();
    expect(await rolesOf(project, ann.email)).toEqual(["administrator"]);
    expect(await rolesOf(project, owner.email)).toEqual(["administrator"]);

    const [formerOwner] = await db()
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.projectId, project._id), eq(members.invitedEmail, owner.email)));
    await removeMember(ann.user, { studioId: project.studioId, memberId: formerOwner.id });
    await runJobs();
    expect((await accessOf(project)).members.map((m) => m.email)).toEqual([ann.email]);
  });

  it("an e-mail change moves the person's studio access to the new address, and a revert moves it back", async () => {
    const { owner, project } = await ownerWithProject();
    const ann = await studioMember(owner, project, "developer");
    const moved = `moved-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    const reauth = { currentPassword: ann.password, ssoFresh: false, clientIp: "203.0.113.8" };
    await requestEmailChange(ann.user, moved, reauth);
    const [request] = await db().select().from(outbox).where(eq(outbox.to, moved));
    const token = /\/auth\/email-change\/([\w-]+)/.exec(request.text)![1];
    await confirmEmailChange(token, ann.user, "the-session-confirming-it");
    await runJobs();
    // Out under the old address, invited under the new one with the same role.
    expect(await rolesOf(project, ann.email)).toBeUndefined();
    expect(await invitedIn(project, ann.email)).toBeUndefined();
    expect(await invitedIn(project, moved)).toBe("developer");
    // The owner's own address change: the owner stays the studio's administrator, and the
    // studio's API tokens stay too (the person did not lose access).
    const kept = await makeToken(project, "Kept through the move");
    const ownerMoved = `owner-${moved}`;
    await requestEmailChange(owner.user, ownerMoved, {
      currentPassword: owner.password,
      ssoFresh: false,
      clientIp: "203.0.113.8",
    });
    const [ownerMail] = await db().select().from(outbox).where(eq(outbox.to, ownerMoved));
    const ownerToken = /\/auth\/email-change\/([\w-]+)/.exec(ownerMail.text)![1];
    await confirmEmailChange(ownerToken, owner.user, "the-owner-session");
    await runJobs();
    expect(await rolesOf(project, owner.email)).toBeUndefined();
    expect(await invitedIn(project, ownerMoved)).toBe("administrator");
    expect(await tokenWorks(project, kept.key)).toBe(true);
    expect(await tokenEntries(project)).toEqual([]);
    // Ann's old address reverts the change from the notice: the studio follows back.
    const [notice] = await db()
      .select()
      .from(outbox)
      .where(
        and(
          eq(outbox.to, ann.email),
          eq(outbox.subject, "Your StackShift e-mail address was changed"),
        ),
      );
    const revertToken = /\/auth\/email-revert\/([\w-]+)/.exec(notice.text)![1];
    await revertEmailChange(revertToken);
    await runJobs();
    expect(await invitedIn(project, moved)).toBeUndefined();
    expect(await invitedIn(project, ann.email)).toBe("developer");
  });

  it("an account deletion sends, with the deletion, the job that takes the person out of every studio", async () => {
    const { owner, project } = await ownerWithProject();
    const { owner: other, project: second } = await ownerWithProject();
    const ann = await studioMember(owner, project, "editor");
    // Ann is a member of the second project too.
    const annThere = await acceptedMember(other, second, "developer", ann);
    expect(await inviteMemberToStudio(annThere.memberId)).toBe("invited");
    await acceptStudio(second, ann.email);

    await deleteAccount(ann.user, {
      currentPassword: ann.password,
      ssoFresh: false,
      clientIp: "203.0.113.7",
    });
    // The rows are gone; the jobs carry what they need.
    expect(await queuedFor(project._id, ann.email)).toEqual([
      { projectId: project._id, email: ann.email, studio: project.studioSanityId },
    ]);
    expect(await queuedFor(second._id, ann.email)).toHaveLength(1);
    await runJobs();
    expect(await rolesOf(project, ann.email)).toBeUndefined();
    expect(await rolesOf(second, ann.email)).toBeUndefined();
  });

  it("an administrator removed, leaving or deleting their account takes the studio's API tokens first; an editor does not", async () => {
    const { owner, project } = await ownerWithProject();
    const ann = await studioMember(owner, project, "admin");
    const bob = await studioMember(owner, project, "editor");
    const deploy = await makeToken(project, "Deploy hook");
    const preview = await makeToken(project, "Preview");

    // An editor cannot make tokens: removing one leaves them.
    await removeMember(owner.user, { studioId: project.studioId, memberId: bob.memberId });
    await runJobs();
    expect(await rolesOf(project, bob.email)).toBeUndefined();
    expect(await tokenWorks(project, deploy.key)).toBe(true);
    expect(await tokenEntries(project)).toEqual([]);

    // The administrator removed: every token of the studio is revoked, then Ann goes.
    await removeMember(owner.user, { studioId: project.studioId, memberId: ann.memberId });
    await runJobs();
    expect(await rolesOf(project, ann.email)).toBeUndefined();
    expect(await tokenWorks(project, deploy.key)).toBe(false);
    expect(await tokenWorks(project, preview.key)).toBe(false);
    expect(await contentStudioProvider().listTokens(project.studioSanityId)).toEqual([]);
    const [entry] = await tokenEntries(project);
    expect(entry).toMatchObject({
      label: "Studio API tokens revoked",
      metadata: { email: ann.email },
    });
    expect(entry.content).toContain(ann.email);
    expect(entry.content).toContain(
      "all 2 of its API tokens were revoked: 'Deploy hook', 'Preview'",
    );
    // The owner keeps the studio.
    expect(await rolesOf(project, owner.email)).toEqual(["administrator"]);

    // Leaving, and deleting the account, end an administrator's access the same way.
    const cy = await studioMember(owner, project, "admin");
    const importer = await makeToken(project, "Import script");
    await leaveProject(cy.user, project.studioId);
    await runJobs();
    expect(await rolesOf(project, cy.email)).toBeUndefined();
    expect(await tokenWorks(project, importer.key)).toBe(false);

    const dee = await studioMember(owner, project, "admin");
    const webhook = await makeToken(project, "Webhook");
    await deleteAccount(dee.user, {
      currentPassword: dee.password,
      ssoFresh: false,
      clientIp: "203.0.113.9",
    });
    await runJobs();
    expect(await rolesOf(project, dee.email)).toBeUndefined();
    expect(await tokenWorks(project, webhook.key)).toBe(false);
    expect((await tokenEntries(project)).map((e) => e.metadata)).toEqual([
      { email: ann.email },
      { email: cy.email },
      { email: dee.email },
    ]);
  });

  it("reconciliation removes strangers, corrects roles and revokes invitations the dashboard does not back", async () => {
    const { owner, project } = await ownerWithProject();
    const ann = await studioMember(owner, project, "editor");
    const bob = await studioMember(owner, project, "developer", { acceptInStudio: false });
    const provider = contentStudioProvider();
    // Drift: Ann made administrator in the studio, a stranger let in, Bob's invitation for a
    // higher role, an invitation for someone only invited on the dashboard.
    await provider.setMemberRole(project.studioSanityId, ann.email, "administrator");
    await provider.inviteMember(project.studioSanityId, {
      email: "stranger@example.com",
      role: "administrator",
    });
    await acceptStudio(project, "stranger@example.com");
    await provider.revokeInvite(project.studioSanityId, bob.email);
    await provider.inviteMember(project.studioSanityId, {
      email: bob.email,
      role: "administrator",
    });
    const madeMeanwhile = await makeToken(project, "Made while drifted");
    await invite(owner.cookie, project.studioId, "pending@example.com");
    await provider.inviteMember(project.studioSanityId, {
      email: "pending@example.com",
      role: "editor",
    });

    // Other tests' projects: with the stand-in, their local studios are unknown (logged, skipped).
    const logs = captureLogs("info");
    try {
      let after: string | undefined;
      const fixes = [];
      // Every batch of the run, as the job's continuations would take them.
      for (;;) {
        const outcome = await reconcileStudios({ after, limit: 10 });
        fixes.push(...outcome.fixes);
        if (!outcome.next) break;
        after = outcome.next;
      }
      expect(
        fixes.filter(
          (f) => [ann.email, bob.email].includes(f.email) || /stranger|pending/.test(f.email),
        ),
      ).toEqual(
        expect.arrayContaining([
          { email: ann.email, action: "role-changed", role: "editor" },
          { email: "stranger@example.com", action: "removed" },
          { email: bob.email, action: "invitation-renewed", role: "developer" },
          { email: "pending@example.com", action: "invitation-revoked" },
        ]),
      );
      expect(logs.records).toContainEqual(
        expect.objectContaining({
          msg: "studio drift fixed",
          studio: project.studioSanityId,
          email: "stranger@example.com",
          action: "removed",
        }),
      );
      const access = await accessOf(project);
      expect(access.members.map((m) => [m.email, m.roles]).sort()).toEqual(
        [
          [owner.email, ["administrator"]],
          [ann.email, ["editor"]],
        ].sort(),
      );
      expect(access.invitations).toEqual([{ email: bob.email, role: "developer" }]);
      // Ann and the stranger were administrators in the studio: its tokens went with the role.
      expect(await tokenWorks(project, madeMeanwhile.key)).toBe(false);
      expect(await tokenEntries(project)).toHaveLength(1);

      // Nothing left to fix.
      const again = await reconcileStudios({ limit: 1000 });
      expect(again.fixes.filter((f) => f.email === ann.email || f.email === bob.email)).toEqual([]);
    } finally {
      logs.restore();
    }
  });
}

describe("with the local studio", () => {
  beforeEach(() => {
    acceptStudio = acceptLocally;
    makeToken = (project, label) =>
      createLocalStudioToken(project.studioSanityId, { label, role: "administrator" });
    tokenWorks = (project, key) => localStudioTokenWorks(project.studioSanityId, key);
  });
  scenarios();

  it("sends no job when the change rolls back", async () => {
    const { owner, project } = await ownerWithProject();
    const ann = await studioMember(owner, project, "editor");
    await expect(
      withFailingInsert("event_logs", "new.type = 'members.removed'", () =>
        removeMember(owner.user, { studioId: project.studioId, memberId: ann.memberId }),
      ),
    ).rejects.toThrow();
    expect(await queuedFor(project._id)).toEqual([]);
    expect(await rolesOf(project, ann.email)).toEqual(["editor"]);
  });

  it("the reconciliation job works in batches, each handing the rest to a job of its own", async () => {
    const owner = await actor();
    const count = async () =>
      (
        (await db().execute(
          sql`select count(*)::int as n from projects where studio_sanity_id is not null`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0].n;
    // More provisioned projects than one batch takes.
    while ((await count()) <= RECONCILE_BATCH) await provisionedProject(owner, { invite: false });
    const reconcile = studioAccessJobs.find((j) => j.name === STUDIO_RECONCILE_JOB)!;
    expect(reconcile.schedule).toBe("17 * * * *");

    await reconcile.handler({});
    const continuations = async () =>
      (
        (await db().execute(
          sql`select data, singleton_key from pgboss.job where name = ${STUDIO_RECONCILE_JOB}`,
        )) as unknown as { rows: { data: { after: string }; singleton_key: string }[] }
      ).rows;
    const [next] = await continuations();
    expect(next.singleton_key).toBe(`after:${next.data.after}`);
    // A retried batch hands over once.
    await reconcile.handler({});
    expect(await continuations()).toHaveLength(1);
    // The continuations walk the rest, then stop.
    expect(await runJobs(STUDIO_RECONCILE_JOB)).toBeGreaterThanOrEqual(1);
    expect(await runJobs(STUDIO_RECONCILE_JOB)).toBe(0);
  });

  it("the studio page lists members and pending invitations to its members only", async () => {
    const { owner, project } = await ownerWithProject();
    const ann = await studioMember(owner, project, "developer", { acceptInStudio: false });
    const page = async (cookie?: string) => {
      const res = await call(
        studioLoader,
        makeRequest(`/local/studio/${project.studioSanityId}`, { cookie }),
        { projectId: project.studioSanityId },
      );
      return (await res.json()) as { access: unknown };
    };
    expect((await page(owner.cookie)).access).toEqual({
      members: [{ email: owner.email, roles: ["administrator"] }],
      invitations: [{ email: ann.email, role: "developer" }],
    });
    // Invited, not yet a member: nothing listed (as on the vendor's page).
    expect((await page(ann.cookie)).access).toBeNull();
    expect((await page()).access).toBeNull();
  });
});

describe("with Sanity (PROVIDERS=live) against the stand-in", () => {
  let standIn: SanityStandIn;
  beforeEach(async () => {
    standIn = await startSanityStandIn();
    process.env.PROVIDERS = "live";
    process.env.SANITY_AUTH_TOKEN = standIn.token;
    process.env.SANITY_API_URL = standIn.url;
    resetEnv();
    acceptStudio = async (project, email) => standIn.acceptInvite(project.studioSanityId, email);
    makeToken = async (project, label) =>
      standIn.createToken(project.studioSanityId, label, "administrator");
    tokenWorks = async (_project, key) => standIn.tokenWorks(key);
  });
  afterEach(async () => {
    for (const key of ["PROVIDERS", "SANITY_AUTH_TOKEN", "SANITY_API_URL"]) delete process.env[key];
    resetEnv();
    await standIn.close();
  });
  scenarios();

  it("a studio member without an address is removed by the reconciliation, by id, and logged", async () => {
    const { owner, project } = await ownerWithProject();
    // Someone Sanity lists without an e-mail (the users endpoint gives none).
    standIn.seedMember(project.studioSanityId, "", ["administrator"]);
    const stranger = standIn.projects
      .get(project.studioSanityId)!
      .members.find((m) => m.email === "" && !m.isRobot)!.id;
    expect((await accessOf(project)).unaddressed).toEqual([
      { id: stranger, roles: ["administrator"] },
    ]);
    // A sync for one person is about that address only.
    await syncStudioAccess({ projectId: project._id, email: owner.email });
    expect((await accessOf(project)).unaddressed).toHaveLength(1);

    const logs = captureLogs("info");
    const fixes: StudioFix[] = [];
    try {
      let after: string | undefined;
      for (;;) {
        const outcome = await reconcileStudios({ after, limit: 50 });
        fixes.push(...outcome.fixes);
        if (!outcome.next) break;
        after = outcome.next;
      }
      expect(logs.records).toContainEqual(
        expect.objectContaining({
          msg: "studio drift fixed",
          studio: project.studioSanityId,
          userId: stranger,
          action: "removed",
        }),
      );
    } finally {
      logs.restore();
    }
    expect(fixes).toContainEqual({ email: "", userId: stranger, action: "removed" });
    expect(
      standIn.requests.filter((r) => r.method === "DELETE" && r.path.endsWith(`/${stranger}`)),
    ).toHaveLength(1);
    const access = await accessOf(project);
    expect(access.unaddressed).toEqual([]);
    expect(access.members).toEqual([{ email: owner.email, roles: ["administrator"] }]);
  });

  it("a token revocation that fails leaves the administrator in until the retry revokes the rest", async () => {
    const { owner, project } = await ownerWithProject();
    const ann = await studioMember(owner, project, "admin");
    const first = await makeToken(project, "First");
    const second = await makeToken(project, "Second");
    await removeMember(owner.user, { studioId: project.studioId, memberId: ann.memberId });
    const [data] = await queuedFor(project._id);
    // The first revocation goes through, the second meets an outage.
    standIn.failNext(
      new RegExp(`/tokens/${second.id}$`),
      { status: 503, body: { statusCode: 503, error: "Service Unavailable", message: "down" } },
      "DELETE",
    );
    const sync = studioAccessJobs.find((j) => j.name === STUDIO_SYNC_JOB)!.handler;
    await expect(sync(data)).rejects.toThrow(/Sanity could not revoke the API token/);
    expect(standIn.tokenWorks(first.key)).toBe(false);
    expect(standIn.tokenWorks(second.key)).toBe(true);
    // Still an administrator, so the retry sees the same loss.
    expect(await rolesOf(project, ann.email)).toEqual(["administrator"]);
    await sync(data);
    expect(standIn.tokenWorks(second.key)).toBe(false);
    expect(await rolesOf(project, ann.email)).toBeUndefined();
    // The adapter's own token was never touched.
    expect(
      standIn.projects.get(project.studioSanityId)!.tokens.map((t) => t.projectUserId),
    ).toEqual(["robot-1"]);
  });

  it("a vendor failure makes the job fail for pg-boss to retry; the retry finishes", async () => {
    const { owner, project } = await ownerWithProject();
    const ann = await studioMember(owner, project, "editor");
    await removeMember(owner.user, { studioId: project.studioId, memberId: ann.memberId });
    const [data] = await queuedFor(project._id);
    standIn.failNext(
      /\/members\//,
      { status: 503, body: { statusCode: 503, error: "Service Unavailable", message: "down" } },
      "DELETE",
    );
    const sync = studioAccessJobs.find((j) => j.name === STUDIO_SYNC_JOB)!.handler;
    await expect(sync(data)).rejects.toThrow(/Sanity could not remove the member/);
    expect(await rolesOf(project, ann.email)).toEqual(["editor"]);
    // The retry pg-boss makes.
    await sync(data);
    expect(await rolesOf(project, ann.email)).toBeUndefined();
  });
});
