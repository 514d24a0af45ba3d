import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { accessRequests, members, projects, sessions, users } from "~/db/schema";
import { action, loader } from "~/routes/signup";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";

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
    .values({ projectId: project.id, invitedEmail: email, invitationKey: crypto.randomUUID() })
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
    expect(res.headers.get("Location")).toBe("/sites");
  });
});

describe("signup", () => {
  it("creates a platform admin's account with a session and goes to redirectTo", async () => {
    const res = await signup({
      name: "Ada Admin",
      email: "Admin@Example.com",
      password,
      redirectTo: "/sites",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/sites");
    expect(res.headers.get("Set-Cookie")).toMatch(/stackshift_session=.+HttpOnly/i);
    const [row] = await db().select().from(users).where(eq(users.email, "admin@example.com"));
    expect(row.name).toBe("Ada Admin");
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await sessionRowsOf(row.id)).toHaveLength(1);
  });

  it("lets an e-mail with an approved access request sign up", async () => {
    await approvedRequest("Approved.Person@Example.com");
    const res = await signup({ name: "Approved", email: "approved.person@example.com", password });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
  });

  it("lets an invited e-mail sign up and hands it the invitation", async () => {
    const member = await invitation("invited@example.com");
    const res = await signup({ name: "Invited", email: "invited@example.com", password });
    expect(res.status).toBe(302);
    const [user] = await db().select().from(users).where(eq(users.email, "invited@example.com"));
    const [claimed] = await db().select().from(members).where(eq(members.id, member.id));
    expect(claimed.userId).toBe(user.id);
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
    expect(await db().select().from(users).where(eq(users.email, "pending@example.com"))).toEqual(
      [],
    );
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
      redirectTo: "//evil.example/phish",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
  });
});
