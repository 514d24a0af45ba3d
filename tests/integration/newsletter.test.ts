/**
 * The newsletter page (/sites/newsletter/{studioId}): the defaults of a new project, saving the
 * settings in their stored form (errors beside the fields, the logo upload and its public
 * address), the test e-mail, and the sender domains with the local provider (records with '@'
 * and DMARC, 'Domain already exists', verified or not, deleted, re-checked by the job); who may;
 * the JSON API /api/newsletter over the same services.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { localNewsletterDomains, newsletterDomains, newsletterSettings, outbox } from "~/db/schema";
import {
  action as pageAction,
  loader as pageLoader,
} from "~/routes/_app._project.sites.newsletter.$studioId";
import { action as apiAction, loader as apiLoader } from "~/routes/api.newsletter";
import { loader as logoLoader } from "~/routes/newsletter.logo.$studioId";
import { recheckSenderDomains } from "~/services/newsletter/newsletter-domains.server";
import type { NewsletterView } from "~/services/newsletter/newsletter.server";
import type { SenderDomainsView } from "~/services/newsletter/newsletter-domains.server";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";
import { toastOf, toastsOf } from "../setup/matchers";
import { addMember } from "./studio-fixtures";

type TestUser = Awaited<ReturnType<typeof createUser>>;
let owner: TestUser;
let ownerCookie: string;

beforeAll(async () => {
  owner = await createUser({ name: "Nora News" });
  ownerCookie = await sessionCookie(owner.id);
});

const page = (studioId: string) => `/sites/newsletter/${studioId}`;

async function load(studioId: string, cookie = ownerCookie) {
  const res = await call(pageLoader, makeRequest(page(studioId), { cookie }), { studioId });
  expect(res.status).toBe(200);
  return (await res.json()) as { view: NewsletterView; domains: SenderDomainsView };
}

function post(studioId: string, form: Record<string, string> | FormData, cookie = ownerCookie) {
  const request =
    form instanceof FormData
      ? new Request(new URL(page(studioId), "http://localhost:3000"), {
          method: "POST",
          headers: { Cookie: cookie },
          body: form,
        })
      : makeRequest(page(studioId), { cookie, form });
  return call(pageAction, request, { studioId });
}

const SETTINGS = {
  intent: "newsletter-save",
  fromName: "Bakery News",
  fromEmail: "news@corner-bakery.example",
  replyToEmail: "hello@corner-bakery.example",
  companyName: "Corner Bakery",
  companyAddress: "1 Main Street",
  companyWebsite: "https://corner-bakery.example",
  footerText: "Fresh bread every morning.",
  enableUnsubscribeLink: "on",
  brandColor: "#112233",
  facebook: "https://facebook.com/cornerbakery",
  twitter: "",
  instagram: "https://instagram.com/cornerbakery",
  linkedin: "",
};

/** A 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

describe("newsletter settings", () => {
  it("shows the defaults on a new project", async () => {
    const project = await insertProject(owner.id);
    const { view } = await load(project.studioId);
    expect(view.saved).toBe(false);
    expect(view.canEdit).toBe(true);
    expect(view.settings).toMatchObject({
      fromName: "Newsletter",
      brandColor: "#296EFF",
      enableUnsubscribeLink: true,
      fromEmail: "",
      logoUrl: null,
    });
  });

  it("saves the settings in the stored form and shows them again", async () => {
    const project = await insertProject(owner.id);
    const res = await post(project.studioId, SETTINGS);
    expect(res).toHaveRedirect(page(project.studioId));
    expect(await toastOf(res)).toMatchObject({ type: "success", title: "Settings saved" });
    const [row] = await db()
      .select()
      .from(newsletterSettings)
      .where(eq(newsletterSettings.projectId, project.id));
    expect(row.settings).toEqual({
      email_from_name: "Bakery News",
      email_from_address: "news@corner-bakery.example",
      reply_to: "hello@corner-bakery.example",
      company: {
        name: "Corner Bakery",
        address: "1 Main Street",
        website: "https://corner-bakery.example",
      },
      social_media: {
        twitter: "",
        linkedin: "",
        facebook: "https://facebook.com/cornerbakery",
        instagram: "https://instagram.com/cornerbakery",
      },
      email_footer: "Fresh bread every morning.",
      enable_unsubscribe_link: true,
      brand_color: "#112233",
    });
    const { view } = await load(project.studioId);
    expect(view.settings).toMatchObject({ fromName: "Bakery News", brandColor: "#112233" });
    expect(view.senderDomain).toBe("corner-bakery.example");
    // Unticked, the unsubscribe link is off; a blank sender name falls back to the default.
    await post(project.studioId, { ...SETTINGS, fromName: "", enableUnsubscribeLink: "" });
    expect((await load(project.studioId)).view.settings).toMatchObject({
      fromName: "Newsletter",
      enableUnsubscribeLink: false,
    });
  });

  it("answers bad fields beside them and saves nothing", async () => {
    const project = await insertProject(owner.id);
    const res = await post(project.studioId, {
      ...SETTINGS,
      fromEmail: "not-an-address",
      companyWebsite: "javascript:alert(1)",
      brandColor: "blue",
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.fromEmail).toEqual(["From e-mail must be a valid e-mail address"]);
    expect(body.result.error.companyWebsite?.[0]).toMatch(/must be a web address/);
    expect(body.result.error.brandColor).toEqual(["Brand colour must be a colour like #296EFF"]);
    expect((await load(project.studioId)).view.saved).toBe(false);
  });

  it("stores an uploaded logo, serves it at its public address, and removes it", async () => {
    const project = await insertProject(owner.id);
    const form = new FormData();
    for (const [k, v] of Object.entries(SETTINGS)) form.append(k, v);
    form.append("logo", new File([PNG], "logo.png", { type: "image/png" }));
    const res = await post(project.studioId, form);
    expect(await toastOf(res)).toMatchObject({ title: "Settings saved" });
    const { view } = await load(project.studioId);
    expect(view.settings.logoUrl).toMatch(
      new RegExp(`^/newsletter/logo/${project.studioId}\\?v=\\d+$`),
    );
    const logo = await call(logoLoader, makeRequest(`/newsletter/logo/${project.studioId}`), {
      studioId: project.studioId,
    });
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await logo.arrayBuffer()).equals(PNG)).toBe(true);
    // A text file is not a logo.
    const bad = new FormData();
    for (const [k, v] of Object.entries(SETTINGS)) bad.append(k, v);
    bad.append("logo", new File(["<svg/>"], "logo.svg", { type: "image/svg+xml" }));
    const refused = await post(project.studioId, bad);
    expect(refused.status).toBe(400);
    // Saving without a new file keeps it; 'Remove the current logo' drops it.
    await post(project.studioId, SETTINGS);
    expect((await load(project.studioId)).view.settings.logoUrl).not.toBeNull();
    await post(project.studioId, { ...SETTINGS, removeLogo: "on" });
    expect((await load(project.studioId)).view.settings.logoUrl).toBeNull();
    const gone = await call(logoLoader, makeRequest(`/newsletter/logo/${project.studioId}`), {
      studioId: project.studioId,
    });
    expect(gone.status).toBe(404);
  });

  it("mails the test e-mail with the saved header and footer to the signed-in user", async () => {
    const project = await insertProject(owner.id);
    await post(project.studioId, SETTINGS);
    const res = await post(project.studioId, { intent: "newsletter-test" });
    expect(await toastOf(res)).toMatchObject({
      title: "Test e-mail sent",
      description: `Sent to ${owner.email}.`,
    });
    const [mail] = await db()
      .select()
      .from(outbox)
      .where(eq(outbox.to, owner.email))
      .orderBy(sql`${outbox.createdAt} desc`)
      .limit(1);
    expect(mail.subject).toContain("Bakery News");
    expect(mail.html).toContain("#112233");
    expect(mail.html).toContain("Fresh bread every morning.");
    expect(mail.text).toContain("Corner Bakery");
  });

  it("lets members read but not save; hides the page from outsiders", async () => {
    const project = await insertProject(owner.id);
    const editor = await createUser();
    await addMember(project.id, editor, "editor");
    const editorCookie = await sessionCookie(editor.id);
    expect((await load(project.studioId, editorCookie)).view.canEdit).toBe(false);
    const res = await post(project.studioId, SETTINGS, editorCookie);
    expect(await toastOf(res)).toMatchObject({
      type: "error",
      title: "Error saving settings",
      description: "Only admins can change the newsletter settings",
    });
    expect((await load(project.studioId)).view.saved).toBe(false);
    const stranger = await createUser();
    const hidden = await call(
      pageLoader,
      makeRequest(page(project.studioId), { cookie: await sessionCookie(stranger.id) }),
      { studioId: project.studioId },
    );
    expect(hidden.status).toBe(404);
  });
});

describe("sender domains (local provider)", () => {
  async function projectWithSender(domain: string) {
    const project = await insertProject(owner.id);
    await post(project.studioId, { ...SETTINGS, fromEmail: `news@${domain}` });
    return project;
  }
  let seq = 0;
  const domainName = (first = "mail") => `${first}.shop${Date.now().toString(36)}${++seq}.example`;

  it("adds the from-address's domain and shows its records with '@' and DMARC", async () => {
    const name = domainName();
    const project = await projectWithSender(name);
    const res = await post(project.studioId, { intent: "sender-domain-add" });
    expect(await toastOf(res)).toMatchObject({ type: "success", title: "Domain added" });
    const { domains } = await load(project.studioId);
    expect(domains.domains).toHaveLength(1);
    const [domain] = domains.domains;
    expect(domain).toMatchObject({
      domain: name,
      customDomain: name,
      status: "pending",
      isVerified: false,
      verificationError: "Domain is not verified yet",
    });
    const hosts = domain.records.map((r) => r.host);
    expect(hosts).toContain("_dmarc");
    expect(domain.records.find((r) => r.host === "_dmarc")).toMatchObject({
      type: "TXT",
      value: "v=DMARC1; p=none;",
      ttl: "Auto",
    });
    expect(hosts.every((h) => !h.endsWith(name))).toBe(true);
    // The same domain again.
    const again = await post(project.studioId, { intent: "sender-domain-add" });
    expect(await toastOf(again)).toMatchObject({ type: "error", title: "Domain already exists" });
  });

  it("is not verified at first, verified once the records resolve, and deleted", async () => {
    const project = await projectWithSender(domainName());
    await post(project.studioId, { intent: "sender-domain-add" });
    const [domain] = (await load(project.studioId)).domains.domains;
    const first = await post(project.studioId, {
      intent: "sender-domain-verify",
      domainId: domain.id,
    });
    expect(await toastOf(first)).toMatchObject({ type: "error", title: "Domain not verified" });
    // Still pending, so the job checks on: the specification's toast beside the answer.
    expect((await toastsOf(first)).map((t) => t.title)).toEqual([
      "Domain not verified",
      "Verification in progress",
    ]);
    // The local provider verifies a few seconds after the first check: move that into the past.
    await db()
      .update(localNewsletterDomains)
      .set({ verifyRequestedAt: sql`now() - interval '1 hour'` })
      .where(eq(localNewsletterDomains.name, domain.domain));
    const second = await post(project.studioId, {
      intent: "sender-domain-verify",
      domainId: domain.id,
    });
    expect(await toastOf(second)).toMatchObject({ type: "success", title: "Domain verified" });
    expect(await toastsOf(second)).toHaveLength(1);
    expect((await load(project.studioId)).domains.domains[0]).toMatchObject({
      status: "verified",
      isVerified: true,
      verificationError: null,
    });
    const deleted = await post(project.studioId, {
      intent: "sender-domain-delete",
      domainId: domain.id,
    });
    expect(await toastOf(deleted)).toMatchObject({
      type: "success",
      title: "Domain deleted successfully",
    });
    expect((await load(project.studioId)).domains.domains).toEqual([]);
  });

  it("says why a domain whose records do not match is not verified", async () => {
    const project = await projectWithSender(domainName("unverified"));
    await post(project.studioId, { intent: "sender-domain-add" });
    const [domain] = (await load(project.studioId)).domains.domains;
    await post(project.studioId, { intent: "sender-domain-verify", domainId: domain.id });
    await db()
      .update(localNewsletterDomains)
      .set({ verifyRequestedAt: sql`now() - interval '1 hour'` })
      .where(eq(localNewsletterDomains.name, domain.domain));
    const res = await post(project.studioId, {
      intent: "sender-domain-verify",
      domainId: domain.id,
    });
    expect(await toastOf(res)).toMatchObject({ title: "Domain not verified" });
    const shown = (await load(project.studioId)).domains.domains[0];
    expect(shown.isVerified).toBe(false);
    expect(shown.verificationError).toMatch(/do not match/);
  });

  it("re-checks unverified domains in the job once their backoff has passed", async () => {
    const project = await projectWithSender(domainName());
    await post(project.studioId, { intent: "sender-domain-add" });
    const [domain] = (await load(project.studioId)).domains.domains;
    await post(project.studioId, { intent: "sender-domain-verify", domainId: domain.id });
    await db()
      .update(localNewsletterDomains)
      .set({ verifyRequestedAt: sql`now() - interval '1 hour'` })
      .where(eq(localNewsletterDomains.name, domain.domain));
    // Not due yet: checked a moment ago.
    await recheckSenderDomains();
    const [before] = await db()
      .select()
      .from(newsletterDomains)
      .where(eq(newsletterDomains.id, domain.id));
    expect(before.status).not.toBe("verified");
    await db()
      .update(newsletterDomains)
      .set({ checkedAt: sql`now() - interval '2 minutes'` })
      .where(eq(newsletterDomains.id, domain.id));
    await recheckSenderDomains();
    const [after] = await db()
      .select()
      .from(newsletterDomains)
      .where(eq(newsletterDomains.id, domain.id));
    expect(after.status).toBe("verified");
  });

  it("refuses domain changes to members who may not edit", async () => {
    const project = await projectWithSender(domainName());
    const developer = await createUser();
    await addMember(project.id, developer, "developer");
    const res = await post(
      project.studioId,
      { intent: "sender-domain-add" },
      await sessionCookie(developer.id),
    );
    expect(await toastOf(res)).toMatchObject({ type: "error", title: "Error adding domain" });
    expect((await load(project.studioId)).domains.domains).toEqual([]);
  });
});

describe("/api/newsletter", () => {
  const api = (method: string, query: string, body?: unknown, cookie = ownerCookie) => {
    const request = makeRequest(`/api/newsletter?${query}`, {
      cookie,
      method,
      ...(body === undefined ? {} : { json: body }),
    });
    return call(method === "GET" ? apiLoader : apiAction, request);
  };

  it("lists, creates, shows the records of, verifies and deletes domains", async () => {
    const project = await insertProject(owner.id);
    const name = `api${Date.now().toString(36)}.example`;
    const created = await api("POST", "path=domains", {
      studioId: project.studioId,
      domain: name,
      region: "us-east-1",
    });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: Record<string, unknown> & { id: string } };
    // The specification's names: the Domain's and the sender-domain settings'.
    expect(data).toMatchObject({
      domain: name,
      customDomain: name,
      status: "pending",
      isVerified: false,
      verificationError: "Domain is not verified yet",
      metadata: {},
    });
    expect(data).not.toHaveProperty("name");
    expect(data).not.toHaveProperty("verified");
    expect(
      (await api("POST", "path=domains", { studioId: project.studioId, domain: name })).status,
    ).toBe(409);
    const list = (await (await api("GET", `path=domains&studioId=${project.studioId}`)).json()) as {
      data: { id: string }[];
    };
    expect(list.data.map((d) => d.id)).toEqual([data.id]);
    const records = (await (await api("GET", `path=domains/${data.id}/dns-records`)).json()) as {
      data: { host: string }[];
    };
    expect(records.data.map((r) => r.host)).toContain("_dmarc");
    const patched = await api("PATCH", `path=domains/${data.id}`, { metadata: { label: "main" } });
    expect(await patched.json()).toMatchObject({
      data: { id: data.id, metadata: { label: "main" } },
    });
    expect((await api("PATCH", `path=domains/${data.id}`, { metadata: "x" })).status).toBe(400);
    const verified = await api("POST", `path=domains/${data.id}/verify`, {});
    expect(verified.status).toBe(200);
    expect((await api("DELETE", `path=domains/${data.id}`)).status).toBe(200);
    expect((await api("GET", `path=domains/${data.id}/dns-records`)).status).toBe(404);
  });

  it("answers provider failures with the specification's messages, the page with its toasts", async () => {
    const project = await insertProject(owner.id);
    // The local provider refuses a name containing 'ratelimited' with 429.
    const busy = `ratelimited${Date.now().toString(36)}.example`;
    // The specification's body names no project: ?studioId= does.
    const refused = await api("POST", `path=domains&studioId=${project.studioId}`, {
      domain: busy,
      region: "us-east-1",
      metadata: {},
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ error: "Failed to create domain" });
    await post(project.studioId, { ...SETTINGS, fromEmail: `news@${busy}` });
    const addToast = await toastOf(await post(project.studioId, { intent: "sender-domain-add" }));
    expect(addToast).toMatchObject({ type: "error", title: "Error adding domain" });
    expect(addToast?.description).toBeUndefined();

    // A domain the provider no longer knows: verifying it, and reading it again once stale, fail.
    const name = `gone${Date.now().toString(36)}.example`;
    const created = await api("POST", "path=domains", { studioId: project.studioId, domain: name });
    const { data } = (await created.json()) as { data: { id: string } };
    await db().delete(localNewsletterDomains).where(eq(localNewsletterDomains.name, name));
    const verify = await api("POST", `path=domains/${data.id}/verify`, {});
    expect(verify.status).toBe(502);
    expect(await verify.json()).toEqual({ error: "Failed to verify domain" });
    const verifyToast = await toastOf(
      await post(project.studioId, { intent: "sender-domain-verify", domainId: data.id }),
    );
    expect(verifyToast).toMatchObject({ type: "error", title: "Error verifying domain" });
    expect(verifyToast?.description).toBeUndefined();
    await db()
      .update(newsletterDomains)
      .set({ checkedAt: sql`now() - interval '1 hour'` })
      .where(eq(newsletterDomains.id, data.id));
    const list = await api("GET", `path=domains&studioId=${project.studioId}`);
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({
      data: [{ id: data.id, domain: name }],
      error: "Failed to get domains",
    });
  });

  it("answers errors in an error field: bad paths, unknown domains, strangers", async () => {
    const project = await insertProject(owner.id);
    const bad = await api("GET", "path=templates");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: expect.stringContaining("path must be") });
    expect((await api("GET", "path=domains")).status).toBe(400);
    expect(
      (await api("POST", "path=domains", { studioId: project.studioId, domain: "not a domain" }))
        .status,
    ).toBe(400);
    const stranger = await createUser();
    const strangerCookie = await sessionCookie(stranger.id);
    expect(
      (await api("GET", `path=domains&studioId=${project.studioId}`, undefined, strangerCookie))
        .status,
    ).toBe(404);
    expect((await api("DELETE", "path=domains/00000000-0000-4000-8000-000000000000")).status).toBe(
      404,
    );
  });
});
