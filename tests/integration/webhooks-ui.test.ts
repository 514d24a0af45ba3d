/**
 * The Webhooks page without JavaScript, on PostgreSQL: its loader (the list and delivery logs)
 * and its action (Add, Remove, Switch on, Redeliver posted as plain forms), with a real receiver
 * on 127.0.0.1 (WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=1; the refusal tests turn it off).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { webhooks } from "~/db/schema";
import { action, loader } from "~/routes/_app._project.sites.$studioId_.webhooks";
import { EVENTS_FANOUT_JOB } from "~/services/events/emit.server";
import { WEBHOOK_DELIVERY_JOB } from "~/services/webhooks/fan-out.server";
import { call, makeRequest, runQueuedJobs } from "../helpers";
import { toastOf } from "../setup/matchers";
import {
  acceptedMember,
  actor,
  eventsOf,
  invite,
  ownedProject,
  type Actor,
} from "./members-support";
import { allowPrivateAddresses, startReceiver } from "./webhook-receiver";

const endpoint = startReceiver();

type PageData = {
  webhooks: {
    id: string;
    url: string;
    events: string[];
    format: string;
    enabled: boolean;
    lastDelivery: { status: string; responseStatus: number | null } | null;
    deliveries: { id: string; status: string; attempts: number; responseStatus: number | null }[];
  }[];
};

async function page(who: Actor, studioId: string) {
  const res = await call(
    loader,
    makeRequest(`/sites/${studioId}/webhooks`, { cookie: who.cookie }),
    {
      studioId,
    },
  );
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as PageData) : null };
}

function post(who: Actor, studioId: string, form: Record<string, string | string[]>) {
  return call(action, makeRequest(`/sites/${studioId}/webhooks`, { cookie: who.cookie, form }), {
    studioId,
  });
}

const add = (who: Actor, studioId: string, fields: Record<string, string | string[]> = {}) =>
  post(who, studioId, {
    intent: "webhook-add",
    url: endpoint.url,
    events: ["member.invited", "member.joined"],
    format: "standard",
    ...fields,
  });

type AddReply = {
  form: string;
  created: { url: string; secret: string } | null;
  result: { error?: Record<string, string[]> };
};

describe("the Webhooks page", () => {
  it("shows the empty list, then adds a webhook and lists it with its events and format", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    expect((await page(owner, project.studioId)).body?.webhooks).toEqual([]);

    const res = await add(owner, project.studioId, { format: "slack" });
    expect(res.status).toBe(200);
    const reply = (await res.json()) as AddReply;
    expect(reply.created?.url).toBe(endpoint.url);

    const { body } = await page(owner, project.studioId);
    expect(body?.webhooks).toHaveLength(1);
    expect(body?.webhooks[0]).toMatchObject({
      url: endpoint.url,
      events: ["member.invited", "member.joined"],
      format: "slack",
      enabled: true,
      lastDelivery: null,
      deliveries: [],
    });
    expect((await eventsOf(project._id, "webhooks.")).map((e) => e.type)).toEqual([
      "webhooks.added",
    ]);
  });

  it("shows the whsec_ secret in the add's answer only, never in a later load", async () => {
    const admin = await actor();
    const owner = await actor();
    const project = await ownedProject(owner);
    const member = await acceptedMember(owner, project, "admin", admin);
    const reply = (await (await add(member, project.studioId)).json()) as AddReply;
    expect(reply.created?.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const later = await call(
      loader,
      makeRequest(`/sites/${project.studioId}/webhooks`, { cookie: admin.cookie }),
      { studioId: project.studioId },
    );
    const text = await later.text();
    expect(later.status).toBe(200);
    expect(text).not.toContain(reply.created!.secret);
    expect(text).not.toContain("whsec_");
  });

  it("says a bad address beside the URL field: not https, a private address, no events", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    allowPrivateAddresses(false);
    const plain = (await (
      await add(owner, project.studioId, { url: "http://example.com/hook" })
    ).json()) as AddReply;
    expect(plain.form).toBe("webhook-add");
    expect(plain.created).toBeNull();
    expect(plain.result.error?.url?.[0]).toMatch(/https/i);

    const loopback = await add(owner, project.studioId, { url: "https://127.0.0.1/hook" });
    expect(loopback.status).toBe(400);
    const reply = (await loopback.json()) as AddReply;
    expect(reply.result.error?.url?.length).toBe(1);
    expect(reply.result.error?.url?.[0]).toMatch(/address/i);

    const none = await post(owner, project.studioId, { intent: "webhook-add", url: endpoint.url });
    expect(none.status).toBe(400);
    expect(((await none.json()) as AddReply).result.error?.events).toEqual([
      "Choose at least one event",
    ]);
    expect(await db().select().from(webhooks).where(eq(webhooks.projectId, project._id))).toEqual(
      [],
    );
  });

  it("removes a webhook (the confirmation's post) with a toast, and it leaves the list", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    await add(owner, project.studioId);
    const [hook] = (await page(owner, project.studioId)).body!.webhooks;
    const res = await post(owner, project.studioId, {
      intent: "webhook-remove",
      webhookId: hook.id,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/sites/${project.studioId}/webhooks`);
    expect(await toastOf(res)).toMatchObject({ type: "success", title: "Webhook removed" });
    expect((await page(owner, project.studioId)).body?.webhooks).toEqual([]);
  });

  it("logs a delivery and Redeliver sends it again with the same webhook-id", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    await add(owner, project.studioId);
    await invite(owner.cookie, project.studioId, "hooked@example.com", "editor");
    await runQueuedJobs(EVENTS_FANOUT_JOB);
    await runQueuedJobs(WEBHOOK_DELIVERY_JOB);
    // Earlier tests' webhooks share the receiver: only this project's deliveries count.
    const ours = () =>
      endpoint.received.filter(
        (r) =>
          (JSON.parse(r.body) as { data: { project: { studioId: string } } }).data.project
            .studioId === project.studioId,
      );
    expect(ours()).toHaveLength(1);

    const [hook] = (await page(owner, project.studioId)).body!.webhooks;
    expect(hook.lastDelivery).toMatchObject({ status: "succeeded", responseStatus: 200 });
    expect(hook.deliveries).toHaveLength(1);
    expect(hook.deliveries[0]).toMatchObject({
      status: "succeeded",
      attempts: 1,
      responseStatus: 200,
    });

    const res = await post(owner, project.studioId, {
      intent: "webhook-redeliver",
      deliveryId: hook.deliveries[0].id,
    });
    expect(await toastOf(res)).toMatchObject({ type: "success", title: "Redelivery queued" });
    await runQueuedJobs(WEBHOOK_DELIVERY_JOB);
    expect(ours().map((r) => r.headers["webhook-id"])).toEqual([
      hook.deliveries[0].id,
      hook.deliveries[0].id,
    ]);
    const [after] = (await page(owner, project.studioId)).body!.webhooks;
    expect(after.deliveries[0]).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("switches a switched-off webhook on again", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    await add(owner, project.studioId);
    const [hook] = (await page(owner, project.studioId)).body!.webhooks;
    await db()
      .update(webhooks)
      .set({ enabled: false, disabledReason: "Failing for 3 days" })
      .where(eq(webhooks.id, hook.id));
    const res = await post(owner, project.studioId, {
      intent: "webhook-enable",
      webhookId: hook.id,
    });
    expect(await toastOf(res)).toMatchObject({ type: "success", title: "Webhook switched on" });
    expect((await page(owner, project.studioId)).body?.webhooks[0]).toMatchObject({
      enabled: true,
    });
  });

  it("is not there for an editor or developer (404), who cannot add, remove or redeliver either", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    await add(owner, project.studioId);
    const [hook] = (await page(owner, project.studioId)).body!.webhooks;
    for (const role of ["editor", "developer"] as const) {
      const member = await acceptedMember(owner, project, role);
      expect((await page(member, project.studioId)).status).toBe(404);
      const added = await add(member, project.studioId);
      expect(added.status).toBe(403);
      expect(((await added.json()) as AddReply).created).toBeNull();
      const removed = await post(member, project.studioId, {
        intent: "webhook-remove",
        webhookId: hook.id,
      });
      expect(await toastOf(removed)).toMatchObject({
        type: "error",
        title: "Only the owner and admins can manage webhooks",
      });
    }
    expect((await page(owner, project.studioId)).body?.webhooks).toHaveLength(1);
  });

  it("is 404 to someone outside the project", async () => {
    const owner = await actor();
    const project = await ownedProject(owner);
    const stranger = await actor();
    expect((await page(stranger, project.studioId)).status).toBe(404);
    expect((await add(stranger, project.studioId)).status).toBe(404);
  });
});
