/**
 * Mail to addresses nobody proved carries nothing a user typed (decision 028, amended
 * 2026-11-27): invitations to new addresses (sent and resent), to an account whose address was
 * never confirmed, form-notification confirmation links and a password reset of an account
 * whose address was never confirmed name no project, form or person, and repeat no inviter's
 * address. The pages behind the links show them. Mail to a proved account keeps the names.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { forms, outbox, users } from "~/db/schema";
import { action as dashboardAction } from "~/routes/_app._project.sites.$studioId/route";
import { action as formsAction } from "~/routes/_app._project.sites.forms.$studioId";
import { loader as invitationLoader } from "~/routes/invitations.$invitationKey";
import { requestPasswordReset } from "~/services/accounts/account-tokens.server";
import { requestEmailChange } from "~/services/accounts/user-settings.server";
import { ensureDefaultForm } from "~/services/forms/forms.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { memberRow } from "./members-support";

// What users typed: an inviter's name and address, a project's name, a form's name. Each reads
// like what a spammer would want our mail to carry.
const INVITER_NAME = "Win A Prize At prize-inviter.example";
const PROJECT_NAME = "Cheap pills at pills-project.example";
const FORM_NAME = "Claim your refund at refund-form.example";
const TYPED = [
  INVITER_NAME,
  PROJECT_NAME,
  FORM_NAME,
  "prize-inviter",
  "pills-project",
  "refund-form",
];

let owner: Awaited<ReturnType<typeof createUser>>;
let ownerCookie: string;
let project: Awaited<ReturnType<typeof insertProject>>;

beforeAll(async () => {
  owner = await createUser({
    name: INVITER_NAME,
    email: `boss-${Date.now()}@prize-inviter.example`,
  });
  ownerCookie = await sessionCookie(owner.id);
  project = await insertProject(owner.id, { name: PROJECT_NAME });
});

const mailsTo = (to: string) =>
  db().select().from(outbox).where(eq(outbox.to, to)).orderBy(outbox.createdAt);

function expectNothingTyped(mail: { subject: string; text: string }, extra: string[] = []) {
  for (const typed of [...TYPED, owner.email, ...extra]) {
    expect(mail.subject.toLowerCase(), typed).not.toContain(typed.toLowerCase());
    expect(mail.text.toLowerCase(), typed).not.toContain(typed.toLowerCase());
  }
}

const memberForm = (form: Record<string, string>) =>
  call(dashboardAction, makeRequest(`/sites/${project.studioId}`, { cookie: ownerCookie, form }), {
    studioId: project.studioId,
  });

describe("invitations", () => {
  it("to a new address, sent and resent, name no project, inviter or inviter's address; the card does", async () => {
    const to = `newcomer-${Date.now()}@example.com`;
    expect(
      (await memberForm({ intent: "member-invite", email: to, role: "developer" })).status,
    ).toBe(302);
    const row = await memberRow(project.id, to);
    expect((await memberForm({ intent: "member-resend", memberId: row.id })).status).toBe(302);

    const mails = await mailsTo(to);
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expectNothingTyped(mail);
      expect(mail.subject).toBe("You are invited to collaborate on a StackShift project");
      expect(mail.text).toContain("as Developer");
      expect(mail.text).toContain("create your StackShift account");
    }
    expect(mails[1].text).toContain("You have a new invitation");

    // The page behind the link names them.
    const key = (await memberRow(project.id, to)).invitationKey!;
    const card = await call(invitationLoader, makeRequest(`/invitations/${key}`), {
      invitationKey: key,
    });
    const shown = JSON.stringify(await card.json());
    expect(shown).toContain(PROJECT_NAME);
    expect(shown).toContain(INVITER_NAME);
  });

  it("to an account whose address was never confirmed name nothing typed either", async () => {
    const legacy = await createUser({ name: "Lee Legacy" });
    await db().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, legacy.id));
    expect(
      (await memberForm({ intent: "member-invite", email: legacy.email, role: "editor" })).status,
    ).toBe(302);
    const [mail] = await mailsTo(legacy.email);
    expectNothingTyped(mail);
    expect(mail.text).toContain("no new password is needed");
  });

  it("to a proved account's address still name the project and who invited", async () => {
    const known = await createUser({ name: "Kim Known" });
    expect(
      (await memberForm({ intent: "member-invite", email: known.email, role: "editor" })).status,
    ).toBe(302);
    const [mail] = await mailsTo(known.email);
    expect(mail.subject).toBe(`You are invited to collaborate on ${PROJECT_NAME}`);
    expect(mail.text).toContain(INVITER_NAME);
  });
});

describe("form-notification confirmation links", () => {
  it("name no project, form or admin", async () => {
    const formId = await ensureDefaultForm(project.id);
    await db().update(forms).set({ name: FORM_NAME }).where(eq(forms.id, formId));
    const to = `alerts-${Date.now()}@example.com`;
    const saved = await call(
      formsAction,
      makeRequest(`/sites/forms/${project.studioId}`, {
        cookie: ownerCookie,
        form: { intent: "form-settings", formId, enabled: "on", notificationEmails: to },
      }),
      { studioId: project.studioId },
    );
    expect(saved.status).toBe(302);
    const [mail] = await mailsTo(to);
    expect(mail.text).toContain("/form-notifications/");
    expectNothingTyped(mail);
  });
});

describe("a password reset", () => {
  it("of an account whose address was never confirmed greets without the typed name", async () => {
    const legacy = await createUser({ name: "Pay now at reset-name.example" });
    await db().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, legacy.id));
    await requestPasswordReset(legacy.email);
    const [mail] = await mailsTo(legacy.email);
    expect(mail.subject).toBe("Reset your StackShift password");
    expectNothingTyped(mail, ["reset-name"]);
    expect(mail.text.startsWith("Hello,\n")).toBe(true);

    // A proved account's reset keeps its name.
    const known = await createUser({ name: "Rita Reset" });
    await requestPasswordReset(known.email);
    expect((await mailsTo(known.email))[0].text).toContain("Hello Rita Reset,");
  });
});

describe("an e-mail change's confirmation link", () => {
  it("names no account: the new address has not proved anything yet", async () => {
    const newAddress = `new-${Date.now()}@example.com`;
    await requestEmailChange(
      { id: owner.id, name: owner.name, email: owner.email, isAdmin: false },
      newAddress,
      { currentPassword: owner.password, ssoFresh: false, clientIp: "198.51.100.90" },
    );
    const [mail] = await mailsTo(newAddress);
    expect(mail.subject).toBe("Confirm your new StackShift e-mail address");
    expectNothingTyped(mail);
  });
});
