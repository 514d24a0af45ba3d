import { describe, expect, it } from "vitest";
import {
  DASHBOARD_REQUIRED_SCHEMA_VERSION,
  LATEST_SCHEMA_VERSION,
  NEW_PROJECT_MAX_AGE_MS,
  SCHEMA_VERSION_CARDS,
  SCHEMA_VERSION_DOMAINS,
  SCHEMA_VERSION_END_TO_END_TESTS,
  SCHEMA_VERSION_THEME_PREVIEW,
  buildState,
  externalUrl,
  isLive,
  isNewProject,
  isPublished,
  projectBadge,
  publishedSiteUrl,
  siteAddress,
  siteProviders,
  upgradeRequired,
  upgradeTooltip,
  type StatusInput,
} from "./project-status";

const now = new Date("2025-06-01T12:00:00.000Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

function project(overrides: Partial<StatusInput> = {}): StatusInput {
  return {
    _createdAt: daysAgo(3),
    siteCreationStatus: "success",
    studioCreationStatus: "success",
    siteDetails: { state: "current", ssl: true, published_deploy: { id: "d1" } },
    studioDetails: null,
    ...overrides,
  };
}

describe("buildState / projectBadge", () => {
  it("is In Progress for a new project the host has not reported yet", () => {
    const p = project({
      siteCreationStatus: "pending",
      studioCreationStatus: "pending",
      siteDetails: null,
    });
    expect(buildState(p)).toBe("building");
    expect(projectBadge(p, now).label).toBe("In Progress");
  });

  it.each(["new", "building", "NEW", "Building", "enqueued"])(
    "is In Progress while the site state is %s",
    (state) => {
      expect(buildState(project({ siteDetails: { state, ssl: true } }))).toBe("building");
    },
  );

  it.each(["new", "building"])("is In Progress while the studio state is %s", (state) => {
    expect(buildState(project({ studioDetails: { state } }))).toBe("building");
  });

  it.each(["QUEUED", "BUILDING", "queued", "building"])(
    "is In Progress while the Vercel readyState is %s",
    (readyState) => {
      const p = project({
        siteDetails: { state: "ready", ssl: true, targets: { production: { readyState } } },
      });
      expect(buildState(p)).toBe("building");
    },
  );

  it("is In Progress for a rebuild of a published site (building comes first)", () => {
    const p = project({ siteDetails: { state: "building", ssl: true, published_deploy: {} } });
    expect(buildState(p)).toBe("building");
  });

  it("is In Progress when the site is reported but nothing is published yet", () => {
    expect(buildState(project({ siteDetails: { state: "current", ssl: true } }))).toBe("building");
  });

  it("is Getting Ready when published without SSL", () => {
    const p = project({ siteDetails: { state: "current", ssl: false, published_deploy: {} } });
    expect(buildState(p)).toBe("getting-ready");
    expect(projectBadge(p, now).label).toBe("Getting Ready");
  });

  it("is Ready when published with SSL", () => {
    const p = project();
    expect(buildState(p)).toBe("ready");
    expect(projectBadge(p, now)).toEqual({ state: "ready", label: "Ready", isNew: false });
  });

  it("treats Vercel's production READY as published", () => {
    const details = { state: "ready", ssl: true, targets: { production: { readyState: "READY" } } };
    expect(isPublished(details)).toBe(true);
    expect(isPublished({ state: "ready" })).toBe(false);
    expect(isPublished(null)).toBe(false);
    expect(buildState(project({ siteDetails: details }))).toBe("ready");
  });

  it.each([
    ["site state error", { siteDetails: { state: "error", ssl: true } }],
    ["studio state error", { studioDetails: { state: "error" }, siteDetails: { state: "x" } }],
    ["readyState ERROR", { siteDetails: { targets: { production: { readyState: "ERROR" } } } }],
    ["failed site creation", { siteCreationStatus: "failed", siteDetails: null }],
    ["failed studio creation", { studioCreationStatus: "failed", siteDetails: null }],
  ] as const)("is Build Error on %s with nothing published", (_, overrides) => {
    const p = project(overrides as Partial<StatusInput>);
    expect(buildState(p)).toBe("error");
    expect(projectBadge(p, now).label).toBe("Build Error");
  });

  it("is not Build Error when an error comes after a published deploy", () => {
    const p = project({
      siteDetails: { state: "error", ssl: true, published_deploy: { id: "1" } },
    });
    expect(buildState(p)).toBe("ready");
  });

  it("goes building -> getting ready -> ready as the host reports progress", () => {
    const steps: StatusInput["siteDetails"][] = [
      null,
      { state: "new" },
      { state: "building" },
      { state: "current", ssl: false, published_deploy: { id: "1" } },
      { state: "current", ssl: true, published_deploy: { id: "1" } },
    ];
    expect(steps.map((siteDetails) => buildState(project({ siteDetails })))).toEqual([
      "building",
      "building",
      "building",
      "getting-ready",
      "ready",
    ]);
  });
});

describe("the New badge", () => {
  it("shows beside the state for the first 24 hours", () => {
    const created = new Date(now.getTime() - NEW_PROJECT_MAX_AGE_MS + 1000).toISOString();
    expect(isNewProject({ _createdAt: created }, now)).toBe(true);
    expect(projectBadge(project({ _createdAt: created, siteDetails: null }), now)).toEqual({
      state: "building",
      label: "In Progress",
      isNew: true,
    });
    // A new project that failed still says so.
    expect(
      projectBadge(
        project({ _createdAt: created, siteCreationStatus: "failed", siteDetails: null }),
        now,
      ),
    ).toMatchObject({ label: "Build Error", isNew: true });
  });

  it("goes at 24 hours, and never shows for an unreadable date", () => {
    const created = new Date(now.getTime() - NEW_PROJECT_MAX_AGE_MS).toISOString();
    expect(isNewProject({ _createdAt: created }, now)).toBe(false);
    expect(isNewProject({ _createdAt: "not a date" }, now)).toBe(false);
    expect(isNewProject({ _createdAt: daysAgo(-1) }, now)).toBe(true);
  });
});

describe("isLive", () => {
  it("needs site creation success and a custom domain", () => {
    expect(isLive({ siteCreationStatus: "success", siteCustomDomain: "shop.example" })).toBe(true);
    expect(isLive({ siteCreationStatus: "success", siteCustomDomain: null })).toBe(false);
    expect(isLive({ siteCreationStatus: "success", siteCustomDomain: "  " })).toBe(false);
    for (const status of ["pending", "created", "deployed", "failed"]) {
      expect(isLive({ siteCreationStatus: status, siteCustomDomain: "shop.example" })).toBe(false);
    }
  });
});

describe("schema versions", () => {
  it("has the spec's thresholds", () => {
    expect([
      SCHEMA_VERSION_CARDS,
      SCHEMA_VERSION_DOMAINS,
      SCHEMA_VERSION_END_TO_END_TESTS,
      SCHEMA_VERSION_THEME_PREVIEW,
    ]).toEqual([3, 3, 4, 6]);
    expect(DASHBOARD_REQUIRED_SCHEMA_VERSION).toBe(3);
    // New projects default to the latest (theme preview, 6), so they never show 'UPGRADE REQUIRED'.
    expect(LATEST_SCHEMA_VERSION).toBe(6);
    expect(LATEST_SCHEMA_VERSION).toBeGreaterThanOrEqual(DASHBOARD_REQUIRED_SCHEMA_VERSION);
  });

  it("requires an upgrade below the required version, with version 1 by default", () => {
    expect(upgradeRequired(1, 3)).toBe(true);
    expect(upgradeRequired(2, 3)).toBe(true);
    expect(upgradeRequired(3, 3)).toBe(false);
    expect(upgradeRequired(4, 3)).toBe(false);
    expect(upgradeRequired(3, 4)).toBe(true);
    expect(upgradeRequired(5, 6)).toBe(true);
    expect(upgradeRequired(6, 6)).toBe(false);
    expect(upgradeRequired(null, 3)).toBe(true);
    expect(upgradeRequired(undefined, 1)).toBe(false);
    expect(upgradeRequired(undefined, 2)).toBe(true);
  });

  it("words the tooltip as the spec does", () => {
    expect(upgradeTooltip(6)).toBe("StackShift v6 required");
  });
});

describe("siteProviders", () => {
  it("business: primary on the second provider, Not Deployed on the first", () => {
    const rows = siteProviders({ siteType: "business", sites: [] });
    expect(rows).toEqual([
      { provider: "netlify", primary: false, label: "Not Deployed", site: null },
      { provider: "vercel", primary: true, label: "Primary", site: null },
    ]);
  });

  it("enterprise: primary on the first provider, Deployed on the second", () => {
    const site = {
      provider: "netlify" as const,
      siteId: "s1",
      url: "https://a.netlify.app",
      customDomain: null,
    };
    const rows = siteProviders({ siteType: "enterprise", sites: [site] });
    expect(rows).toEqual([
      { provider: "netlify", primary: true, label: "Primary", site },
      { provider: "vercel", primary: false, label: "Deployed", site: null },
    ]);
  });
});

describe("addresses", () => {
  it("only lets http(s) through, and makes bare domains https", () => {
    expect(externalUrl("https://a.example/x")).toBe("https://a.example/x");
    expect(externalUrl("http://a.example")).toBe("http://a.example/");
    expect(externalUrl("shop.example")).toBe("https://shop.example/");
    expect(externalUrl("javascript:alert(1)")).toBeNull();
    expect(externalUrl("data:text/html,x")).toBeNull();
    expect(externalUrl("")).toBeNull();
    expect(externalUrl(null)).toBeNull();
    expect(externalUrl("http://")).toBeNull();
  });

  it("prefers the custom domain for the site; the nav link is the publish address only", () => {
    expect(siteAddress({ siteCustomDomain: "shop.example", siteUrl: "https://x.app" })).toBe(
      "https://shop.example/",
    );
    expect(siteAddress({ siteCustomDomain: null, siteUrl: "https://x.app" })).toBe(
      "https://x.app/",
    );
    expect(siteAddress({ siteCustomDomain: null, siteUrl: null })).toBeNull();
    expect(publishedSiteUrl({ publishForgeSiteUrl: "https://pub.example" })).toBe(
      "https://pub.example/",
    );
    // No fallback to the site URL: 'Visit' already opens that.
    const noPublish = { publishForgeSiteUrl: null, siteUrl: "https://x.app" };
    expect(publishedSiteUrl(noPublish)).toBeNull();
    expect(publishedSiteUrl({ publishForgeSiteUrl: "javascript:alert(1)" })).toBeNull();
  });
});
