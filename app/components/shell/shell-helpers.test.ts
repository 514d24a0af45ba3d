import { describe, expect, it } from "vitest";
import {
  documentShouldRevalidate,
  initials,
  isLiveProject,
  onlyOverlayChanged,
  otherTheme,
  projectCount,
  selectedStudioId,
  toPickerProject,
  truncateProjectName,
  urlWith,
} from "./shell-helpers";

describe("truncateProjectName", () => {
  it("keeps a name of exactly 27 characters", () => {
    const name = "a".repeat(27);
    expect(truncateProjectName(name)).toBe(name);
  });

  it("cuts a 28-character name to 27 plus '...'", () => {
    const name = "abcdefghijklmnopqrstuvwxyz12";
    expect(name).toHaveLength(28);
    expect(truncateProjectName(name)).toBe("abcdefghijklmnopqrstuvwxyz1...");
  });

  it("leaves short names alone", () => {
    expect(truncateProjectName("Acme")).toBe("Acme");
  });
});

describe("isLiveProject", () => {
  it("is live only when the site succeeded and has a custom domain", () => {
    expect(isLiveProject({ siteCreationStatus: "success", siteCustomDomain: "acme.com" })).toBe(
      true,
    );
    expect(isLiveProject({ siteCreationStatus: "success", siteCustomDomain: null })).toBe(false);
    expect(isLiveProject({ siteCreationStatus: "success", siteCustomDomain: "" })).toBe(false);
    expect(isLiveProject({ siteCreationStatus: "deployed", siteCustomDomain: "acme.com" })).toBe(
      false,
    );
  });

  it("is carried into the picker's project shape with the derived badge, nothing more", () => {
    const badge = { state: "ready" as const, label: "Ready", isNew: false };
    expect(
      toPickerProject({
        studioId: "s1",
        name: "Acme",
        badge,
        live: true,
        ...{ siteUrl: "https://acme.example" },
      }),
    ).toEqual({ studioId: "s1", name: "Acme", badge, live: true });
  });

  it("counts the picker's matches", () => {
    expect(projectCount(0)).toBe("0 projects");
    expect(projectCount(1)).toBe("1 project");
    expect(projectCount(120)).toBe("120 projects");
    expect(projectCount(1000)).toBe("1000 projects");
    expect(projectCount(1001)).toBe("1000+ projects");
  });
});

describe("selectedStudioId", () => {
  it("reads the project from /sites/{studioId} and the project navigation pages", () => {
    expect(selectedStudioId("/sites/abc123")).toBe("abc123");
    expect(selectedStudioId("/sites/abc123/")).toBe("abc123");
    expect(selectedStudioId("/sites/settings/abc123")).toBe("abc123");
    expect(selectedStudioId("/sites/social-media/abc123")).toBe("abc123");
  });

  it("is none on pages that are not a project", () => {
    expect(selectedStudioId("/")).toBeNull();
    expect(selectedStudioId("/sites")).toBeNull();
    expect(selectedStudioId("/sites/integrations")).toBeNull();
    expect(selectedStudioId("/sites/integrations/social-accounts")).toBeNull();
    expect(selectedStudioId("/sites/domains")).toBeNull();
    expect(selectedStudioId("/sites/support")).toBeNull();
    expect(selectedStudioId("/sites/user-settings")).toBeNull();
    expect(selectedStudioId("/sites/settings")).toBeNull();
    expect(selectedStudioId("/admin")).toBeNull();
    expect(selectedStudioId("/sites/%E0%A4%A")).toBeNull();
  });
});

describe("urlWith", () => {
  it("sets and removes search params, keeping the rest", () => {
    expect(urlWith("/sites", "?page=2", { drawer: "open" })).toBe("/sites?page=2&drawer=open");
    expect(urlWith("/sites", "?page=2&drawer=open", { drawer: null })).toBe("/sites?page=2");
    expect(urlWith("/sites", "?drawer=open", { drawer: null })).toBe("/sites");
  });
});

describe("onlyOverlayChanged", () => {
  const u = (path: string) => new URL(path, "http://x");
  it("is true when only drawer/dialog/menu params differ", () => {
    expect(onlyOverlayChanged(u("/sites?pq=a"), u("/sites?pq=a&drawer=open"))).toBe(true);
    expect(onlyOverlayChanged(u("/sites?dialog=create"), u("/sites"))).toBe(true);
  });
  it("is false when the path or another param changes", () => {
    expect(onlyOverlayChanged(u("/sites"), u("/sites/abc"))).toBe(false);
    expect(onlyOverlayChanged(u("/sites"), u("/sites?pq=acme"))).toBe(false);
  });
});

describe("documentShouldRevalidate", () => {
  const u = (path: string) => new URL(path, "http://x");
  const ask = (current: string, next: string, formMethod?: "POST") =>
    documentShouldRevalidate({
      currentUrl: u(current),
      currentParams: {},
      nextUrl: u(next),
      nextParams: {},
      formMethod,
      defaultShouldRevalidate: true,
    });
  it("skips the root's data on a refresh of the same address", () => {
    expect(ask("/sites/abc?page=2", "/sites/abc?page=2")).toBe(false);
  });
  it("reloads it after a form, and on another address", () => {
    expect(ask("/sites/abc", "/sites/abc", "POST")).toBe(true);
    expect(ask("/sites/abc", "/sites/def")).toBe(true);
    expect(ask("/sites", "/sites?q=acme")).toBe(true);
  });
});

describe("otherTheme", () => {
  it("toggles", () => {
    expect(otherTheme("light")).toBe("dark");
    expect(otherTheme("dark")).toBe("light");
  });
});

describe("initials", () => {
  it("takes the first and last word", () => {
    expect(initials("Ada Lovelace")).toBe("AL");
    expect(initials("ada b. lovelace")).toBe("AL");
    expect(initials(" Ada ")).toBe("A");
    expect(initials("")).toBe("?");
  });
});
