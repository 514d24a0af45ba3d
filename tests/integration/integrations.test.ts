/**
 * The integrations catalogue and each integration's list of projects to configure: search,
 * keyset pages, the configure paths (with the platform admin's id), and the configure route.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loader as listLoader } from "~/routes/_app.sites.integrations.$integrationId";
import { loader as catalogueLoader } from "~/routes/_app.sites.integrations._index";
import { loader as configureLoader } from "~/routes/studios.integrations.$integrationId.$studioId.($adminUserId)";
import { call, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";

type TestUser = Awaited<ReturnType<typeof createUser>>;
type ListBody = {
  integration: { name: string; text: string };
  data: { name: string; configure: string }[];
  nextCursor: string | null;
};

let owner: TestUser;
let ownerCookie: string;
const studioIds: string[] = [];

beforeAll(async () => {
  owner = await createUser({ name: "Ivan Integrator" });
  ownerCookie = await sessionCookie(owner.id);
  // 12 projects, created one after the other: "Shop 12" is the newest.
  for (let i = 1; i <= 12; i += 1) {
    const project = await insertProject(owner.id, {
      name: `Shop ${String(i).padStart(2, "0")}`,
      createdAt: new Date(Date.now() - (20 - i) * 60_000),
    });
    studioIds.push(project.studioId);
  }
});

const list = async (integrationId: string, query = "", cookie = ownerCookie) => {
  const res = await call(
    listLoader,
    makeRequest(`/sites/integrations/${integrationId}${query}`, { cookie }),
    { integrationId },
  );
  return res;
};

describe("the integrations pages", () => {
  it("shows the catalogue to anyone signed in", async () => {
    expect(
      (await call(catalogueLoader, makeRequest("/sites/integrations", { cookie: ownerCookie })))
        .status,
    ).toBe(200);
    expect(await call(catalogueLoader, makeRequest("/sites/integrations"))).toHaveRedirect(
      /^\/auth\/login/,
    );
  });

  it("lists the user's projects 10 at a time, newest first, with their configure paths", async () => {
    const first = await list("payments");
    expect(first.status).toBe(200);
    const page = (await first.json()) as ListBody;
    expect(page.integration.text).toBe(
      "Connect your Stripe account to start accepting form payments.",
    );
    expect(page.data.map((p) => p.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Shop ${String(12 - i).padStart(2, "0")}`),
    );
    expect(page.data[0].configure).toBe(`/studios/integrations/payments/${studioIds[11]}`);
    const second = (await (
      await list("payments", `?cursor=${encodeURIComponent(page.nextCursor!)}`)
    ).json()) as ListBody;
    expect(second.data.map((p) => p.name)).toEqual(["Shop 02", "Shop 01"]);
    expect(second.nextCursor).toBeNull();

    // The social accounts page configures under the social-accounts segment.
    const social = (await (await list("social-accounts")).json()) as ListBody;
    expect(social.integration.text).toBe(
      "Connect your social media accounts to display public feed on your page.",
    );
    expect(social.data[0].configure).toBe(`/studios/integrations/social-accounts/${studioIds[11]}`);
    expect((await list("zapier")).status).toBe(404);
  });

  it("searches lowercased names; a mangled cursor starts over", async () => {
    const found = (await (await list("payments", "?q=SHOP%2003")).json()) as ListBody;
    expect(found.data.map((p) => p.name)).toEqual(["Shop 03"]);
    expect(await list("payments", "?q=shop&cursor=nonsense")).toHaveRedirect(
      "/sites/integrations/payments?q=shop",
    );
  });

  it("appends a platform admin's user id to the configure paths", async () => {
    const pa = await createUser({ name: "Pat Platform", email: "admin@example.com" });
    const body = (await (
      await list("payments", `?q=shop%2012`, await sessionCookie(pa.id))
    ).json()) as ListBody;
    expect(body.data.map((p) => p.configure)).toEqual([
      `/studios/integrations/payments/${studioIds[11]}/${pa.id}`,
    ]);
    const configure = await call(
      configureLoader,
      makeRequest(body.data[0].configure, { cookie: await sessionCookie(pa.id) }),
      { integrationId: "payments", studioId: studioIds[11], adminUserId: pa.id },
    );
    expect(configure).toHaveRedirect(`/sites/integrations/payments/${studioIds[11]}`);
  });
});

describe("the configure route", () => {
  const configure = (
    params: { integrationId: string; studioId: string; adminUserId?: string },
    cookie: string | undefined,
  ) =>
    call(
      configureLoader,
      makeRequest(`/studios/integrations/${params.integrationId}/${params.studioId}`, { cookie }),
      params,
    );

  it("leads the project's people to its Stripe accounts or Active Integrations; 404 otherwise", async () => {
    const studioId = studioIds[0];
    expect(
      await configure({ integrationId: "social-accounts", studioId }, ownerCookie),
    ).toHaveRedirect(`/sites/${studioId}#social-accounts`);
    expect((await configure({ integrationId: "instagram", studioId }, ownerCookie)).status).toBe(
      404,
    );
    // Another user's id in the path, or a user id from someone who is no platform admin.
    expect(
      (await configure({ integrationId: "payments", studioId, adminUserId: owner.id }, ownerCookie))
        .status,
    ).toBe(404);
    const stranger = await sessionCookie((await createUser()).id);
    expect((await configure({ integrationId: "payments", studioId }, stranger)).status).toBe(404);
    expect(await configure({ integrationId: "payments", studioId }, undefined)).toHaveRedirect(
      /^\/auth\/login/,
    );
  });
});
