import { describe, expect, it } from "vitest";
import { canonicalMailbox, sameMailbox } from "./mailboxes";

describe("one mailbox under its spellings", () => {
  it("ignores case and a +tag everywhere", () => {
    expect(canonicalMailbox(" Admin+Support-2@Example.COM ")).toBe("admin@example.com");
    expect(sameMailbox("admin@example.com", "ADMIN+x@example.com")).toBe(true);
    expect(sameMailbox("admin@example.com", "admin+@example.com")).toBe(true);
  });

  it("ignores dots only where the provider does (Gmail, googlemail.com)", () => {
    expect(sameMailbox("jane.doe@gmail.com", "J.aneDoe+work@googlemail.com")).toBe(true);
    expect(sameMailbox("jane.doe@example.com", "janedoe@example.com")).toBe(false);
  });

  it("keeps different mailboxes apart", () => {
    expect(sameMailbox("admin@example.com", "admins@example.com")).toBe(false);
    expect(sameMailbox("admin@example.com", "admin@example.org")).toBe(false);
    // A local part that starts with + is not a tag of an empty name.
    expect(canonicalMailbox("+admin@example.com")).toBe("+admin@example.com");
  });
});
