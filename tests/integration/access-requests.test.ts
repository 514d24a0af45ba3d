/**
 * Requests for access end to end through the route modules: /request-access (review -> confirm),
 * /admin (list, search, pages, approve, reject), against a real database and outbox.
 */
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { accessRequests, outbox } from "~/db/schema";
import { action as adminAction, loader as adminLoader } from "~/routes/_app.admin";
import { action as requestAction, loader as requestLoader } from "~/routes/request-access";
import { canSignUp } from "~/services/accounts/accounts.server";
import {
  ACCESS_REQUEST_JOB,
  recordAccessRequest,
} from "~/services/platform/access-requests.server";
import { requestAccessSchema } from "~/services/platform/access-requests.schema";
import { POLICIES } from "~/services/core/rate-limit.server";
import { call, createUser, makeRequest, runQueuedJobs, sessionCookie } from "../helpers";

let ipCounter = 0;
/** A fresh client IP per submission, so the per-IP rate limit only bites where a test wants it. */
function freshIp() {
  ipCounter += 1;
  return `10.0.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

let seq = 0;
function uniqueEmail(prefix = "req") {
  seq += 1;
  return `${prefix}${seq}-${Date.now()}@example.com`;
}

function valid(overrides: Record<string, string> = {}) {
  return {
    fullName: "Ada Lovelace",
    businessEmail: uniqueEmail(),
    telephoneNumber: "+44 20 7946 0958",
    companyName: "Analytical Engines Ltd",
    numberOfEmployees: "11-50",
    websiteAddress: "analytical.example.com",
    additionalInfo: "We build websites for museums.",
    ...overrides,
  };
}

/** Submits the form, then works the queued request job as a worker would. */
async function submit(form: Record<string, string | string[]>, ip = freshIp()) {
  const res = await call(
    requestAction,
    makeRequest("/request-access", { form }),
    {},
    {
      clientIp: ip,
    },
  );
  await runQueuedJobs(ACCESS_REQUEST_JOB);
  return res;
}

async function rowsFor(email: string) {
  return db()
    .select()
    .from(accessRequests)
    .where(eq(accessRequests.businessEmail, email.toLowerCase()));
}

async function mailsTo(email: string) {
  return db().select().from(outbox).where(eq(outbox.to, email.toLowerCase()));
}

/** Inserts a request directly, at a chosen time (for list, search and page tests). */
async function insertRequest(
  values: Partial<typeof accessRequests.$inferInsert> = {},
): Promise<typeof accessRequests.$inferSelect> {
  const [row] = await db()
    .insert(accessRequests)
    .values({ fullName: "Someone", businessEmail: uniqueEmail("seed"), ...values })
    .returning();
  return row;
}

let adminCookie: string;
let userCookie: string;

beforeAll(async () => {
  const admin = await createUser({ email: "admin@example.com", name: "Admin" });
  adminCookie = await sessionCookie(admin.id);
  userCookie = await sessionCookie((await createUser()).id);
});

describe("/request-access", () => {
  it("review validates and answers with the values to confirm, recording nothing yet", async () => {
    const values = valid({ businessEmail: "Review.Only@Example.com", companyName: "" });
    const res = await submit({ ...values, intent: "review" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.step).toBe("review");
    expect(body.values).toMatchObject({
      fullName: "Ada Lovelace",
      businessEmail: "review.only@example.com",
      websiteAddress: "analytical.example.com",
    });
    expect(body.values.companyName).toBeUndefined();
    expect(await rowsFor("review.only@example.com")).toHaveLength(0);
    expect(await mailsTo("review.only@example.com")).toHaveLength(0);
  });

  it("confirm records a Pending request, mails the requester and redirects to the success page", async () => {
    const values = valid();
    const res = await submit({ ...values, intent: "confirm" });
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/request-access?sent=1");

    const [row] = await rowsFor(values.businessEmail);
    expect(row).toMatchObject({
      fullName: "Ada Lovelace",
      requestStatus: "Pending",
      companyName: "Analytical Engines Ltd",
      telephoneNumber: "+44 20 7946 0958",
      numberOfEmployees: "11-50",
      websiteAddress: "analytical.example.com",
      additionalInfo: "We build websites for museums.",
      decidedAt: null,
    });
    const mails = await mailsTo(values.businessEmail);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("We received your request for access to StackShift");
    // A fixed text: nothing typed into the form is echoed to the unproved address.
    for (const value of Object.values(values)) {
      if (value !== values.businessEmail) expect(mails[0].text).not.toContain(value);
    }

    const page = await call(requestLoader, makeRequest("/request-access?sent=1"));
    expect(await page.json()).toEqual({ sent: true });
  });

  it("acknowledges with a fixed text that echoes none of the submitted fields, whatever the case", async () => {
    const spam = {
      fullName: "WIN A PRIZE at prize.example",
      companyName: "Click prize.example now",
      websiteAddress: "prize.example",
      additionalInfo: "Visit https://prize.example/claim for your prize",
      telephoneNumber: "+1 555 0100",
    };
    const values = valid(spam);
    // A new request, then a second one while it is pending, then one after it was approved.
    await submit({ ...values, intent: "confirm" });
    await submit({ ...values, intent: "confirm" });
    const [row] = await rowsFor(values.businessEmail);
    await db()
      .update(accessRequests)
      .set({ requestStatus: "Approved" })
      .where(eq(accessRequests.id, row.id));
    await submit({ ...values, intent: "confirm" });
    const mails = (await mailsTo(values.businessEmail)).sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
    );
    expect(mails.map((m) => m.subject)).toEqual([
      "We received your request for access to StackShift",
      "Your request for access to StackShift is waiting for review",
      "Your access to StackShift is already approved",
    ]);
    for (const mail of mails) {
      expect(mail.text).toMatch(/^Hello,\n/);
      expect(mail.text).not.toMatch(/prize|555 0100/i);
    }
  });

  it("edit (Cancel without JavaScript) hands the values back to the form", async () => {
    const values = valid();
    const res = await submit({ ...values, intent: "edit" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.step).toBe("form");
    expect(body.result.initialValue).toMatchObject({
      fullName: values.fullName,
      companyName: values.companyName,
    });
    expect(await rowsFor(values.businessEmail)).toHaveLength(0);
  });

  it("answers bad fields with a message beside each one and records nothing", async () => {
    for (const intent of ["review", "confirm"]) {
      const res = await submit({
        intent,
        fullName: "",
        businessEmail: "not-an-email",
        telephoneNumber: "call me maybe",
        websiteAddress: "javascript:alert(1)",
        numberOfEmployees: "lots",
        additionalInfo: "x".repeat(2001),
      });
      expect(res.status).toBe(400);
      const { result } = await res.json();
      expect(result.error).toMatchObject({
        fullName: ["Name is required"],
        businessEmail: ["Enter a valid email address"],
        telephoneNumber: [expect.stringMatching(/valid telephone number/)],
        websiteAddress: [expect.stringMatching(/Enter a website address/)],
        numberOfEmployees: [expect.stringMatching(/Enter a number/)],
        additionalInfo: ["Additional Info must be at most 2000 characters"],
      });
    }
    const missingEmail = await submit({ intent: "confirm", fullName: "Ada" });
    expect((await missingEmail.json()).result.error.businessEmail).toEqual([
      "Business Email is required",
    ]);
    expect(
      await db().select().from(accessRequests).where(eq(accessRequests.fullName, "")),
    ).toHaveLength(0);
  });

  it("answers a second request from the same e-mail (any case) the same, recording no duplicate", async () => {
    const values = valid();
    expect((await submit({ ...values, intent: "confirm" })).status).toBe(302);
    const again = await submit({
      ...values,
      businessEmail: values.businessEmail.toUpperCase(),
      intent: "confirm",
    });
    // The page says nothing about the address; its mailbox hears that a request is waiting.
    expect(again.status).toBe(302);
    expect(again).toHaveRedirect("/request-access?sent=1");
    expect(await rowsFor(values.businessEmail)).toHaveLength(1);
    const subjects = (await mailsTo(values.businessEmail)).map((m) => m.subject).sort();
    expect(subjects).toEqual([
      "We received your request for access to StackShift",
      "Your request for access to StackShift is waiting for review",
    ]);
  });

  it("records only one request when the same e-mail is worked twice at once", async () => {
    const input = requestAccessSchema.parse(valid());
    const rows = await Promise.all([recordAccessRequest(input), recordAccessRequest(input)]);
    expect(rows.filter(Boolean)).toHaveLength(1);
    expect(await rowsFor(input.businessEmail)).toHaveLength(1);
  });

  it("accepts a new request after a rejection; after an approval it mails the sign-up link instead", async () => {
    const rejected = await insertRequest({ requestStatus: "Rejected" });
    const res = await submit({
      ...valid({ businessEmail: rejected.businessEmail }),
      intent: "confirm",
    });
    expect(res.status).toBe(302);
    expect(await rowsFor(rejected.businessEmail)).toHaveLength(2);

    const approved = await insertRequest({ requestStatus: "Approved" });
    const again = await submit({
      ...valid({ businessEmail: approved.businessEmail }),
      intent: "confirm",
    });
    expect(again.status).toBe(302);
    expect(await rowsFor(approved.businessEmail)).toHaveLength(1);
    const [mail] = await mailsTo(approved.businessEmail);
    expect(mail.subject).toBe("Your access to StackShift is already approved");
    expect(mail.text).toMatch(/\/signup\?email=[^&\s]+&proof=[\w.-]+/);
  });

  it("limits the mails one address gets about requests for access", async () => {
    const values = valid();
    for (let i = 0; i < POLICIES.requestAccessMails.points + 2; i += 1) {
      expect((await submit({ ...values, intent: "confirm" })).status).toBe(302);
    }
    expect(await mailsTo(values.businessEmail)).toHaveLength(POLICIES.requestAccessMails.points);
  });

  it("rate limits submissions per client IP with an office-sized limit", async () => {
    const ip = freshIp();
    for (let i = 0; i < POLICIES.requestAccessAddress.points; i += 1) {
      const res = await call(
        requestAction,
        makeRequest("/request-access", { form: { ...valid(), intent: "confirm" } }),
        {},
        { clientIp: ip },
      );
      expect(res.status).toBe(302);
    }
    const limited = await submit({ ...valid(), intent: "confirm" }, ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(JSON.stringify(await limited.json())).toContain("Too many attempts");
  });

  it("answers malformed, oversized and wrong-typed bodies with 4xx, never a 500", async () => {
    const bodies: Parameters<typeof makeRequest>[1][] = [
      { method: "POST", body: "" },
      {
        method: "POST",
        body: "%%%&&==",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      },
      { json: { fullName: 42, businessEmail: ["a"], intent: { x: 1 } } },
      { method: "POST", body: '{"fullName":', headers: { "Content-Type": "application/json" } },
      { form: { ...valid(), intent: "confirm", additionalInfo: "x".repeat(200_000) } },
      { form: { ...valid(), intent: ["confirm", "review"], fullName: ["", "\u0000"] } },
      { form: { ...valid(), intent: "launch-missiles" } },
      { method: "POST", body: "garbage", headers: { "Content-Type": "multipart/form-data" } },
    ];
    for (const init of bodies) {
      const res = await call(
        requestAction,
        makeRequest("/request-access", init),
        {},
        { clientIp: freshIp() },
      );
      expect(res.status, JSON.stringify(init).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });
});

describe("/admin access", () => {
  it("sends anonymous visitors to login", async () => {
    const res = await call(adminLoader, makeRequest("/admin"));
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/auth/login?redirectTo=%2Fadmin");
    const post = await call(
      adminAction,
      makeRequest("/admin", { form: { intent: "approve", id: crypto.randomUUID() } }),
    );
    expect(post.status).toBe(302);
  });

  it("is a 404 for signed-in users who are not platform admins, and changes nothing", async () => {
    const row = await insertRequest();
    expect((await call(adminLoader, makeRequest("/admin", { cookie: userCookie }))).status).toBe(
      404,
    );
    const post = await call(
      adminAction,
      makeRequest("/admin", { cookie: userCookie, form: { intent: "approve", id: row.id } }),
    );
    expect(post.status).toBe(404);
    const [after] = await db().select().from(accessRequests).where(eq(accessRequests.id, row.id));
    expect(after.requestStatus).toBe("Pending");
  });
});

type AdminPage = {
  q: string;
  cursor: string | null;
  items: { id: string; fullName: string; status: string; isNew: boolean; submitted: string }[];
  nextCursor: string | null;
  dialog: { kind: string; request: { id: string; fullName: string } } | null;
};

async function adminPage(query = ""): Promise<AdminPage> {
  const res = await call(adminLoader, makeRequest(`/admin${query}`, { cookie: adminCookie }));
  expect(res.status).toBe(200);
  return res.json();
}

function decide(intent: string, id: string, query = "") {
  return call(
    adminAction,
    makeRequest(`/admin${query}`, { cookie: adminCookie, form: { intent, id } }),
  );
}

describe("/admin list", () => {
  it("lists requests newest first with status and the New badge for the last 7 days", async () => {
    const marker = `newest${Date.now()}`;
    const old = await insertRequest({
      fullName: `${marker} old`,
      createdAt: new Date(Date.now() - 10 * 86400_000),
      requestStatus: "Rejected",
    });
    const recent = await insertRequest({ fullName: `${marker} recent` });
    const { items } = await adminPage(`?q=${marker}`);
    expect(items.map((i) => i.id)).toEqual([recent.id, old.id]);
    expect(items[0]).toMatchObject({ status: "Pending", isNew: true });
    expect(items[1]).toMatchObject({ status: "Rejected", isNew: false });
    expect(items[0].submitted).toMatch(/\d{4} at /);
  });

  it("searches name, e-mail, company and website, case-insensitively, and lowercases the keyword", async () => {
    const tag = `zq${Date.now()}`;
    const byName = await insertRequest({ fullName: `Grace ${tag}name` });
    const byEmail = await insertRequest({ businessEmail: `${tag}mail@example.com` });
    const byCompany = await insertRequest({ companyName: `${tag}COMPANY Inc` });
    const bySite = await insertRequest({ websiteAddress: `${tag}site.example.org` });
    await insertRequest({ additionalInfo: `${tag} only in the additional info` });

    const all = await adminPage(`?q=${tag.toUpperCase()}`);
    expect(all.q).toBe(tag);
    expect(all.items.map((i) => i.id).sort()).toEqual(
      [byName.id, byEmail.id, byCompany.id, bySite.id].sort(),
    );
    expect((await adminPage(`?q=${tag}company`)).items.map((i) => i.id)).toEqual([byCompany.id]);
    expect((await adminPage(`?q=${tag}site.example`)).items.map((i) => i.id)).toEqual([bySite.id]);
    expect((await adminPage(`?q=${tag}mail@`)).items.map((i) => i.id)).toEqual([byEmail.id]);
  });

  it("treats % and _ in the keyword as plain characters", async () => {
    const tag = `pct${Date.now()}`;
    const literal = await insertRequest({ companyName: `${tag} 100% cotton` });
    await insertRequest({ companyName: `${tag} 100 x cotton` });
    const { items } = await adminPage(`?q=${encodeURIComponent(`${tag} 100%`)}`);
    expect(items.map((i) => i.id)).toEqual([literal.id]);
  });

  it("pages with a cursor: every request exactly once, ties on the timestamp included", async () => {
    const tag = `page${Date.now()}`;
    const same = new Date(Date.now() - 60_000);
    const inserted = [];
    for (let i = 0; i < 45; i += 1) {
      // Groups of three share one timestamp, so the id breaks ties.
      inserted.push(
        await insertRequest({
          fullName: `${tag} ${i}`,
          createdAt: new Date(same.getTime() - Math.floor(i / 3) * 1000),
        }),
      );
    }
    const seen: string[] = [];
    let query = `?q=${tag}`;
    let pages = 0;
    for (;;) {
      const page = await adminPage(query);
      pages += 1;
      seen.push(...page.items.map((i) => i.id));
      if (!page.nextCursor) break;
      query = `?q=${tag}&cursor=${page.nextCursor}`;
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(45);
    expect(seen.sort()).toEqual(inserted.map((r) => r.id).sort());
  });

  it("ignores a garbage cursor or search instead of failing", async () => {
    const page = await adminPage("?cursor=%%%garbage&q=%00%FF");
    expect(page.cursor).toBeNull();
  });

  it("opens the confirm dialog from the URL only for a Pending request", async () => {
    const pending = await insertRequest({ fullName: "Dialog Pending" });
    const approved = await insertRequest({ requestStatus: "Approved" });
    expect((await adminPage(`?approve=${pending.id}`)).dialog).toEqual({
      kind: "approve",
      request: { id: pending.id, fullName: "Dialog Pending" },
    });
    expect((await adminPage(`?reject=${pending.id}`)).dialog?.kind).toBe("reject");
    expect((await adminPage(`?approve=${approved.id}`)).dialog).toBeNull();
    expect((await adminPage(`?approve=${crypto.randomUUID()}`)).dialog).toBeNull();
    expect((await adminPage(`?approve=not-a-uuid`)).dialog).toBeNull();
  });
});

describe("/admin decisions", () => {
  it("approve sets Approved, mails the absolute sign-up link and lets the e-mail sign up", async () => {
    const row = await insertRequest({ businessEmail: "new.customer+x@example.com" });
    expect(await canSignUp(row.businessEmail)).toBe(false);

    const res = await decide("approve", row.id, "?q=new.customer");
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/admin?q=new.customer");
    expect(res.headers.get("Set-Cookie")).toContain("stackshift_toast=");

    const [after] = await db().select().from(accessRequests).where(eq(accessRequests.id, row.id));
    expect(after.requestStatus).toBe("Approved");
    expect(after.decidedAt).not.toBeNull();
    expect(after.decidedBy).not.toBeNull();

    const mails = await mailsTo(row.businessEmail);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(
      "http://localhost:3000/signup?email=new.customer%2Bx%40example.com",
    );
    expect(await canSignUp(row.businessEmail)).toBe(true);
  });

  it("refuses to approve twice with a 409 message and sends no second mail", async () => {
    const row = await insertRequest();
    expect((await decide("approve", row.id)).status).toBe(302);
    const again = await decide("approve", row.id);
    expect(again.status).toBe(409);
    expect((await again.json()).result.error[""]).toEqual([
      "This request has already been approved. Only pending requests can be approved or rejected.",
    ]);
    expect(await mailsTo(row.businessEmail)).toHaveLength(1);
  });

  it("reject sets Rejected, and a rejected request can no longer be approved", async () => {
    const row = await insertRequest();
    const res = await decide("reject", row.id);
    expect(res.status).toBe(302);
    const [after] = await db().select().from(accessRequests).where(eq(accessRequests.id, row.id));
    expect(after.requestStatus).toBe("Rejected");
    expect(await canSignUp(row.businessEmail)).toBe(false);

    const approve = await decide("approve", row.id);
    expect(approve.status).toBe(409);
    expect((await approve.json()).result.error[""][0]).toContain("already been rejected");
  });

  it("lets exactly one of two concurrent approvals win, with exactly one mail", async () => {
    const row = await insertRequest();
    const results = await Promise.all([decide("approve", row.id), decide("approve", row.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([302, 409]);
    const mails = await db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.to, row.businessEmail), sql`${outbox.text} like '%/signup?email=%'`));
    expect(mails).toHaveLength(1);
  });

  it("answers an unknown request with 404 and a bad decision with 400", async () => {
    expect((await decide("approve", crypto.randomUUID())).status).toBe(404);
    expect((await decide("approve", "not-a-uuid")).status).toBe(400);
    expect((await decide("promote", crypto.randomUUID())).status).toBe(400);
  });

  it("answers malformed, oversized and wrong-typed bodies with 4xx, never a 500", async () => {
    const bodies: Parameters<typeof makeRequest>[1][] = [
      { method: "POST", body: "" },
      { json: { intent: ["approve"], id: 42 } },
      { method: "POST", body: '{"id":', headers: { "Content-Type": "application/json" } },
      { form: { intent: "approve", id: "x".repeat(200_000) } },
      { form: { intent: ["approve", "reject"], id: ["'; drop table users;--", "\u0000"] } },
      { method: "POST", body: "garbage", headers: { "Content-Type": "multipart/form-data" } },
    ];
    for (const init of bodies) {
      const res = await call(adminAction, makeRequest("/admin", { ...init, cookie: adminCookie }));
      expect(res.status, JSON.stringify(init).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });
});
