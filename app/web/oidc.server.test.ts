import { describe, expect, it } from "vitest";
import { UnauthorizedError } from "~/services/core/errors";
import { idTokenClaims, secondFactorClaimed } from "./oidc.server";

const issuer = "https://id.example.com";
const clientId = "stackshift";
const now = Date.UTC(2030, 0, 1);

/** An unsigned JWT with the given payload (idTokenClaims does not check signatures). */
function token(payload: Record<string, unknown>) {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256", typ: "JWT" })}.${part(payload)}.signature`;
}

const valid = {
  iss: issuer,
  aud: clientId,
  exp: now / 1000 + 300,
  sub: "user-1",
  email: "Person@Example.com",
  email_verified: true,
  name: "Person",
};

const claimsOf = (payload: Record<string, unknown>) =>
  idTokenClaims(token(payload), { issuer, clientId, now });

describe("idTokenClaims", () => {
  it("returns subject, lowercased email and name of a valid token", () => {
    expect(claimsOf(valid)).toEqual({ sub: "user-1", email: "person@example.com", name: "Person" });
  });

  it("accepts the issuer with or without a trailing slash", () => {
    expect(claimsOf({ ...valid, iss: `${issuer}/` }).sub).toBe("user-1");
  });

  it("accepts an audience list that names us as the authorized party", () => {
    expect(claimsOf({ ...valid, aud: [clientId, "other"], azp: clientId }).sub).toBe("user-1");
  });

  it.each([
    ["a token from another issuer", { ...valid, iss: "https://evil.example.com" }],
    ["a token for another client", { ...valid, aud: "someone-else" }],
    ["several audiences without azp", { ...valid, aud: [clientId, "other"] }],
    ["an azp naming another client", { ...valid, azp: "other" }],
    ["an expired token", { ...valid, exp: now / 1000 - 1 }],
    ["a token without exp", { ...valid, exp: undefined }],
    ["a token without email", { ...valid, email: undefined }],
    ["a token without subject", { ...valid, sub: "" }],
    ["an unverified email", { ...valid, email_verified: false }],
    ["an unverified email sent as a string", { ...valid, email_verified: "false" }],
    ["a token without email_verified", { ...valid, email_verified: undefined }],
  ])("refuses %s", (_name, payload) => {
    expect(() => claimsOf(payload)).toThrow(UnauthorizedError);
  });

  it("takes a missing email_verified as verified only with OIDC_TRUST_EMAIL (trustEmail)", () => {
    const missing = token({ ...valid, email_verified: undefined });
    expect(idTokenClaims(missing, { issuer, clientId, now, trustEmail: true }).sub).toBe("user-1");
    expect(claimsOf({ ...valid, email_verified: "true" }).sub).toBe("user-1");
    const refused = token({ ...valid, email_verified: false });
    expect(() => idTokenClaims(refused, { issuer, clientId, now, trustEmail: true })).toThrow(
      UnauthorizedError,
    );
  });

  it.each(["", "abc", "a.b", "a.!!!.c", `x.${Buffer.from("null").toString("base64url")}.y`])(
    "refuses the malformed token %j with UnauthorizedError",
    (raw) => {
      expect(() => idTokenClaims(raw, { issuer, clientId, now })).toThrow(UnauthorizedError);
    },
  );
});

describe("secondFactorClaimed (amr and acr, docs/decisions/042-second-factor-required.md)", () => {
  it("takes 'mfa', or two methods one of which proves a possession", () => {
    expect(secondFactorClaimed({ amr: ["mfa"] })).toBe(true);
    expect(secondFactorClaimed({ amr: ["pwd", "otp"] })).toBe(true);
    expect(secondFactorClaimed({ amr: ["hwk", "pin"] })).toBe(true);
    expect(claimsOf({ ...valid, amr: ["pwd", "mfa"] }).secondFactor).toBe(true);
  });

  it("takes the multi-factor acr values", () => {
    expect(
      secondFactorClaimed({ acr: "http://schemas.openid.net/pape/policies/2007/06/multi-factor" }),
    ).toBe(true);
    expect(secondFactorClaimed({ acr: "phrh" })).toBe(true);
  });

  it("does not take a password alone, two knowledge methods, a vendor's acr or junk", () => {
    expect(secondFactorClaimed({ amr: ["pwd"] })).toBe(false);
    expect(secondFactorClaimed({ amr: ["pwd", "kba"] })).toBe(false);
    expect(secondFactorClaimed({ amr: ["otp", "otp"] })).toBe(false);
    expect(secondFactorClaimed({ acr: "urn:example:loa:2" })).toBe(false);
    expect(secondFactorClaimed({ amr: "mfa" })).toBe(false);
    expect(secondFactorClaimed({})).toBe(false);
    expect(claimsOf(valid).secondFactor).toBeUndefined();
  });
});
