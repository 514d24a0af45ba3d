import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { listQuerySchema, requestAccessSchema } from "./access-requests.schema";

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.append(k, v);
  return data;
}

function parse(values: Record<string, string>) {
  const submission = parseWithZod(form(values), { schema: requestAccessSchema });
  return {
    status: submission.status,
    value: submission.status === "success" ? submission.value : undefined,
    error: submission.status === "error" ? submission.error : undefined,
  };
}

describe("requestAccessSchema", () => {
  it("accepts the two required fields alone, leaving empty optional fields undefined", () => {
    const result = parse({
      fullName: " Ada Lovelace ",
      businessEmail: " Ada@Example.COM ",
      telephoneNumber: "",
      companyName: "   ",
      additionalInfo: "",
    });
    expect(result.status).toBe("success");
    expect(result.value).toEqual({ fullName: "Ada Lovelace", businessEmail: "ada@example.com" });
  });

  it("asks for a name and a valid business email", () => {
    const result = parse({ fullName: "", businessEmail: "not-an-email" });
    expect(result.status).toBe("error");
    expect(result.error?.fullName).toEqual(["Name is required"]);
    expect(result.error?.businessEmail).toEqual(["Enter a valid email address"]);
  });

  it("bounds the length of every text field", () => {
    const result = parse({
      fullName: "x".repeat(101),
      businessEmail: "a@b.co",
      companyName: "c".repeat(201),
      additionalInfo: "i".repeat(2001),
    });
    expect(result.error?.fullName).toEqual(["Name must be at most 100 characters"]);
    expect(result.error?.companyName).toEqual(["Company must be at most 200 characters"]);
    expect(result.error?.additionalInfo).toEqual([
      "Additional Info must be at most 2000 characters",
    ]);
  });

  it("accepts a domain or an http(s) URL as website and refuses anything else", () => {
    for (const ok of ["example.com", "www.example.co.uk", "https://example.com/about?x=1"]) {
      expect(parse({ fullName: "A", businessEmail: "a@b.co", websiteAddress: ok }).status).toBe(
        "success",
      );
    }
    for (const bad of ["javascript:alert(1)", "not a site", "ftp://example.com", "example"]) {
      const result = parse({ fullName: "A", businessEmail: "a@b.co", websiteAddress: bad });
      expect(result.error?.websiteAddress?.[0]).toMatch(/Enter a website address/);
    }
  });

  it("accepts telephone numbers with common punctuation and refuses letters or too few digits", () => {
    const ok = parse({
      fullName: "A",
      businessEmail: "a@b.co",
      telephoneNumber: "+1 (555) 123-4567",
    });
    expect(ok.status).toBe("success");
    for (const bad of ["call me", "12", "+1 555 CALL"]) {
      const result = parse({ fullName: "A", businessEmail: "a@b.co", telephoneNumber: bad });
      expect(result.error?.telephoneNumber?.[0]).toMatch(/valid telephone number/);
    }
  });

  it("accepts a head count or a range of employees", () => {
    for (const ok of ["25", "11-50", "1000+"]) {
      expect(parse({ fullName: "A", businessEmail: "a@b.co", numberOfEmployees: ok }).status).toBe(
        "success",
      );
    }
    const bad = parse({ fullName: "A", businessEmail: "a@b.co", numberOfEmployees: "lots" });
    expect(bad.error?.numberOfEmployees?.[0]).toMatch(/Enter a number/);
  });

  it("drops control characters (PostgreSQL text cannot hold NUL) but keeps line breaks in additional info", () => {
    const result = parse({
      fullName: "Ada\u0000 Lovelace",
      businessEmail: "a@b.co",
      additionalInfo: "line one\nline two\u0000",
    });
    expect(result.status).toBe("success");
    expect(result.value?.fullName).toBe("Ada Lovelace");
    expect(result.value?.additionalInfo).toBe("line one\nline two");
  });
});

describe("listQuerySchema", () => {
  it("lowercases the search and ignores an unusable cursor", () => {
    expect(listQuerySchema.parse({ q: "  ACME\u0000 ", cursor: "%%%garbage" })).toEqual({
      q: "acme",
      cursor: undefined,
    });
    expect(listQuerySchema.parse({})).toEqual({ q: "", cursor: undefined });
  });
});
