import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_SECTIONS } from "./project-nav";

const routes = path.resolve("app/routes");
const source = (file: string) => fs.readFileSync(path.join(routes, file), "utf8");

/** The project's pages: its dashboard, its activity page and the six navigation pages. */
const projectPages = [
  "_app.sites.$studioId/route.tsx",
  "_app.sites.$studioId_.activity.tsx",
  ...PROJECT_SECTIONS.map((s) => `_app.sites.${s.section}.$studioId.tsx`),
];

describe("the project pages", () => {
  it.each(projectPages)("%s has the error boundary that keeps the project navigation", (file) => {
    expect(source(file)).toMatch(
      /export \{ ProjectErrorBoundary as ErrorBoundary \} from "~\/components\/project-dashboard\/section-page";/,
    );
  });

  it.each(PROJECT_SECTIONS.map((s) => s.section))(
    "the %s page is drawn in the section frame",
    (section) => {
      expect(source(`_app.sites.${section}.$studioId.tsx`)).toContain("<ProjectSectionPage");
      expect(source(`_app.sites.${section}.$studioId.tsx`)).toMatch(
        new RegExp(`section="${section}"`),
      );
    },
  );
});
