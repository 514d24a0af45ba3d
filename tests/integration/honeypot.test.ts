/**
 * The honeypot of the public forms (decision 012): a robot that fills the hidden field, or forges
 * the signed render time, is answered as if it had worked and nothing happens; a person's post
 * with the page's honeypot fields goes through as usual.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { accessRequests, users } from "~/db/schema";
import { action as forgotAction, loader as forgotLoader } from "~/routes/auth.forgot";
import { action as requestAction, loader as requestLoader } from "~/routes/request-access";
import { action as signupAction, loader as signupLoader } from "~/routes/signup";
import { PASSWORD_RESET_JOB } from "~/services/accounts/account-tokens.server";
import { ACCESS_REQUEST_JOB } from "~/services/platform/access-requests.server";
import { honeypotInputProps, isSpam } from "~/utils/honeypot.server";
import { call, createUser, makeRequest, newestMailTo, runQueuedJobs } from "../helpers";

type Props = { nameFieldName: string; validFromFieldName: string; encryptedValidFrom: string };

let ip = 0;
const context = () => ({ clientIp: `10.77.0.${++ip}` });

/** The honeypot fields as the page renders them; `filled` is what a robot types in. */
async function honeypotFields(loader: Parameters<typeof call>[0], path: string, filled = "") {
  const page = await call(loader, makeRequest(path));
  const { honeypot } = (await page.json()) as { honeypot: Props };
  return {
    [honeypot.nameFieldName]: filled,
    [honeypot.validFromFieldName]: honeypot.encryptedValidFrom,
  };
}

describe("the honeypot", () => {
  it("is rendered by the three public pages' loaders", async () => {
    for (const [loader, path] of [
      [forgotLoader, "/auth/forgot"],
      [signupLoader, "/signup"],
      [requestLoader, "/request-access"],
    ] as const) {
      const fields = await honeypotFields(loader, path);
      expect(Object.keys(fields), path).toEqual(["name__confirm", "from__confirm"]);
    }
  });

  it("forgot password: a robot gets the usual answer and no reset is queued", async () => {
    const user = await createUser();
    const post = async (extra: Record<string, string>) =>
      call(
        forgotAction,
        makeRequest("/auth/forgot", { form: { email: user.email, ...extra } }),
        {},
        context(),
      );
    const robot = await post(await honeypotFields(forgotLoader, "/auth/forgot", "Robot"));
    expect(robot.status).toBe(200);
    expect(await robot.json()).toMatchObject({ sent: true });
    const forged = await post({ name__confirm: "", from__confirm: "not-signed" });
    expect(await forged.json()).toMatchObject({ sent: true });
    expect(await runQueuedJobs(PASSWORD_RESET_JOB)).toBe(0);

    const person = await post(await honeypotFields(forgotLoader, "/auth/forgot"));
    expect(await person.json()).toMatchObject({ sent: true });
    expect(await runQueuedJobs(PASSWORD_RESET_JOB)).toBe(1);
  });

  it("takes a forged, altered or future render time for spam, and the page's own for a person", () => {
    const post = (validFrom: string, name = "") => {
      const form = new FormData();
      form.set("name__confirm", name);
      form.set("from__confirm", validFrom);
      return isSpam(form);
    };
    const rendered = honeypotInputProps().encryptedValidFrom;
    expect(post(rendered)).toBe(false);
    expect(post(rendered, "Robot")).toBe(true);
    // Random strings, and the page's own signature under another render time.
    const [time, mac] = rendered.split(".");
    const forged = [
      ...Array.from({ length: 200 }, (_, i) => `forged-${i}`),
      `${Number(time) - 60_000}.${mac}`,
      `${time}.${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`,
      `${time}.`,
      "",
    ];
    expect(forged.filter((value) => !post(value))).toEqual([]);
    // Signed by the server, but for a moment that has not come yet.
    expect(post(honeypotInputProps(Date.now() + 60_000).encryptedValidFrom)).toBe(true);
    // The name field alone, without the render time, is not our form either.
    const nameOnly = new FormData();
    nameOnly.set("name__confirm", "");
    expect(isSpam(nameOnly)).toBe(true);
  });

  it("signup: a robot is sent to 'Confirm your email', and no account or mail is made", async () => {
    const email = `honeypot-${Date.now()}@example.com`;
    await db()
      .insert(accessRequests)
      .values({ fullName: "Approved", businessEmail: email, requestStatus: "Approved" });
    const form = {
      name: "Robot",
      email,
      password: "a long enough password",
      ...(await honeypotFields(signupLoader, "/signup", "Robot")),
    };
    const robot = await call(signupAction, makeRequest("/signup", { form }), {}, context());
    expect(robot.status).toBe(302);
    expect(robot.headers.get("Location")).toBe(`/auth/verify?email=${encodeURIComponent(email)}`);
    expect(await db().select().from(users).where(eq(users.email, email))).toHaveLength(0);
    expect(await newestMailTo(email)).toBeUndefined();

    // Bad input is answered as for anyone: the robot learns nothing from the honeypot.
    const invalid = await call(
      signupAction,
      makeRequest("/signup", { form: { ...form, email: "nope" } }),
      {},
      context(),
    );
    expect(invalid.status).toBe(400);

    const person = await call(
      signupAction,
      makeRequest("/signup", {
        form: { ...form, name: "Person", ...(await honeypotFields(signupLoader, "/signup")) },
      }),
      {},
      context(),
    );
    expect(person.status).toBe(302);
    expect(await newestMailTo(email)).toBeDefined();
  });

  it("request access: a robot sees 'Request sent!' at either step, and nothing is recorded", async () => {
    const email = `honeypot-request-${Date.now()}@example.com`;
    const rows = () =>
      db().select().from(accessRequests).where(eq(accessRequests.businessEmail, email));
    const post = async (intent: string, filled: string) =>
      call(
        requestAction,
        makeRequest("/request-access", {
          form: {
            fullName: "Robot",
            businessEmail: email,
            intent,
            ...(await honeypotFields(requestLoader, "/request-access", filled)),
          },
        }),
        {},
        context(),
      );
    for (const intent of ["review", "confirm"]) {
      const robot = await post(intent, "Robot");
      expect(robot.status, intent).toBe(302);
      expect(robot.headers.get("Location"), intent).toBe("/request-access?sent=1");
    }
    expect(await runQueuedJobs(ACCESS_REQUEST_JOB)).toBe(0);

    expect((await post("review", "")).status).toBe(200);
    expect((await post("confirm", "")).status).toBe(302);
    expect(await runQueuedJobs(ACCESS_REQUEST_JOB)).toBe(1);
    expect(await rows()).toHaveLength(1);
  });
});
