import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DashboardHeader } from "./dashboard-header";
import type { ProjectView } from "./project-view";

/** The header's inputs; the rest of a ProjectView does not reach it. */
function view(overrides: Partial<ProjectView>): ProjectView {
  return {
    name: "Acme",
    siteCustomDomain: null,
    siteUrl: null,
    badge: "building",
    live: false,
    upgradeTo: null,
    address: null,
    studioCreationStatus: "pending",
    ...overrides,
  } as ProjectView;
}

const render = (project: ProjectView, studio: React.ReactNode = <p>studio launch</p>) =>
  renderToString(<DashboardHeader project={project} screenshotUrl={null} studio={studio} />);

/** The accessible description of the unavailable action named `label`. */
function reasonOf(html: string, label: string) {
  const button = html.match(
    new RegExp(`<button[^>]*aria-describedby="([^"]+)"[^>]*>${label}</button>`),
  );
  if (!button) return null;
  const id = button[1];
  expect(button[0]).toContain('aria-disabled="true"');
  return html.match(new RegExp(`id="${id}"[^>]*>([^<]*)<`))?.[1] ?? null;
}

describe("DashboardHeader", () => {
  it("shows Visit and Studio before they are ready, unavailable, each with its reason", () => {
    const html = render(view({}));
    expect(reasonOf(html, "Visit")).toBe("The site is not published yet.");
    expect(reasonOf(html, "Studio")).toBe("The content studio is still being set up.");
    expect(html).not.toContain("studio launch");
  });

  it("links Visit to the site and shows the studio launch once they are ready", () => {
    const html = render(view({ address: "https://acme.example", studioCreationStatus: "success" }));
    expect(html).toContain('href="https://acme.example"');
    expect(reasonOf(html, "Visit")).toBeNull();
    expect(html).toContain("studio launch");
  });

  it("says why a failed studio or support access cannot open the studio", () => {
    expect(reasonOf(render(view({ studioCreationStatus: "failed" })), "Studio")).toBe(
      "The content studio could not be set up.",
    );
    expect(reasonOf(render(view({ studioCreationStatus: "success" }), null), "Studio")).toBe(
      "Support access does not open the customer&#x27;s studio.",
    );
  });
});
