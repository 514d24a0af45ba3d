/**
 * /api/openapi.json and the API cannot drift apart: every JSON API route file is in the document,
 * and every response the calls below get (successes and errors) matches the schema the document
 * gives for its path, method and status. Each answer holding one of the specification's entities
 * is also read by the specification client (tests/spec-client/): a field renamed or left out
 * without a row in decision 032's table fails.
 */
import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { eq } from "drizzle-orm";
import { projects } from "~/db/schema";
import { action as createAction } from "~/routes/api.app.create";
import { action as deployAction } from "~/routes/api.app.deployments";
import { loader as getAction } from "~/routes/api.app.$id";
import { loader as listAction } from "~/routes/api.app._index";
import { action as domainsAction } from "~/routes/api.app.domains";
import { loader as runsLoader } from "~/routes/api.app.e2e-test-runs";
import {
  action as paymentsApi,
  loader as paymentsLoader,
} from "~/routes/api.app.integrations.$integrationId";
import { action as membersAction } from "~/routes/api.app.members";
import { action as stripeListAction } from "~/routes/api.payments.stripe";
import { action as newsletterAction, loader as newsletterLoader } from "~/routes/api.newsletter";
import { newsletterSettingsSchema } from "~/services/newsletter/newsletter.schema";
import { saveNewsletterSettings } from "~/services/newsletter/newsletter.server";
import { action as studioInviteAction } from "~/routes/api.app.project-invite";
import { action as retryAction } from "~/routes/api.app.retry";
import { loader as deploymentsAction } from "~/routes/api.deployments.$studioId";
import { loader as documentLoader } from "~/routes/api.openapi[.]json";
import { loader as userLoader } from "~/routes/api.user";
import { authorizeInstagram } from "./instagram-support";
import { call, makeRequest } from "../helpers";
import { actor, keyOf, ownedProject, withVercelSite, type Actor } from "./members-support";
import { flatName, routeFiles } from "../route-files";
import { specProblems } from "../spec-client/check";

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content: Record<string, { schema: object }> }> }>
  >;
};

let doc: Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });
const seen = new Set<string>();

/**
 * Validates one response against the document and the specification client; returns its body.
 * `url`: the request's, for answers whose entity its query names (Stripe products or prices).
 */
async function expectDocumented(docPath: string, method: string, res: Response, url?: string) {
  const operation = doc.paths[docPath]?.[method];
  expect(operation, `${method.toUpperCase()} ${docPath} is documented`).toBeDefined();
  const response = operation.responses[String(res.status)];
  expect(
    response,
    `${method.toUpperCase()} ${docPath} documents status ${res.status}`,
  ).toBeDefined();
  const body = await res.json();
  const validate = ajv.compile(response.content["application/json"].schema);
  const valid = validate(body);
  expect(
    valid,
    `${method.toUpperCase()} ${docPath} ${res.status}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body).slice(0, 400)}`,
  ).toBe(true);
  expect(specProblems({ method, path: docPath, status: res.status, body, url })).toEqual([]);
  seen.add(`${method.toUpperCase()} ${docPath} ${res.status}`);
  return body;
}

const json = (cookie: string | undefined, url: string, method: string, body: unknown) =>
  makeRequest(url, { method, cookie, json: body });

let owner: Actor;
let project: { _id: string; studioId: string; name: string; idempotencyKey: string };

beforeAll(async () => {
  doc = (await (await call(documentLoader, makeRequest("/api/openapi.json"))).json()) as Doc;
  owner = await actor({ name: "Olive Owner" });
});

describe("/api/openapi.json", () => {
  it("is an OpenAPI 3.1 document naming every JSON API route of the app", () => {
    expect(doc.openapi).toBe("3.1.0");
    const routes = routeFiles()
      .map(flatName)
      .filter((f) => /^api\./.test(f) && f.endsWith(".ts") && !f.includes("openapi"));
    const documented = Object.keys(doc.paths);
    for (const file of routes) {
      const route =
        "/" +
        file
          .replace(/\.ts$/, "")
          .split(".")
          .filter((part) => part !== "_index")
          .map((part) => (part.startsWith("$") ? `{${part.slice(1)}}` : part))
          .join("/");
      expect(documented, file).toContain(route);
    }
  });

  it("describes every response of the projects, deployments and members calls", async () => {
    // Create (201), the same key again (200), bad input (400), anonymous (401), not JSON (415).
    const idempotencyKey = `openapi-${Date.now()}`;
    const create = (cookie: string | undefined, body: unknown) =>
      call(createAction, json(cookie, "/api/app/create", "POST", body));
    project = await expectDocumented(
      "/api/app/create",
      "post",
      await create(owner.cookie, { name: "Documented site", idempotencyKey }),
    );
    await expectDocumented(
      "/api/app/create",
      "post",
      await create(owner.cookie, { name: "Documented site", idempotencyKey }),
    );
    await expectDocumented("/api/app/create", "post", await create(owner.cookie, { name: "" }));
    await expectDocumented("/api/app/create", "post", await create(undefined, { name: "x" }));
    await expectDocumented(
      "/api/app/create",
      "post",
      await call(
        createAction,
        makeRequest("/api/app/create", {
          method: "POST",
          cookie: owner.cookie,
          body: "{}",
          headers: { "Content-Type": "text/plain" },
        }),
      ),
    );

    // The list, one project (and a bad cursor), 404 for someone else.
    await expectDocumented(
      "/api/app",
      "get",
      await call(listAction, makeRequest("/api/app?limit=5", { cookie: owner.cookie })),
    );
    await expectDocumented(
      "/api/app",
      "get",
      await call(listAction, makeRequest("/api/app?cursor=nope", { cookie: owner.cookie })),
    );
    const get = (cookie: string | undefined, id: string, query = "") =>
      call(getAction, makeRequest(`/api/app/${id}${query}`, { cookie }), { id });
    await expectDocumented("/api/app/{id}", "get", await get(owner.cookie, project.studioId));
    await expectDocumented(
      "/api/app/{id}",
      "get",
      await get(owner.cookie, project._id, "?eventLogsCursor=x"),
    );
    const stranger = await actor();
    await expectDocumented("/api/app/{id}", "get", await get(stranger.cookie, project.studioId));

    // Deployments: the list (empty until the site exists), a bad page, deploy now, retry.
    const deployments = (query: string) =>
      call(
        deploymentsAction,
        makeRequest(`/api/deployments/${project.studioId}${query}`, { cookie: owner.cookie }),
        { studioId: project.studioId },
      );
    await expectDocumented("/api/deployments/{studioId}", "get", await deployments(""));
    await expectDocumented("/api/deployments/{studioId}", "get", await deployments("?page=0"));
    await expectDocumented(
      "/api/app/deployments",
      "post",
      await call(
        deployAction,
        json(owner.cookie, "/api/app/deployments", "POST", { id: project._id }),
      ),
    );
    await expectDocumented(
      "/api/app/retry",
      "post",
      await call(
        retryAction,
        json(owner.cookie, "/api/app/retry", "POST", {
          name: project.name,
          idempotencyKey: project.idempotencyKey,
        }),
      ),
    );
    await expectDocumented(
      "/api/app/project-invite",
      "post",
      await call(
        studioInviteAction,
        json(owner.cookie, "/api/app/project-invite", "POST", {
          projectId: project._id,
          email: owner.email,
        }),
      ),
    );

    // Members: invite (201), resend (200), accept, role, leave, revoke, and refusals.
    const members = (cookie: string, method: string, body: unknown) =>
      call(membersAction, json(cookie, "/api/app/members", method, body));
    const guest = await actor();
    await expectDocumented(
      "/api/app/members",
      "post",
      await members(owner.cookie, "POST", { studioId: project.studioId, email: guest.email }),
    );
    await expectDocumented(
      "/api/app/members",
      "post",
      await members(owner.cookie, "POST", { studioId: project.studioId, email: guest.email }),
    );
    await expectDocumented(
      "/api/app/members",
      "post",
      await members(stranger.cookie, "POST", {
        studioId: project.studioId,
        email: "x@example.com",
      }),
    );
    const key = await keyOf(project._id, guest.email);
    await expectDocumented(
      "/api/app/members",
      "patch",
      await members(guest.cookie, "PATCH", {
        studioId: project.studioId,
        memberInvitationKey: key,
        action: "accept",
        email: guest.email,
      }),
    );
    const { members: list } = await (await get(owner.cookie, project.studioId)).json();
    const guestId = list.find((m: { invitedEmail: string }) => m.invitedEmail === guest.email).user
      ._id;
    expect(guestId).toBe(guest.id);
    const memberRow = (await import("./members-support")).memberRow;
    const row = await memberRow(project._id, guest.email);
    await expectDocumented(
      "/api/app/members",
      "patch",
      await members(owner.cookie, "PATCH", {
        studioId: project.studioId,
        action: "role",
        memberId: row.id,
        role: "developer",
      }),
    );
    await expectDocumented(
      "/api/app/members",
      "patch",
      await members(guest.cookie, "PATCH", { studioId: project.studioId, action: "leave" }),
    );
    await members(owner.cookie, "POST", { studioId: project.studioId, email: "late@example.com" });
    await expectDocumented(
      "/api/app/members",
      "delete",
      await members(owner.cookie, "DELETE", {
        studioId: project.studioId,
        memberEmail: "late@example.com",
        memberInvitationKey: await keyOf(project._id, "late@example.com"),
      }),
    );
    await expectDocumented(
      "/api/app/members",
      "delete",
      await members(owner.cookie, "DELETE", { studioId: project.studioId }),
    );
    // Successes and refusals alike were checked.
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        "POST /api/app/create 201",
        "POST /api/app/create 200",
        "POST /api/app/create 400",
        "POST /api/app/create 401",
        "POST /api/app/create 415",
        "GET /api/app 200",
        "GET /api/app 400",
        "GET /api/app/{id} 200",
        "GET /api/app/{id} 400",
        "GET /api/app/{id} 404",
        "GET /api/deployments/{studioId} 200",
        "GET /api/deployments/{studioId} 400",
        "POST /api/app/members 201",
        "POST /api/app/members 200",
        "PATCH /api/app/members 200",
        "DELETE /api/app/members 200",
        "DELETE /api/app/members 400",
      ]),
    );
  });

  it("describes the user call: the specification's User entity with isMemberInvited", async () => {
    const own = await ownedProject(owner);
    const invitee = await actor({ name: "Ivy Invitee" });
    const me = (cookie: string | undefined) =>
      call(userLoader, makeRequest("/api/user", { cookie }));
    expect(await expectDocumented("/api/user", "get", await me(invitee.cookie))).toEqual({
      id: invitee.id,
      name: "Ivy Invitee",
      email: invitee.email,
      isAdmin: false,
      isMemberInvited: false,
    });
    await call(
      membersAction,
      json(owner.cookie, "/api/app/members", "POST", {
        studioId: own.studioId,
        email: invitee.email,
        role: "editor",
      }),
    );
    expect(await (await me(invitee.cookie)).json()).toMatchObject({ isMemberInvited: true });
    // The inviter has no invitation waiting.
    expect(await (await me(owner.cookie)).json()).toMatchObject({ isMemberInvited: false });
    await expectDocumented("/api/user", "get", await me(undefined));
    expect([...seen].filter((s) => s.includes("/api/user")).sort()).toEqual([
      "GET /api/user 200",
      "GET /api/user 401",
    ]);
  });

  it("names the record of its differences from the specification, which the repository holds", () => {
    const info = (doc as unknown as { info: { description: string } }).info;
    const record = /docs\/decisions\/\d{3}-api-differences-from-the-specification\.md/.exec(
      info.description,
    );
    expect(record).not.toBeNull();
    const text = fs.readFileSync(path.resolve(record![0]), "utf8");
    for (const topic of ["state", "Stripe", "unlink_account", "api_key", "_createdAt"]) {
      expect(text).toContain(topic);
    }
  });

  it("describes every response of the domains call", async () => {
    const own = await ownedProject(owner);
    const put = (cookie: string | undefined, body: unknown) =>
      call(domainsAction, json(cookie, "/api/app/domains", "PUT", body));
    const update = { type: "site", action: "update", studioId: own.studioId };
    // No site yet (409), a bad domain (400), anonymous (401); then with a site: set (200).
    await expectDocumented(
      "/api/app/domains",
      "put",
      await put(owner.cookie, { ...update, domain: "a.example" }),
    );
    await expectDocumented(
      "/api/app/domains",
      "put",
      await put(owner.cookie, { ...update, domain: "a b" }),
    );
    await expectDocumented(
      "/api/app/domains",
      "put",
      await put(undefined, { ...update, domain: "a.example" }),
    );
    await withVercelSite(own, "openapi");
    const domain = `openapi-${Date.now()}.example`;
    const body = await expectDocumented(
      "/api/app/domains",
      "put",
      await put(owner.cookie, { ...update, domain }),
    );
    expect(body).toEqual({ ok: true, action: "update", domain, changed: true });
    expect([...seen].filter((s) => s.startsWith("PUT"))).toEqual(
      expect.arrayContaining([
        "PUT /api/app/domains 200",
        "PUT /api/app/domains 400",
        "PUT /api/app/domains 401",
        "PUT /api/app/domains 409",
      ]),
    );
  });

  it("describes every response of the End To End Tests runs call", async () => {
    const own = await ownedProject(owner);
    const repo = `openapi-sites/site-${Date.now()}`;
    const missing = `openapi-sites/missing-${Date.now()}`;
    const limited = `openapi-sites/limited-${Date.now()}`;
    for (const [id, name] of [
      [own._id, repo],
      [(await ownedProject(owner))._id, missing],
      [(await ownedProject(owner))._id, limited],
    ]) {
      await db()
        .update(projects)
        .set({ siteDetails: { build_settings: { repo_url: `https://github.com/${name}` } } })
        .where(eq(projects.id, id));
    }
    const get = (cookie: string | undefined, query: string) =>
      call(runsLoader, makeRequest(`/api/app/e2e-test-runs${query}`, { cookie }));
    const path = "/api/app/e2e-test-runs";
    const body = await expectDocumented(path, "get", await get(owner.cookie, `?repo=${repo}`));
    expect(body.workflow_runs).toHaveLength(4);
    await expectDocumented(path, "get", await get(owner.cookie, "?repo="));
    await expectDocumented(path, "get", await get(undefined, `?repo=${repo}`));
    await expectDocumented(path, "get", await get(owner.cookie, `?repo=${missing}`));
    await expectDocumented(path, "get", await get(owner.cookie, `?repo=${limited}`));
    expect([...seen].filter((s) => s.startsWith(`GET ${path}`)).sort()).toEqual([
      `GET ${path} 200`,
      `GET ${path} 400`,
      `GET ${path} 401`,
      `GET ${path} 404`,
      `GET ${path} 503`,
    ]);
  });

  it("describes every response of the payments calls", async () => {
    const own = await ownedProject(owner);
    const path = "/api/app/integrations/{integrationId}";
    const params = { integrationId: "payments" };
    const post = (cookie: string | undefined, body: unknown) =>
      call(paymentsApi, json(cookie, "/api/app/integrations/payments", "POST", body), params);
    const add = {
      action: "add-account",
      studio: { pagebuilderId: own.studioId },
      stripeAccounts: {
        accountName: "OpenAPI shop",
        stripePKey: `pk_test_openapi${Date.now()}`,
        stripeSKey: "sk_test_Openapi12345",
      },
    };
    const added = await expectDocumented(path, "post", await post(owner.cookie, add));
    await expectDocumented(path, "post", await post(owner.cookie, add)); // 409 duplicate
    await expectDocumented(path, "post", await post(owner.cookie, { action: "x" }));
    await expectDocumented(path, "post", await post(undefined, add));
    await expectDocumented(
      path,
      "get",
      await call(
        paymentsLoader,
        makeRequest(`/api/app/integrations/payments?action=get-accounts&studioId=${own.studioId}`, {
          cookie: owner.cookie,
        }),
        params,
      ),
    );
    await expectDocumented(
      path,
      "post",
      await post(owner.cookie, {
        action: "remove-account",
        studio: { pagebuilderId: own.studioId },
        account: { id: (added as { account: { id: string } }).account.id },
      }),
    );
    expect([...seen].filter((s) => s.includes("{integrationId}")).sort()).toEqual([
      `GET ${path} 200`,
      `POST ${path} 200`,
      `POST ${path} 201`,
      `POST ${path} 400`,
      `POST ${path} 401`,
      `POST ${path} 409`,
    ]);
  });

  it("describes every response of the social accounts calls and of the Stripe listing", async () => {
    const own = await ownedProject(owner);
    const path = "/api/app/integrations/social-accounts";
    const send = (cookie: string | undefined, method: string, body: unknown) =>
      call(paymentsApi, json(cookie, path, method, body), { integrationId: "social-accounts" });
    // A real round trip: Connect on the card, Authorize on the local page, then exchange_token.
    const back = await authorizeInstagram(owner.cookie, own.studioId, `openapi.${Date.now()}`);
    const exchange = {
      action: "exchange_token",
      integration: { platform: "instagram" },
      pageBuilderId: own.studioId,
      authorizationCode: back.searchParams.get("code"),
      state: back.searchParams.get("state"),
    };
    const linked = (await expectDocumented(
      path,
      "post",
      await send(owner.cookie, "POST", exchange),
    )) as {
      account: { id: string };
    };
    await expectDocumented(path, "post", await send(owner.cookie, "POST", exchange)); // 400: spent
    await expectDocumented(path, "post", await send(undefined, "POST", exchange));

    // The project entity's integrations[] carries the linked account and a Stripe account added
    // now, in the specification's shapes (no secret key anywhere).
    const stripePKey = `pk_test_entity${Date.now()}`;
    await call(
      paymentsApi,
      json(owner.cookie, "/api/app/integrations/payments", "POST", {
        action: "add-account",
        studio: { pagebuilderId: own.studioId },
        stripeAccounts: {
          accountName: "Entity shop",
          stripePKey,
          stripeSKey: "sk_test_Entity12345",
        },
      }),
      { integrationId: "payments" },
    );
    const entity = (await expectDocumented(
      "/api/app/{id}",
      "get",
      await call(getAction, makeRequest(`/api/app/${own.studioId}`, { cookie: owner.cookie }), {
        id: own.studioId,
      }),
    )) as { integrations: Record<string, unknown>[] };
    expect(entity.integrations).toMatchObject([
      {
        id: "payments",
        name: "Stripe",
        predefined: true,
        accounts: [{ accountName: "Entity shop", stripePKey, apiVersion: expect.any(String) }],
      },
      {
        id: "social-accounts",
        isSocialMedia: true,
        accounts: [
          {
            id: linked.account.id,
            platform: "instagram",
            userName: expect.stringMatching(/^openapi\./),
            baseUrl: "https://www.instagram.com/",
          },
        ],
      },
    ]);
    expect(JSON.stringify(entity)).not.toContain("sk_test_Entity12345");
    const unlink = {
      action: "unlink_account",
      integration: { platform: "instagram" },
      pageBuilderId: own.studioId,
      accountId: linked.account.id,
    };
    await expectDocumented(path, "patch", await send(owner.cookie, "PATCH", unlink));
    // The specification's body names no account: the project's only one, and none is left (404).
    const { accountId: _named, ...specBody } = unlink;
    await expectDocumented(path, "patch", await send(owner.cookie, "PATCH", specBody));
    await expectDocumented(path, "patch", await send(owner.cookie, "PATCH", { action: "x" }));
    expect([...seen].filter((s) => s.includes(path)).sort()).toEqual([
      `PATCH ${path} 200`,
      `PATCH ${path} 400`,
      `PATCH ${path} 404`,
      `POST ${path} 201`,
      `POST ${path} 400`,
      `POST ${path} 401`,
    ]);

    const listPath = "/api/payments/stripe";
    const added = (await (
      await call(
        paymentsApi,
        json(owner.cookie, "/api/app/integrations/payments", "POST", {
          action: "add-account",
          studio: { pagebuilderId: own.studioId },
          stripeAccounts: {
            accountName: "Listing",
            stripePKey: `pk_test_listing${Date.now()}`,
            stripeSKey: "sk_test_Listing12345",
          },
        }),
        { integrationId: "payments" },
      )
    ).json()) as { account: { id: string } };
    const list = (cookie: string | undefined, query: string, body: unknown) =>
      call(stripeListAction, json(cookie, `${listPath}?${query}`, "POST", body));
    const query = "resource=prices&action=list";
    const page = (await expectDocumented(
      listPath,
      "post",
      await list(owner.cookie, query, { accountId: added.account.id, limit: 2 }),
      `${listPath}?${query}`,
    )) as { data: unknown[] };
    expect(page.data).toHaveLength(2);
    await expectDocumented(listPath, "post", await list(owner.cookie, "resource=x", {}));
    await expectDocumented(
      listPath,
      "post",
      await list(undefined, query, { accountId: added.account.id }),
    );
    await expectDocumented(
      listPath,
      "post",
      await list(owner.cookie, query, { accountId: "00000000-0000-4000-8000-000000000000" }),
    );
    expect([...seen].filter((s) => s.includes(listPath)).sort()).toEqual([
      `POST ${listPath} 200`,
      `POST ${listPath} 400`,
      `POST ${listPath} 401`,
      `POST ${listPath} 404`,
    ]);
  });
  it("answers in the specification's names: a linked Instagram account, a Stripe account with products, a newsletter with a sender domain", async () => {
    const own = await ownedProject(owner);
    const { studioId } = own;

    // Instagram, linked through the round trip the return page finishes.
    const back = await authorizeInstagram(owner.cookie, studioId, `spec.${Date.now()}`);
    await expectDocumented(
      "/api/app/integrations/social-accounts",
      "post",
      await call(
        paymentsApi,
        json(owner.cookie, "/api/app/integrations/social-accounts", "POST", {
          action: "exchange_token",
          integration: { platform: "instagram" },
          pageBuilderId: studioId,
          authorizationCode: back.searchParams.get("code"),
          state: back.searchParams.get("state"),
        }),
        { integrationId: "social-accounts" },
      ),
    );

    // A Stripe account, and its products (active and archived) and prices.
    const stripePKey = `pk_test_spec${Date.now()}`;
    const added = (await expectDocumented(
      "/api/app/integrations/{integrationId}",
      "post",
      await call(
        paymentsApi,
        json(owner.cookie, "/api/app/integrations/payments", "POST", {
          action: "add-account",
          studio: { pagebuilderId: studioId },
          stripeAccounts: {
            accountName: "Spec shop",
            stripePKey,
            stripeSKey: "sk_test_Spec123456",
          },
        }),
        { integrationId: "payments" },
      ),
    )) as { account: { id: string } };
    const listed = async (resource: "products" | "prices", active: boolean) => {
      const url = `/api/payments/stripe?resource=${resource}&action=list`;
      const res = await call(
        stripeListAction,
        json(owner.cookie, url, "POST", { accountId: added.account.id, active, limit: 5 }),
      );
      return (await expectDocumented("/api/payments/stripe", "post", res, url)) as {
        data: Record<string, unknown>[];
      };
    };
    const products = await listed("products", true);
    expect(products.data).toHaveLength(5);
    expect(products.data[0]).toEqual({
      id: "pricing-starter",
      name: "Starter plan",
      active: true,
      created: expect.any(Number),
      updated: expect.any(Number),
      price: { type: "recurring", unit_amount: 900, product: "pricing-starter" },
    });
    expect((await listed("products", false)).data.every((p) => p.active === false)).toBe(true);
    const prices = await listed("prices", true);
    expect(prices.data[0]).toMatchObject({ product: "pricing-starter", unit_amount: 900 });

    // The newsletter's settings and a sender domain with its DNS records.
    await saveNewsletterSettings(
      owner.user,
      studioId,
      newsletterSettingsSchema.parse({ fromName: "Spec news", fromEmail: "news@spec.example" }),
    );
    const newsletter = async (method: string, query: string, body?: unknown) => {
      const url = `/api/newsletter?${query}`;
      const request = makeRequest(url, {
        cookie: owner.cookie,
        method,
        ...(body === undefined ? {} : { json: body }),
      });
      const res = await call(method === "GET" ? newsletterLoader : newsletterAction, request);
      return expectDocumented("/api/newsletter", method.toLowerCase(), res, url);
    };
    const domain = `spec${Date.now().toString(36)}.example`;
    const created = (await newsletter("POST", "path=domains", {
      studioId,
      domain,
      region: "us-east-1",
    })) as { data: { id: string } };
    const domains = (await newsletter("GET", `path=domains&studioId=${studioId}`)) as {
      data: { domain: string }[];
    };
    expect(domains.data.map((d) => d.domain)).toEqual([domain]);
    await newsletter("GET", `path=domains/${created.data.id}/dns-records`);

    // The project entity: every integration with content and logo, in the specification's shapes.
    const entity = (await expectDocumented(
      "/api/app/{id}",
      "get",
      await call(getAction, makeRequest(`/api/app/${studioId}`, { cookie: owner.cookie }), {
        id: studioId,
      }),
    )) as { _createdAt: string; _updatedAt: string; integrations: Record<string, unknown>[] };
    const [payments, social, news] = entity.integrations;
    expect(payments).toMatchObject({
      id: "payments",
      content: "Connect your Stripe account to start accepting form payments.",
      logo: "/integrations/payments.svg",
      accounts: [{ accountName: "Spec shop", stripePKey }],
    });
    const account = {
      platform: "instagram",
      userName: expect.stringMatching(/^spec\./),
      dateAdded: expect.any(String),
      baseUrl: "https://www.instagram.com/",
    };
    expect(social).toMatchObject({
      id: "social-accounts",
      content: "Connect your social media accounts to display public feed on your page.",
      logo: "/integrations/social-accounts.svg",
      isSocialMedia: true,
      account,
      accounts: [account],
    });
    // The local provider sends with no key: the mask alone (decision 032).
    expect(news).toEqual({
      id: "newsletter",
      name: "AI Newsletter",
      predefined: true,
      content: expect.any(String),
      logo: "/integrations/newsletter.svg",
      newsletterAccount: { id: own._id, api_key: "••••" },
    });

    // The list's row is the same entity under the same names.
    const list = (await expectDocumented(
      "/api/app",
      "get",
      await call(listAction, makeRequest("/api/app?limit=50", { cookie: owner.cookie })),
    )) as { data: Record<string, unknown>[] };
    const row = list.data.find((p) => p._id === own._id);
    expect(row).toMatchObject({
      _id: own._id,
      studioId,
      _createdAt: entity._createdAt,
      _updatedAt: entity._updatedAt,
      badge: expect.any(Object),
    });
    expect(row).not.toHaveProperty("id");
    expect(row).not.toHaveProperty("createdAt");
  });

  it("removes a Stripe account named by the specification's fields: stripePKey or accountName, 400 when a name is shared, 404 when none fits", async () => {
    const own = await ownedProject(owner);
    const path = "/api/app/integrations/{integrationId}";
    const post = (body: unknown) =>
      call(paymentsApi, json(owner.cookie, "/api/app/integrations/payments", "POST", body), {
        integrationId: "payments",
      });
    const studio = { pagebuilderId: own.studioId };
    const keys: string[] = [];
    for (const name of ["Shared name", "Shared name", "Own name"]) {
      keys.push(`pk_test_remove${keys.length}x${Date.now()}`);
      const res = await post({
        action: "add-account",
        studio,
        stripeAccounts: {
          accountName: name,
          stripePKey: keys.at(-1),
          stripeSKey: "sk_test_Remove1234",
        },
      });
      expect(res.status).toBe(201);
    }
    const names = async () =>
      (
        (await (
          await call(
            paymentsLoader,
            makeRequest(
              `/api/app/integrations/payments?action=get-accounts&studioId=${own.studioId}`,
              { cookie: owner.cookie },
            ),
            { integrationId: "payments" },
          )
        ).json()) as { accounts: { stripePKey: string }[] }
      ).accounts.map((a) => a.stripePKey);

    const ambiguous = await expectDocumented(
      path,
      "post",
      await post({ action: "remove-account", studio, account: { accountName: "Shared name" } }),
    );
    expect(ambiguous.error).toMatch(/Several Stripe accounts/);
    const unknown = await expectDocumented(
      path,
      "post",
      await post({ action: "remove-account", studio, account: { accountName: "Nobody" } }),
    );
    expect(unknown.error).toBe("This Stripe account is not in the project");
    // Two fields that name different accounts fit none.
    expect(
      (
        await post({
          action: "remove-account",
          studio,
          account: { accountName: "Own name", stripePKey: keys[0] },
        })
      ).status,
    ).toBe(404);
    const empty = await expectDocumented(
      path,
      "post",
      await post({ action: "remove-account", studio, account: {} }),
    );
    expect(empty.fieldErrors).toHaveProperty("account");
    expect(await names()).toEqual(keys);

    await expectDocumented(
      path,
      "post",
      await post({ action: "remove-account", studio, account: { stripePKey: keys[0] } }),
    );
    expect(await names()).toEqual([keys[1], keys[2]]);
    await expectDocumented(
      path,
      "post",
      await post({ action: "remove-account", studio, account: { accountName: "Own name" } }),
    );
    expect(await names()).toEqual([keys[1]]);
  });
});
