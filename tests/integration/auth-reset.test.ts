import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { outbox, passwordResets, sessions } from "~/db/schema";
import { action as forgotAction } from "~/routes/auth.forgot";
import { action as resetAction, loader as resetLoader } from "~/routes/auth.reset.$token";
import { PASSWORD_RESET_JOB } from "~/services/accounts/account-tokens.server";
import { verifyLogin } from "~/services/accounts/accounts.server";
import { readToast } from "~/utils/toast.server";
import { call, createUser, makeRequest, newestMailTo, runQueuedJobs } from "../helpers";

const newPassword = "a brand new password";

/** forgot and reset are rate limited per IP: each request comes from its own address. */
let ip = 0;
const context = () => ({ clientIp: `10.2.0.${++ip}` });

/** The forgot page answers at once; the password-reset job then does the work. */
async function forgot(email: string) {
  const res = await call(
    forgotAction,
    makeRequest("/auth/forgot", { form: { email } }),
    {},
    context(),
  );
  await runQueuedJobs(PASSWORD_RESET_JOB);
  return res;
}

function reset(token: string, form: Record<string, string>, cookie?: string) {
  return call(
    resetAction,
    makeRequest(`/auth/reset/${token}`, { form, cookie }),
    { token },
    context(),
  );
}

async function mailedToken(email: string) {
  const mail = await newestMailTo(email);
  const match = mail?.text.match(/http:\/\/localhost:3000\/auth\/reset\/([\w-]+)/);
  if (!match) throw new Error(`no reset link mailed to ${email}`);
  return match[1];
}

describe("forgot password", () => {
  it("mails an absolute reset link and shows the confirmation", async () => {
    const user = await createUser();
    const res = await forgot(user.email.toUpperCase());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ sent: true });
    expect(await mailedToken(user.email)).toMatch(/^[\w-]{43}$/);
  });

  it("shows the same confirmation for an unknown e-mail and mails nothing", async () => {
    const res = await forgot("nobody-here@example.com");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ sent: true });
    expect(
      await db().select().from(outbox).where(eq(outbox.to, "nobody-here@example.com")),
    ).toEqual([]);
  });

  it("asks for a valid e-mail beside the field", async () => {
    const res = await forgot("not-an-email");
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.sent).toBe(false);
    expect(body.result.error.email).toEqual(["Enter a valid email address"]);
  });
});

describe("reset password", () => {
  it("accepts a fresh link and refuses an unknown one with a clear page, not a 500", async () => {
    const user = await createUser();
    await forgot(user.email);
    const token = await mailedToken(user.email);
    const ok = await call(resetLoader, makeRequest(`/auth/reset/${token}`), { token });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ valid: true });

    const bad = await call(resetLoader, makeRequest("/auth/reset/nope"), { token: "nope" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ valid: false });
  });

  it("refuses an expired link", async () => {
    const user = await createUser();
    const token = "expired-token-0000000000000000000000000000000";
    await db()
      .insert(passwordResets)
      .values({
        tokenHash: createHash("sha256").update(token).digest("hex"),
        userId: user.id,
        expiresAt: new Date(Date.now() - 1000),
      });
    const res = await call(resetLoader, makeRequest(`/auth/reset/${token}`), { token });
    expect(await res.json()).toEqual({ valid: false });
    const post = await reset(token, { password: newPassword, confirmPassword: newPassword });
    expect(post.status).toBe(400);
    expect(await post.json()).toMatchObject({ invalid: true });
  });

  it("sets the new password, logs the user in and redirects home with a toast", async () => {
    const user = await createUser();
    await forgot(user.email);
    const token = await mailedToken(user.email);
    const res = await reset(token, { password: newPassword, confirmPassword: newPassword });
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/");
    const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
    expect(cookies.some((c) => c.startsWith("stackshift_session="))).toBe(true);
    const { toast } = await readToast(makeRequest("/", { cookie: cookies.join("; ") }));
    expect(toast?.title).toBe("Your password has been reset");
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);

    await expect(verifyLogin({ email: user.email, password: newPassword })).resolves.toMatchObject({
      id: user.id,
    });
    await expect(verifyLogin({ email: user.email, password: user.password })).rejects.toThrow(
      "Invalid email or password",
    );
  });

  it("works once: a used link shows the invalid-link page", async () => {
    const user = await createUser();
    await forgot(user.email);
    const token = await mailedToken(user.email);
    expect(
      (await reset(token, { password: newPassword, confirmPassword: newPassword })).status,
    ).toBe(302);
    const again = await reset(token, {
      password: "yet another password",
      confirmPassword: "yet another password",
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ invalid: true });
    const page = await call(resetLoader, makeRequest(`/auth/reset/${token}`), { token });
    expect(await page.json()).toEqual({ valid: false });
  });

  it("spends every other reset link of the account when one is used", async () => {
    const user = await createUser();
    await forgot(user.email);
    const older = await mailedToken(user.email);
    await new Promise((r) => setTimeout(r, 5));
    await forgot(user.email);
    const newer = await mailedToken(user.email);
    expect(newer).not.toBe(older);
    expect(
      (await reset(newer, { password: newPassword, confirmPassword: newPassword })).status,
    ).toBe(302);
    const stale = await reset(older, {
      password: "attacker password",
      confirmPassword: "attacker password",
    });
    expect(stale.status).toBe(400);
    await expect(verifyLogin({ email: user.email, password: newPassword })).resolves.toBeTruthy();
  });

  it("limits reset mails per address silently: the page answers the same", async () => {
    const user = await createUser();
    for (let i = 0; i < 7; i += 1) {
      const res = await forgot(user.email);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ sent: true });
    }
    const mails = await db().select().from(outbox).where(eq(outbox.to, user.email));
    expect(mails).toHaveLength(5);
  });

  it("asks again when the confirmation does not match, keeping the link usable", async () => {
    const user = await createUser();
    await forgot(user.email);
    const token = await mailedToken(user.email);
    const res = await reset(token, { password: newPassword, confirmPassword: "something else" });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.invalid).toBe(false);
    expect(body.result.error.confirmPassword).toEqual(["Passwords do not match"]);
    expect(JSON.stringify(body)).not.toContain(newPassword);
    const page = await call(resetLoader, makeRequest(`/auth/reset/${token}`), { token });
    expect(await page.json()).toEqual({ valid: true });
  });

  it("ignores a token smuggled in the form: the URL's token counts", async () => {
    const user = await createUser();
    await forgot(user.email);
    const token = await mailedToken(user.email);
    const res = await reset("wrong-token", {
      token,
      password: newPassword,
      confirmPassword: newPassword,
    });
    expect(await res.json()).toMatchObject({ invalid: true });
    await expect(
      verifyLogin({ email: user.email, password: user.password }),
    ).resolves.toMatchObject({ id: user.id });
  });
});
