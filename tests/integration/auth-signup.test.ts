import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { accessRequests, members, projects, sessions, users } from "~/db/schema";
import { action as loginAction } from "~/routes/auth.login";
import { action as confirmAction } from "~/routes/auth.verify.$token";
import { action as resendAction } from "~/routes/auth.verify._index";
import { loader as cardLoader } from "~/routes/invitations.$invitationKey";
import { action, loader } from "~/routes/signup";
import { addressProof } from "~/services/accounts/address-proof.server";
import { getUser } from "~/services/accounts/accounts.server";
import { newInvitationKey } from "~/services/members/members.server";
import { call, createUser, makeRequest, newestMailTo, sessionCookie } from "../helpers";

/** Signup is rate limited per IP: each attempt here comes from its own address. */
let ip = 0;
function signup(form: Record<string, string>) {
  ip += 1;
  return call(action, makeRequest("/signup", { form }), {}, { clientIp: `10.1.0.${ip}` });
}

const password = "a long enough password";

async function approvedRequest(email: string, status: "Approved" | "Pending" = "Approved") {
  await db()
    .insert(accessRequests)
    .values({ fullName: "Requester", businessEmail: email, requestStatus: status });
}

async function invitation(email: string) {
  const owner = await createUser();
  const [project] = await db()
    .insert(projects)
    .values({
      studioId: `studio-${Date.now()}-${Math.random().toString(36).slice(2)}`,
      name: "Invited project",
      ownerId: owner.id,
      idempotencyKey: crypto.randomUUID(),
    })
    .returning();
  const [member] = await db()
    .insert(members)
    .values({ projectId: project.id, invitedEmail: email, invitationKey: newInvitationKey() })
    .returning();
  return member;
}

async function sessionRowsOf(userId: string) {
  return db().select().from(sessions).where(eq(sessions.userId, userId));
}

describe("signup page", () => {
  it("pre-fills the email from ?email= (the approval mail's link)", async () => {
    const res = await call(loader, makeRequest("/signup?email=new%40example.com"));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email: "new@example.com", redirectTo: "/" });
  });

  it("sends a signed-in visitor on to redirectTo", async () => {
    const user = await createUser();
    const res = await call(
      loader,
      makeRequest("/signup?redirectTo=/sites", { cookie: await sessionCookie(user.id) }),
    );
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/sites");
  });
});

/** The confirmation link of the newest mail to `email` (read before delivery redacts it). */
async function confirmationToken(email: string) {
  const mail = await newestMailTo(email);
  const token = mail?.text.match(/\/auth\/verify\/([A-Za-z0-9_-]+)/)?.[1];
  expect(token, `a confirmation link mailed to ${email}`).toBeTruthy();
  return token!;
}

function login(email: string, pass: string, clientIp = "10.9.0.1") {
  return call(
    loginAction,
    makeRequest("/auth/login", { form: { email, password: pass } }),
    {},
    { clientIp },
  );
}

/** Confirms on the link's page: a POST with the password typed at signup (a GET changes nothing). */
function openLink(token: string, pass = password) {
  return call(
    confirmAction,
    makeRequest(`/auth/verify/${token}`, { form: { password: pass } }),
    { token },
    { clientIp: "10.8.0.1" },
  );
}

async function userRow(email: string) {
  const [row] = await db().select().from(users).where(eq(users.email, email));
  return row;
}

describe("signup without a mailed link", () => {
  it("creates no account, not even a platform admin's, until the mailed link is opened", async () => {
    const res = await signup({
      name: "Ada Admin",
      email: "Admin@Example.com",
      password,
      redirectTo: "/sites",
    });
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/auth/verify?email=admin%40example.com");
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(await userRow("admin@example.com")).toBeUndefined();

    // It cannot sign in: the right password is told to confirm the address first.
    const early = await login("admin@example.com", password);
    expect(early.status).toBe(403);
    const earlyBody = await early.json();
    expect(earlyBody.result.error[""][0]).toMatch(/Confirm your email address first/);
    expect(earlyBody.unconfirmed).toBe("admin@example.com");
    expect(early.headers.get("Set-Cookie")).toBeNull();
    // A wrong password learns nothing about the waiting signup.
    const wrong = await login("admin@example.com", "not the password");
    expect(wrong.status).toBe(401);

    // Confirming on the link's page creates the account, signs it in and goes where signup was headed.
    const opened = await openLink(await confirmationToken("admin@example.com"));
    expect(opened.status).toBe(302);
    expect(opened).toHaveRedirect("/sites");
    expect(opened.headers.get("Set-Cookie")).toMatch(/stackshift_session=.+HttpOnly/i);
    const row = await userRow("admin@example.com");
    expect(row.name).toBe("Ada Admin");
    expect(row.emailVerifiedAt).toBeInstanceOf(Date);
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await sessionRowsOf(row.id)).toHaveLength(1);
    expect((await getUser(row.id))?.isAdmin).toBe(true);
    expect((await login("admin@example.com", password)).status).toBe(302);
  });

  it("greets the unproved address without the name the sender chose", async () => {
    await invitation("greeted@example.com");
    await signup({ name: "Cheap pills at pills.example", email: "greeted@example.com", password });
    const mail = await newestMailTo("greeted@example.com");
    expect(mail.subject).toBe("Confirm your email to finish signing up for StackShift");
    expect(mail.text).toMatch(/^Hello,\n/);
    expect(mail.text).not.toContain("pills");
  });

  it("hands the invitation over once an invitee without the mailed link confirms", async () => {
    const member = await invitation("invited@example.com");
    const res = await signup({ name: "Invited", email: "invited@example.com", password });
    expect(res).toHaveRedirect("/auth/verify?email=invited%40example.com");
    expect(await userRow("invited@example.com")).toBeUndefined();
    await openLink(await confirmationToken("invited@example.com"));
    const user = await userRow("invited@example.com");
    const [claimed] = await db().select().from(members).where(eq(members.id, member.id));
    expect(claimed.userId).toBe(user.id);
  });

  it("never lets a stranger's signup with someone else's address block or take their account", async () => {
    await approvedRequest("owner@example.com");
    await signup({ name: "Stranger", email: "owner@example.com", password: "stranger password" });
    const strangerToken = await confirmationToken("owner@example.com");
    // The owner signs up too (not "already exists"), and opens their own link.
    const own = await signup({ name: "Owner", email: "owner@example.com", password });
    expect(own.status).toBe(302);
    const ownerToken = await confirmationToken("owner@example.com");
    expect(ownerToken).not.toBe(strangerToken);
    expect((await openLink(ownerToken)).status).toBe(302);
    expect((await userRow("owner@example.com")).name).toBe("Owner");
    // The stranger's link is spent, and their password opens nothing.
    const late = await openLink(strangerToken);
    expect(late.status).toBe(400);
    expect((await late.json()).message).toMatch(/invalid or has expired/);
    expect((await login("owner@example.com", "stranger password")).status).toBe(401);
    expect((await login("owner@example.com", password)).status).toBe(302);
  });

  it("a confirmation link works once", async () => {
    await approvedRequest("once@example.com");
    await signup({ name: "Once", email: "once@example.com", password });
    const token = await confirmationToken("once@example.com");
    expect((await openLink(token)).status).toBe(302);
    expect((await openLink(token)).status).toBe(400);
    expect((await openLink("not-a-token")).status).toBe(400);
  });

  it("Resend mails a new link that replaces the old one, and answers the same for any address", async () => {
    await approvedRequest("resend@example.com");
    await signup({ name: "Resend", email: "resend@example.com", password });
    const first = await confirmationToken("resend@example.com");
    const resend = (email: string) =>
      call(
        resendAction,
        makeRequest("/auth/verify", { form: { email } }),
        {},
        {
          clientIp: "10.8.0.1",
        },
      );
    const res = await resend("resend@example.com");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ resent: true, email: "resend@example.com" });
    const second = await confirmationToken("resend@example.com");
    expect(second).not.toBe(first);
    expect((await openLink(first)).status).toBe(400);
    expect((await openLink(second)).status).toBe(302);
    expect(await (await resend("nobody-waiting@example.com")).json()).toMatchObject({
      resent: true,
      email: "nobody-waiting@example.com",
    });
  });

  it("limits confirmation mails per address with a 429 beside the Email field", async () => {
    await approvedRequest("flood@example.com");
    for (let i = 0; i < 5; i += 1) {
      expect((await signup({ name: "Flood", email: "flood@example.com", password })).status).toBe(
        302,
      );
    }
    const refused = await signup({ name: "Flood", email: "flood@example.com", password });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = await refused.json();
    expect(body.result.error.email[0]).toMatch(/Please wait \d+ (minutes|seconds) and try again/);
  });

  it("lets 20 people of one office sign up within the hour, through mailed links or not", async () => {
    const office = { clientIp: "203.0.113.7" };
    for (let i = 0; i < 20; i += 1) {
      const email = `teammate${i}@agency.example`;
      await invitation(email);
      const proof = i % 2 === 0 ? addressProof(email) : "";
      const res = await call(
        action,
        makeRequest("/signup", { form: { name: `Teammate ${i}`, email, password, proof } }),
        {},
        office,
      );
      expect(res.status, email).toBe(302);
      expect(res).toHaveRedirect(proof ? "/" : `/auth/verify?email=${encodeURIComponent(email)}`);
    }
  });
});

describe("signup through a mailed link", () => {
  it("creates the account at once from an approval mail's link (its proof)", async () => {
    await approvedRequest("Approved.Person@Example.com");
    const res = await signup({
      name: "Approved",
      email: "approved.person@example.com",
      password,
      proof: addressProof("approved.person@example.com"),
    });
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/");
    expect(res.headers.get("Set-Cookie")).toMatch(/stackshift_session=/);
    expect((await userRow("approved.person@example.com")).emailVerifiedAt).toBeInstanceOf(Date);
  });

  it("creates the account at once for an invitee who opened the invitation mail's link", async () => {
    const member = await invitation("card@example.com");
    const card = await call(
      cardLoader,
      makeRequest(`/invitations/${member.invitationKey}?proof=${addressProof("card@example.com")}`),
      { invitationKey: member.invitationKey! },
    );
    const proofCookie = card.headers.get("Set-Cookie")?.split(";")[0];
    expect(proofCookie).toMatch(/stackshift_address_proof=/);
    const res = await call(
      action,
      makeRequest("/signup", {
        form: { name: "Card", email: "card@example.com", password },
        cookie: proofCookie,
      }),
      {},
      { clientIp: "10.7.0.1" },
    );
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/");
    const user = await userRow("card@example.com");
    const [claimed] = await db().select().from(members).where(eq(members.id, member.id));
    expect(claimed.userId).toBe(user.id);
  });

  it("does not take a proof made for another address", async () => {
    await approvedRequest("victim@example.com");
    const res = await signup({
      name: "Thief",
      email: "victim@example.com",
      password,
      proof: addressProof("thief@example.com"),
    });
    expect(res).toHaveRedirect("/auth/verify?email=victim%40example.com");
    expect(await userRow("victim@example.com")).toBeUndefined();
  });

  it("tells anyone else, beside the Email field, to request access", async () => {
    await approvedRequest("pending@example.com", "Pending");
    const res = await signup({ name: "Pending", email: "pending@example.com", password });
    expect(res.status).toBe(400);
    expect(res.headers.get("Set-Cookie")).toBeNull();
    const body = await res.json();
    expect(body.notEligible).toBe(true);
    expect(body.result.error.email[0]).toMatch(/Request access first/);
    // The password is never sent back to the page.
    expect(JSON.stringify(body)).not.toContain(password);
    expect(await userRow("pending@example.com")).toBeUndefined();
  });

  it("refuses an e-mail that already has an account", async () => {
    await approvedRequest("taken@example.com");
    await createUser({ email: "taken@example.com" });
    const res = await signup({ name: "Again", email: "Taken@example.com", password });
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.result.error.email[0]).toMatch(/already exists/);
    expect(body.notEligible).toBe(false);
  });

  it("answers bad input with messages beside the fields", async () => {
    const res = await signup({ name: "", email: "not-an-email", password: "short" });
    expect(res.status).toBe(400);
    const { result } = await res.json();
    expect(result.error.name).toEqual(["Name is required"]);
    expect(result.error.email).toEqual(["Enter a valid email address"]);
    expect(result.error.password).toEqual(["Password must be at least 8 characters"]);
  });

  it("never redirects to another site after signing up", async () => {
    await approvedRequest("redirect@example.com");
    const res = await signup({
      name: "Redirect",
      email: "redirect@example.com",
      password,
      proof: addressProof("redirect@example.com"),
      redirectTo: "//evil.example/phish",
    });
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/");
  });
});
