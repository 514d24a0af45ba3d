import { describe, expect, it } from "vitest";
import { patchMemberSchema, removeMemberSchema } from "./members-api.schema";
import {
  DUPLICATE_MEMBER_MESSAGE,
  inviteFormSchema,
  inviteMemberSchema,
  isTakenEmail,
} from "./members.schema";

describe("the invite form's rules", () => {
  it("lowercases the e-mail and defaults the role to editor", () => {
    expect(inviteMemberSchema.parse({ studioId: "abc", email: " A@Example.COM " })).toEqual({
      studioId: "abc",
      email: "a@example.com",
      role: "editor",
    });
  });

  it("refuses addresses already invited or members, whatever their case", () => {
    const schema = inviteFormSchema(["taken@example.com"]);
    const result = schema.safeParse({ studioId: "abc", email: "Taken@Example.com" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ["email"],
      message: DUPLICATE_MEMBER_MESSAGE,
    });
    expect(schema.safeParse({ studioId: "abc", email: "free@example.com" }).success).toBe(true);
    expect(isTakenEmail("  TAKEN@example.com ", ["taken@example.com"])).toBe(true);
    expect(isTakenEmail("", ["taken@example.com"])).toBe(false);
  });
});

describe("the API bodies", () => {
  it("tells accept, leave and role apart and refuses unknown actions", () => {
    const key = "k".repeat(43);
    expect(patchMemberSchema.parse({ action: "accept", memberInvitationKey: key })).toMatchObject({
      action: "accept",
    });
    expect(patchMemberSchema.safeParse({ action: "leave" }).success).toBe(false);
    expect(patchMemberSchema.safeParse({ action: "promote", studioId: "abc" }).success).toBe(false);
  });

  it("treats a blank or null invitation key as absent, and needs an id or an e-mail", () => {
    const id = "3f9678b0-16bf-4547-900d-8bfff2ee946d";
    expect(
      removeMemberSchema.parse({ studioId: "abc", memberId: id, memberInvitationKey: null }),
    ).toEqual({ studioId: "abc", memberId: id, memberInvitationKey: undefined });
    expect(removeMemberSchema.safeParse({ studioId: "abc", memberInvitationKey: "" }).success).toBe(
      false,
    );
    expect(removeMemberSchema.safeParse({ studioId: "abc", memberId: "1; drop" }).success).toBe(
      false,
    );
  });
});
