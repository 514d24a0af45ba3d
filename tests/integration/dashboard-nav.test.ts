import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { members, projectSites } from "~/db/schema";
import { loader as analyticsLoader } from "~/routes/_app._project.sites.analytics.$studioId";
import { loader as formsLoader } from "~/routes/_app._project.sites.forms.$studioId";
import { loader as newsletterLoader } from "~/routes/_app._project.sites.newsletter.$studioId";
import { loader as settingsLoader } from "~/routes/_app._project.sites.settings.$studioId";
import { loader as socialLoader } from "~/routes/_app._project.sites.social-media.$studioId";
import { loader as websiteLoader } from "~/routes/_app._project.sites.website.$studioId";
import { callProjectPage, createUser, insertProject, makeRequest, sessionCookie } from "../helpers";

const SECTIONS = [
  ["website", websiteLoader],
  ["analytics", analyticsLoader],
  ["forms", formsLoader],
  ["newsletter", newsletterLoader],
  ["social-media", socialLoader],
  ["settings", settingsLoader],
] as const;

async function addMember(
  projectId: string,
  userId: string,
  email: string,
  status: "invited" | "accepted",
  role: "editor" | "developer" | "admin" = "editor",
) {
  await db().insert(members).values({ projectId, userId, invitedEmail: email, status, role });
}

describe("the project navigation pages (/sites/{section}/{studioId})", () => {
  it("show the project to its owner, accepted members and support, 404 to everyone else", async () => {
    const owner = await createUser();
    const editor = await createUser();
    const invited = await createUser();
    const outsider = await createUser();
    const admin = await createUser({ email: "admin@example.com" });
    const project = await insertProject(owner.id);
    await addMember(project.id, editor.id, editor.email, "accepted");
    await addMember(project.id, invited.id, invited.email, "invited");

    const cookies = {
      owner: await sessionCookie(owner.id),
      editor: await sessionCookie(editor.id),
      invited: await sessionCookie(invited.id),
      outsider: await sessionCookie(outsider.id),
      admin: await sessionCookie(admin.id),
    };
    for (const [section, loader] of SECTIONS) {
      const path = `/sites/${section}/${project.studioId}`;
      const load = (cookie?: string, studioId = project.studioId) =>
        callProjectPage(loader, makeRequest(path, { cookie }), { studioId });
      const roles = { owner: "owner", editor: "editor", admin: "support" } as const;
      for (const who of ["owner", "editor", "admin"] as const) {
        const res = await load(cookies[who]);
        expect(res.status, `${section} ${who}`).toBe(200);
        expect((await res.json()).project).toMatchObject({
          studioId: project.studioId,
          name: project.name,
          role: roles[who],
        });
      }
      for (const who of ["invited", "outsider"] as const) {
        expect((await load(cookies[who])).status, `${section} ${who}`).toBe(404);
      }
      expect((await load(cookies.owner, "no-such-studio")).status, section).toBe(404);
      const anonymous = await load(undefined);
      expect(anonymous.status, `${section} anonymous`).toBe(302);
      expect(anonymous).toHaveRedirect(/^\/auth\/login\?redirectTo=/);
    }
  });

  it("send what the project knows and nothing secret", async () => {
    const owner = await createUser();
    const project = await insertProject(owner.id, {
      siteType: "enterprise",
      siteUrl: "https://nav-site.example",
      publishForgeSiteUrl: "https://publish.example/nav",
      schemaVersion: 4,
      siteCreationStatus: "success",
      siteCustomDomain: "shop.example",
      studioAndSitePreviewToken: "very-secret-token",
      siteDetails: { state: "current", ssl: true, published_deploy: { id: "d1" } },
    });
    await db().insert(projectSites).values({
      projectId: project.id,
      provider: "netlify",
      siteId: "site-1",
      url: "https://nav-site.example",
    });
    const res = await callProjectPage(
      settingsLoader,
      makeRequest(`/sites/settings/${project.studioId}`, { cookie: await sessionCookie(owner.id) }),
      { studioId: project.studioId },
    );
    const text = await res.text();
    expect(text).not.toContain("very-secret-token");
    expect(text).not.toContain(project.idempotencyKey);
    const { project: view } = JSON.parse(text);
    expect(view).toMatchObject({
      siteUrl: "https://nav-site.example",
      publishedUrl: "https://publish.example/nav",
      schemaVersion: 4,
      upgradeTo: null,
      live: true,
      badge: { state: "ready", label: "Ready", isNew: true },
      sites: [{ provider: "netlify", siteId: "site-1", url: "https://nav-site.example" }],
      providers: [
        { provider: "netlify", primary: true, label: "Primary" },
        { provider: "vercel", primary: false, label: "Deployed" },
      ],
    });
  });

  it("link the published site only when the project has a publish address, never its site URL", async () => {
    const owner = await createUser();
    const cookie = await sessionCookie(owner.id);
    const bare = await insertProject(owner.id);
    const withUrl = await insertProject(owner.id, { siteUrl: "https://only-site.example" });
    const bad = await insertProject(owner.id, { publishForgeSiteUrl: "javascript:alert(1)" });
    const load = async (studioId: string) =>
      (
        await (
          await callProjectPage(
            websiteLoader,
            makeRequest(`/sites/website/${studioId}`, { cookie }),
            {
              studioId,
            },
          )
        ).json()
      ).project;
    expect((await load(bare.studioId)).publishedUrl).toBeNull();
    // No fallback to the site URL: 'Visit' opens that.
    expect((await load(withUrl.studioId)).publishedUrl).toBeNull();
    expect((await load(bad.studioId)).publishedUrl).toBeNull();
    expect((await load(bare.studioId)).upgradeTo).toBe(3);
  });
});
