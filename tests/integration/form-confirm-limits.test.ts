/**
 * Confirmation links of form-notification addresses are limited per user who asks and per
 * project, beside the limit per address (decision 028, amended 2026-11-27): past either, a save
 * of the form's settings is refused beside the Notification e-mails field (429 with
 * Retry-After, what was typed kept) and writes, spends and mails nothing; a Resend is refused
 * beside its address; the API answers 429 JSON.
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { forms, outbox } from "~/db/schema";
import { action as formsAction } from "~/routes/_app._project.sites.forms.$studioId";
import { action as formSettingsApi } from "~/routes/api.app.forms.settings";
import { ensureDefaultForm } from "~/services/forms/forms.server";
import { POLICIES } from "~/services/core/rate-limit.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { toastOf } from "../setup/matchers";

const PER_USER = POLICIES.formNotificationConfirmUser.points;
const PER_PROJECT = POLICIES.formNotificationConfirmProject.points;
/** A form takes at most ten notification addresses (forms.schema.ts). */
const BATCH = 10;

let owner: Awaited<ReturnType<typeof createUser>>;
let cookie: string;
let run = 0;

beforeEach(async () => {
  owner = await createUser({ name: "Lina Limits" });
  cookie = await sessionCookie(owner.id);
  run += 1;
});

async function projectWithForm() {
  const project = await insertProject(owner.id);
  return { project, formId: await ensureDefaultForm(project.id) };
}

let seq = 0;
/** `n` addresses nobody used before. */
const fresh = (n: number) =>
  Array.from({ length: n }, () => `ask-${run}-${(seq += 1)}-${Date.now()}@example.com`);

const save = (studioId: string, formId: string, addresses: string[]) =>
  call(
    formsAction,
    makeRequest(`/sites/forms/${studioId}`, {
      cookie,
      form: {
        intent: "form-settings",
        formId,
        enabled: "on",
        notificationEmails: addresses.join(", "),
      },
    }),
    { studioId },
  );

/** Fills the project's form `times` times with ten new addresses, each save accepted. */
async function spend(target: { project: { studioId: string }; formId: string }, times: number) {
  for (let i = 0; i < times; i += 1) {
    const res = await save(target.project.studioId, target.formId, fresh(BATCH));
    expect(await toastOf(res)).toMatchObject({ title: "Form settings saved" });
  }
}

const listOf = async (formId: string) =>
  (await db().select().from(forms).where(eq(forms.id, formId)))[0].notificationEmails;
const mailsTo = (to: string) => db().select().from(outbox).where(eq(outbox.to, to));

type Reply = {
  result: { error: Record<string, string[]>; initialValue: Record<string, string> };
};

describe("confirmation links per project", () => {
  it(`past ${PER_PROJECT} a day, a save is refused beside the field and nothing is written`, async () => {
    const target = await projectWithForm();
    await spend(target, PER_PROJECT / BATCH);
    const before = await listOf(target.formId);

    const [late] = fresh(1);
    const typed = [...before.slice(1), late];
    const refused = await save(target.project.studioId, target.formId, typed);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await refused.json()) as Reply;
    expect(body.result.error.notificationEmails?.[0]).toMatch(
      new RegExp(
        `^This project has sent ${PER_PROJECT} confirmation links within a day, the most allowed\\. Please wait \\d+ hours and try again\\.$`,
      ),
    );
    expect(body.result.initialValue.notificationEmails).toBe(typed.join(", "));
    expect(await listOf(target.formId)).toEqual(before);
    expect(await mailsTo(late)).toEqual([]);
    // Nothing of the refused save was counted for the address: another project may ask it.
    const other = await projectWithForm();
    await save(other.project.studioId, other.formId, [late]);
    expect(await mailsTo(late)).toHaveLength(1);

    // A Resend in the full project is refused beside its address.
    const waiting = before[0];
    const resend = await call(
      formsAction,
      makeRequest(`/sites/forms/${target.project.studioId}`, {
        cookie,
        form: { intent: "notification-resend", formId: target.formId, email: waiting },
      }),
      { studioId: target.project.studioId },
    );
    expect(resend.status).toBe(429);
    const resendBody = (await resend.json()) as Reply;
    expect(resendBody.result.error[`resend:${waiting}`]?.[0]).toMatch(/^This project has sent/);
    expect(await mailsTo(waiting)).toHaveLength(1);
  });

  it("members' addresses cost nothing, and removing addresses is never refused", async () => {
    const target = await projectWithForm();
    await spend(target, PER_PROJECT / BATCH);
    const removed = await save(target.project.studioId, target.formId, [owner.email]);
    expect(await toastOf(removed)).toMatchObject({ title: "Form settings saved" });
    expect(await listOf(target.formId)).toEqual([owner.email]);
  });
});

describe("confirmation links per user who asks", () => {
  it(`past ${PER_USER} a day over several projects, a save is refused; the API answers 429 JSON`, async () => {
    for (let i = 0; i < PER_USER / PER_PROJECT; i += 1) {
      await spend(await projectWithForm(), PER_PROJECT / BATCH);
    }
    const third = await projectWithForm();
    const [late] = fresh(1);
    const refused = await save(third.project.studioId, third.formId, [late]);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as Reply;
    expect(body.result.error.notificationEmails?.[0]).toMatch(
      new RegExp(
        `^You have asked for ${PER_USER} confirmation links within a day, the most allowed\\.`,
      ),
    );
    expect(await listOf(third.formId)).toEqual([]);

    const api = await call(
      formSettingsApi,
      makeRequest("/api/app/forms/settings", {
        cookie,
        json: { formId: third.formId, notificationEmails: [late] },
      }),
    );
    expect(api.status).toBe(429);
    expect(((await api.json()) as { error: string }).error).toMatch(/^You have asked for/);
    expect(await mailsTo(late)).toEqual([]);

    // Another admin of the project is not held by this one's count.
    const colleague = await createUser();
    const other = await insertProject(colleague.id);
    const otherForm = await ensureDefaultForm(other.id);
    const ok = await call(
      formsAction,
      makeRequest(`/sites/forms/${other.studioId}`, {
        cookie: await sessionCookie(colleague.id),
        form: {
          intent: "form-settings",
          formId: otherForm,
          enabled: "on",
          notificationEmails: late,
        },
      }),
      { studioId: other.studioId },
    );
    expect(await toastOf(ok)).toMatchObject({ title: "Form settings saved" });
    expect(await mailsTo(late)).toHaveLength(1);
  });
});
