import fs from "node:fs";
import path from "node:path";
import { flatRoutes } from "@remix-run/dev/dist/config/flat-routes.js";
import { describe, expect, it } from "vitest";
import remixConfig from "../../../remix.config.js";
import { PROJECT_ROUTE_ID } from "./project-frame";
import { PROJECT_SECTIONS } from "./project-nav";

/** The route tree as Remix builds it from app/routes (the same function, the same options). */
const routes = Object.values(flatRoutes("app", remixConfig.ignoredRouteFiles));
const source = (file: string) => fs.readFileSync(path.join("app", file), "utf8");

/** Pages about one project: every page route whose address names a project. */
const projectPages = routes.filter(
  (route) =>
    route.path?.includes(":studioId") &&
    // The version check answers JSON for the pages' refresh: a resource route, not a page.
    !route.id.endsWith("$studioId_.version") &&
    route.id.startsWith("routes/_app."),
);

describe("the project pages", () => {
  it("are found (the dashboard, activity, webhooks, deployment pages, sections, payments)", () => {
    expect(projectPages.length).toBe(5 + PROJECT_SECTIONS.length + 1);
  });

  it("all live under the one project route, which has no address of its own", () => {
    const layout = routes.find((route) => route.id === PROJECT_ROUTE_ID);
    expect(layout?.path).toBeUndefined();
    expect(layout?.parentId).toBe("routes/_app");
    expect(projectPages.filter((page) => page.parentId !== PROJECT_ROUTE_ID)).toEqual([]);
  });

  it("keep no error boundary of their own: the project route's shows the error in the frame", () => {
    const layout = routes.find((route) => route.id === PROJECT_ROUTE_ID)!;
    expect(source(layout.file)).toMatch(/export \{ ProjectErrorBoundary as ErrorBoundary \}/);
    const withOwn = projectPages.filter((page) => /ErrorBoundary/.test(source(page.file)));
    expect(withOwn.map((page) => page.file)).toEqual([]);
  });

  it.each(PROJECT_SECTIONS.map((s) => s.section))(
    "the %s page is drawn as its section",
    (section) => {
      const page = projectPages.find((route) => route.path === `sites/${section}/:studioId`);
      expect(source(page!.file)).toContain("<ProjectSectionPage");
      expect(source(page!.file)).toMatch(new RegExp(`section="${section}"`));
    },
  );
});
