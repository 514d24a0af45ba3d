import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { projects } from "~/db/schema";
import { loader as appLoader } from "~/routes/_app";
import { loader as pickerLoader } from "~/routes/resources.picker";
import { action as themeAction } from "~/routes/resources.theme";
import { createProject, newIdempotencyKey } from "~/services/projects/projects.server";
import { getTheme } from "~/utils/theme.server";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";

type Picked = { studioId: string; name: string; live: boolean };
type AppData = {
  user: { id: string; name: string; email: string; isAdmin: boolean };
  picker: { projects: Picked[]; query: string; loaded: boolean; selected: Picked | null };
};

async function signedIn() {
  const row = await createUser();
  const user = { id: row.id, name: row.name, email: row.email, isAdmin: false };
  return { user, cookie: await sessionCookie(row.id) };
}

async function newProject(
  user: { id: string; name: string; email: string; isAdmin: boolean },
  name: string,
) {
  const { project } = await createProject(user, { name, idempotencyKey: newIdempotencyKey() });
  return project;
}

describe("_app layout loader", () => {
  it("sends anonymous visitors to login, coming back to the page afterwards", async () => {
    const res = await call(appLoader, makeRequest("/sites/integrations?pq=x"));
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect(
      `/auth/login?redirectTo=${encodeURIComponent("/sites/integrations?pq=x")}`,
    );
  });

  it("leaves the picker's list out of pages, and gives it with ?pq= (with the Live flag)", async () => {
    const { user, cookie } = await signedIn();
    const other = await signedIn();
    const plain = await newProject(user, "Plain site");
    const live = await newProject(user, "Live site");
    await db()
      .update(projects)
      .set({ siteCreationStatus: "success", siteCustomDomain: "live.example.com" })
      .where(eq(projects.studioId, live.studioId));
    await newProject(other.user, "Someone else's");

    // A page: no list (the picker fetches it when it opens, or asks with ?pq= without JS).
    const page = (await (
      await call(appLoader, makeRequest("/sites", { cookie }))
    ).json()) as AppData;
    expect(page.picker).toMatchObject({ loaded: false, projects: [], selected: null });

    const res = await call(appLoader, makeRequest("/sites?pq=", { cookie }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as AppData;
    expect(body.user).toMatchObject({ id: user.id, email: user.email, name: user.name });
    expect(body.picker.loaded).toBe(true);
    expect(body.picker.selected).toBeNull();
    expect(body.picker.query).toBe("");
    const inProgress = { state: "building", label: "In Progress", isNew: true };
    expect(body.picker.projects).toEqual([
      { studioId: live.studioId, name: "Live site", badge: inProgress, live: true },
      { studioId: plain.studioId, name: "Plain site", badge: inProgress, live: false },
    ]);
  });

  it("selects the project named by the URL, on its dashboard and its section pages", async () => {
    const { user, cookie } = await signedIn();
    const project = await newProject(user, "A project with a rather long name indeed");
    for (const path of [`/sites/${project.studioId}`, `/sites/settings/${project.studioId}`]) {
      const body = (await (await call(appLoader, makeRequest(path, { cookie }))).json()) as AppData;
      expect(body.picker.selected?.studioId).toBe(project.studioId);
      expect(body.picker.selected?.name).toBe("A project with a rather long name indeed");
    }
  });

  it("filters the picker with ?pq= (no-JS search), lowercased, and still names the selection", async () => {
    const { user, cookie } = await signedIn();
    const alpha = await newProject(user, "Alpha Shop");
    await newProject(user, "Beta Blog");

    const res = await call(appLoader, makeRequest(`/sites/${alpha.studioId}?pq=BLOG`, { cookie }));
    const body = (await res.json()) as AppData;
    expect(body.picker.query).toBe("blog");
    expect(body.picker.projects.map((p) => p.name)).toEqual(["Beta Blog"]);
    // The selected project is not in the filtered list but the label still shows it.
    expect(body.picker.selected?.name).toBe("Alpha Shop");

    const none = (await (
      await call(appLoader, makeRequest("/sites?pq=nothing-like-this", { cookie }))
    ).json()) as AppData;
    expect(none.picker.projects).toEqual([]);
  });

  it("selects nothing for a project the user cannot see", async () => {
    const { cookie } = await signedIn();
    const other = await signedIn();
    const hidden = await newProject(other.user, "Hidden");
    const body = (await (
      await call(appLoader, makeRequest(`/sites/${hidden.studioId}`, { cookie }))
    ).json()) as AppData;
    expect(body.picker.selected).toBeNull();
    expect(body.picker.projects).toEqual([]);
  });
});

describe("picker search resource route", () => {
  it("returns the caller's projects matching ?q=, case-insensitively", async () => {
    const { user, cookie } = await signedIn();
    await newProject(user, "Gamma Store");
    await newProject(user, "Delta Docs");
    const res = await call(pickerLoader, makeRequest("/resources/picker?q=GAMMA", { cookie }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { projects: Picked[] };
    expect(body.projects.map((p) => p.name)).toEqual(["Gamma Store"]);

    const all = (await (
      await call(pickerLoader, makeRequest("/resources/picker", { cookie }))
    ).json()) as { projects: Picked[] };
    expect(all.projects).toHaveLength(2);
  });

  it("answers anonymous callers with 401", async () => {
    const res = await call(pickerLoader, makeRequest("/resources/picker?q=a"));
    expect(res.status).toBe(401);
  });
});

describe("colour mode action", () => {
  const themeOf = (setCookie: string | null) =>
    getTheme(
      new Request("http://localhost/", { headers: { Cookie: setCookie?.split(";")[0] ?? "" } }),
    );

  it("sets the cookie and redirects back to a same-site path (no JavaScript)", async () => {
    const res = await call(
      themeAction,
      makeRequest("/resources/theme", { form: { theme: "dark", redirectTo: "/sites?pq=a" } }),
    );
    expect(res.status).toBe(302);
    expect(res).toHaveRedirect("/sites?pq=a");
    const setCookie = res.headers.get("Set-Cookie");
    expect(setCookie).toMatch(/stackshift_theme=.+Max-Age=31536000/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(await themeOf(setCookie)).toBe("dark");
  });

  it.each(["https://evil.example.com/", "//evil.example.com", "/\\evil.example.com", "sites", ""])(
    "falls back to / for the unsafe redirectTo %j",
    async (redirectTo) => {
      const res = await call(
        themeAction,
        makeRequest("/resources/theme", { form: { theme: "light", redirectTo } }),
      );
      expect(res.status).toBe(302);
      expect(res).toHaveRedirect("/");
    },
  );

  it("answers the JavaScript toggle (no redirectTo) with data and the cookie", async () => {
    const res = await call(
      themeAction,
      makeRequest("/resources/theme", { form: { theme: "dark" } }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ theme: "dark" });
    expect(await themeOf(res.headers.get("Set-Cookie"))).toBe("dark");
  });

  it("toggles the current mode when no theme is given", async () => {
    const first = await call(
      themeAction,
      makeRequest("/resources/theme", { form: { redirectTo: "/" } }),
    );
    const cookie = first.headers.get("Set-Cookie")!.split(";")[0];
    expect(await themeOf(cookie)).toBe("dark");
    const second = await call(
      themeAction,
      makeRequest("/resources/theme", { form: { redirectTo: "/" }, cookie }),
    );
    expect(await themeOf(second.headers.get("Set-Cookie"))).toBe("light");
  });

  it("refuses an unknown mode", async () => {
    const res = await call(
      themeAction,
      makeRequest("/resources/theme", { form: { theme: "blue" } }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("Set-Cookie")).toBeNull();
  });
});
