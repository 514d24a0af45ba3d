import { describe, expect, it } from "vitest";
import {
  DOMAIN_MESSAGES,
  domainApiSchema,
  domainFormSchema,
  normalizeDomain,
} from "./domains.schema";

describe("normalizeDomain", () => {
  it.each([
    ["example.com", "example.com"],
    ["  WWW.Example.COM  ", "www.example.com"],
    ["shop.example.co.uk", "shop.example.co.uk"],
    ["example.com.", "example.com"],
    ["my-site.example", "my-site.example"],
    ["bücher.example", "xn--bcher-kva.example"],
    ["xn--bcher-kva.example", "xn--bcher-kva.example"],
    ["1password.com", "1password.com"],
  ])("takes %j as %j", (raw, domain) => {
    expect(normalizeDomain(raw)).toEqual({ domain });
  });

  it.each([
    ["", DOMAIN_MESSAGES.required],
    ["https://example.com", DOMAIN_MESSAGES.scheme],
    ["example.com/shop", DOMAIN_MESSAGES.scheme],
    ["user@example.com", DOMAIN_MESSAGES.scheme],
    ["example.com:8080", DOMAIN_MESSAGES.port],
    ["*.example.com", DOMAIN_MESSAGES.wildcard],
    ["192.168.1.10", DOMAIN_MESSAGES.ip],
    ["[::1]", DOMAIN_MESSAGES.ip],
    ["localhost", DOMAIN_MESSAGES.labels],
    ["-bad.example.com", DOMAIN_MESSAGES.label],
    ["bad-.example.com", DOMAIN_MESSAGES.label],
    ["under_score.example.com", DOMAIN_MESSAGES.label],
    [`${"a".repeat(64)}.com`, DOMAIN_MESSAGES.label],
    [`${Array.from({ length: 5 }, () => "a".repeat(60)).join(".")}.com`, DOMAIN_MESSAGES.tooLong],
    ["exa mple.com", DOMAIN_MESSAGES.invalid],
    ["example..com", DOMAIN_MESSAGES.label],
  ])("refuses %j: %s", (raw, error) => {
    expect(normalizeDomain(raw)).toEqual({ error });
  });
});

describe("domain inputs", () => {
  it("reads an empty form value as a revert and a typed one as the normalised domain", () => {
    expect(domainFormSchema.parse({ domain: "" })).toEqual({ domain: "" });
    expect(domainFormSchema.parse({ domain: "Example.com", provider: "vercel" })).toEqual({
      domain: "example.com",
      provider: "vercel",
    });
  });

  it("requires a domain for an API update, not for a revert", () => {
    const base = { studioId: "abc", type: "site" };
    expect(domainApiSchema.safeParse({ ...base, action: "update", domain: "" }).success).toBe(
      false,
    );
    expect(domainApiSchema.safeParse({ ...base, action: "revert", domain: "" }).success).toBe(true);
    const refused = domainApiSchema.safeParse({ ...base, action: "update", domain: "a b" });
    expect(refused.error?.issues[0]?.message).toBe(DOMAIN_MESSAGES.invalid);
  });
});
