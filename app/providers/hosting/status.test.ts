import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  deploymentStatus,
  FIRST_STATE,
  netlifyStatus,
  triggerMarker,
  vendorSiteName,
  vercelStatus,
} from "./status";

describe("netlifyStatus", () => {
  it.each([
    ["new", "queued"],
    ["pending_review", "queued"],
    ["accepted", "queued"],
    ["enqueued", "queued"],
    ["retrying", "queued"],
    ["building", "building"],
    ["uploading", "building"],
    ["uploaded", "building"],
    ["preparing", "building"],
    ["prepared", "building"],
    ["processing", "building"],
    ["processed", "building"],
    ["ready", "ready"],
    ["error", "error"],
    ["rejected", "canceled"],
  ])("%s -> %s", (state, status) => {
    expect(netlifyStatus(state)).toBe(status);
  });

  it("covers every state of the swagger's deploy state enum", () => {
    const swagger = JSON.parse(
      fs.readFileSync(createRequire(import.meta.url).resolve("@netlify/open-api"), "utf8"),
    );
    const parameters: { name: string; enum?: string[] }[] =
      swagger.paths["/sites/{site_id}/deploys"].parameters;
    const states = parameters.find((p) => p.name === "state")?.enum ?? [];
    expect(states.length).toBeGreaterThan(10);
    for (const state of states) expect(netlifyStatus(state)).not.toBeUndefined();
    expect(states.filter((s) => netlifyStatus(s) === "ready")).toEqual(["ready"]);
  });

  it("reads an unknown state as in progress, never as published", () => {
    expect(netlifyStatus("something_new")).toBe("building");
  });
});

describe("vercelStatus", () => {
  it.each([
    ["QUEUED", "queued"],
    ["INITIALIZING", "queued"],
    ["BUILDING", "building"],
    ["READY", "ready"],
    ["ERROR", "error"],
    ["BLOCKED", "error"],
    ["CANCELED", "canceled"],
    ["DELETED", "canceled"],
  ])("%s -> %s", (state, status) => {
    expect(vercelStatus(state)).toBe(status);
  });

  it("ignores case and reads unknown states as in progress", () => {
    expect(vercelStatus("ready")).toBe("ready");
    expect(vercelStatus("PAUSED")).toBe("building");
  });
});

describe("deploymentStatus and FIRST_STATE", () => {
  it("start each vendor's deployments queued", () => {
    expect(deploymentStatus("netlify", FIRST_STATE.netlify)).toBe("queued");
    expect(deploymentStatus("vercel", FIRST_STATE.vercel)).toBe("queued");
  });
});

describe("vendorSiteName", () => {
  it("is a stable, valid subdomain per idempotency key", () => {
    const name = vendorSiteName("Café Müller & Sons!", "key-1");
    expect(name).toMatch(/^cafe-muller-sons-[0-9a-f]{8}$/);
    expect(vendorSiteName("Café Müller & Sons!", "key-1")).toBe(name);
    expect(vendorSiteName("Café Müller & Sons!", "key-2")).not.toBe(name);
  });

  it("stays within Netlify's 63 characters and never starts or ends with a dash", () => {
    const name = vendorSiteName(`--${"x".repeat(100)}--`, "k");
    expect(name.length).toBeLessThanOrEqual(63);
    expect(name).toMatch(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/);
    expect(vendorSiteName("!!!", "k")).toMatch(/^site-[0-9a-f]{8}$/);
  });

  it("keeps the fail-deploy hook visible in the name", () => {
    expect(vendorSiteName("Demo fail-deploy", "k")).toContain("fail-deploy");
  });
});

describe("triggerMarker", () => {
  it("wraps the key so it can be found in a title", () => {
    expect(`Deploy ${triggerMarker("abc")}`).toContain("[stackshift:abc]");
  });
});
