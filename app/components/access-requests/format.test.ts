import { describe, expect, it } from "vitest";
import { isNewRequest, toRequestCard, websiteHref } from "./format";

const now = new Date("2025-03-10T12:00:00Z");
const day = 24 * 60 * 60 * 1000;

describe("isNewRequest", () => {
  it("is true within the last 7 days and false from the 7th day on", () => {
    expect(isNewRequest(new Date(now.getTime() - 1000), now)).toBe(true);
    expect(isNewRequest(new Date(now.getTime() - 6.9 * day), now)).toBe(true);
    expect(isNewRequest(new Date(now.getTime() - 7 * day), now)).toBe(false);
    expect(isNewRequest(new Date(now.getTime() - 30 * day), now)).toBe(false);
  });
});

describe("websiteHref", () => {
  it("links a bare domain over https and keeps http(s) URLs as typed", () => {
    expect(websiteHref("example.com")).toBe("https://example.com");
    expect(websiteHref("http://example.com/a")).toBe("http://example.com/a");
    expect(websiteHref("HTTPS://Example.com")).toBe("HTTPS://Example.com");
  });

  it("never links another scheme or an empty value", () => {
    expect(websiteHref("javascript:alert(1)")).toBeNull();
    expect(websiteHref("")).toBeNull();
    expect(websiteHref(null)).toBeNull();
  });
});

describe("toRequestCard", () => {
  it("shapes a row with its status, the New flag and a formatted submission date", () => {
    const card = toRequestCard(
      {
        id: "1",
        fullName: "Ada",
        businessEmail: "ada@example.com",
        companyName: null,
        websiteAddress: "example.com",
        telephoneNumber: null,
        numberOfEmployees: "11-50",
        additionalInfo: null,
        requestStatus: "Pending",
        createdAt: new Date(now.getTime() - day),
      },
      now,
    );
    expect(card).toMatchObject({
      status: "Pending",
      isNew: true,
      websiteHref: "https://example.com",
      submittedIso: "2025-03-09T12:00:00.000Z",
    });
    expect(card.submitted).toMatch(/^Mar 9, 2025 at \d{1,2}:\d{2} (AM|PM)$/);
  });
});
