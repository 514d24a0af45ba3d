import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DisplayedMember, MembersView } from "~/services/members/members.server";
import { MembersSection } from "./members-section";

// React warns that the memory router's layout effects do nothing on the server: expected here.
const consoleError = console.error;
beforeAll(() => {
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (String(args[0]).includes("useLayoutEffect does nothing on the server")) return;
    consoleError(...args);
  });
});
afterAll(() => vi.restoreAllMocks());

const OWNER_ID = "00000000-0000-4000-8000-000000000001";
const INVITED_ID = "00000000-0000-4000-8000-000000000002";
const EDITOR_ID = "00000000-0000-4000-8000-000000000003";
const KEY = "k".repeat(43);

function member(values: Partial<DisplayedMember>): DisplayedMember {
  return {
    id: EDITOR_ID,
    name: "Guest",
    email: "ed@example.com",
    status: "accepted",
    role: "editor",
    roleLabel: "Editor",
    isOwner: false,
    isSelf: false,
    expired: false,
    memberInvitationKey: null,
    ...values,
  };
}

const managerView: MembersView = {
  canManage: true,
  canLeave: false,
  takenEmails: ["owner@example.com", "new@example.com", "ed@example.com"],
  members: [
    member({
      id: OWNER_ID,
      name: "Olive",
      email: "owner@example.com",
      role: "owner",
      roleLabel: "Owner",
      isOwner: true,
      isSelf: true,
    }),
    member({
      id: INVITED_ID,
      email: "new@example.com",
      status: "invited",
      role: "admin",
      roleLabel: "Admin",
      expired: true,
      memberInvitationKey: KEY,
    }),
    member({ name: "Ed" }),
  ],
  total: 3,
};

/**
 * Server-renders the section on a page at `url`, as the dashboard does before JavaScript: the
 * whole page once every lazily loaded part (the invite form) is in, as the server streams it.
 */
function render(view: MembersView, url = "/sites/abc"): Promise<string> {
  const router = createMemoryRouter(
    [
      {
        path: "*",
        element: <MembersSection studioId="abc" projectName="Acme" view={view} />,
      },
    ],
    { initialEntries: [url] },
  );
  return new Promise((resolve, reject) => {
    let html = "";
    const stream = renderToPipeableStream(<RouterProvider router={router} />, {
      onAllReady() {
        const sink = new PassThrough();
        sink.on("data", (chunk: Buffer) => (html += chunk.toString()));
        sink.on("end", () => resolve(html));
        stream.pipe(sink);
      },
      onShellError: reject,
    });
  });
}

describe("MembersSection", () => {
  it("gives managers the invite form and each row's actions, never on the owner's row", async () => {
    const html = await render(managerView);
    expect(html).toContain("<table");
    expect(html).toContain("Send Invitation");
    // Without JavaScript the button is never disabled by the as-you-type check.
    expect(html).not.toMatch(/<button[^>]*disabled=""[^>]*>Send Invitation/);
    expect(html).toContain('<option value="editor" selected="">Editor</option>');
    expect(html).toContain("Resend the invitation to new@example.com");
    expect(html).toContain(`href="/sites/abc?confirm=revoke%3A${INVITED_ID}"`);
    expect(html).toContain(`href="/sites/abc?confirm=remove%3A${EDITOR_ID}"`);
    expect(html).not.toContain(`confirm=remove%3A${OWNER_ID}`);
    expect(html).toContain("Expired");
    expect(html).not.toContain(">Leave<");
  });

  it("gives a plain member their own row with Leave only", async () => {
    const html = await render({
      canManage: false,
      canLeave: true,
      takenEmails: [],
      members: [member({ isSelf: true, name: "Ed" })],
      total: 1,
    });
    expect(html).not.toContain("Send Invitation");
    expect(html).not.toContain("Resend");
    expect(html).not.toContain('name="role"');
    expect(html).toContain('href="/sites/abc?confirm=leave"');
  });

  it("opens the confirmation from the URL, with the fields the action checks", async () => {
    const html = await render(managerView, `/sites/abc?page=2&confirm=revoke:${INVITED_ID}`);
    expect(html).toContain('role="alertdialog"');
    expect(html).toContain("Revoke invitation?");
    expect(html).toContain('name="intent" value="member-remove"');
    expect(html).toContain(`name="memberId" value="${INVITED_ID}"`);
    expect(html).toContain('name="memberEmail" value="new@example.com"');
    expect(html).toContain(`name="memberInvitationKey" value="${KEY}"`);
    expect(html).toContain('name="redirectTo" value="/sites/abc?page=2"');
    // A confirmation for the owner (or an unknown row) is not rendered.
    expect(await render(managerView, `/sites/abc?confirm=remove:${OWNER_ID}`)).not.toContain(
      "alertdialog",
    );
  });

  it("shows the first page of a long table with a link to all of it", async () => {
    const cut = { ...managerView, members: managerView.members.slice(0, 2), total: 3 };
    const html = await render(cut, "/sites/abc?page=2");
    expect(html).toContain("Showing <!-- -->2<!-- --> of <!-- -->3");
    expect(html).toContain('href="/sites/abc?page=2&amp;members=all#members-heading"');
    expect(html).toContain("Show all <!-- -->3<!-- --> members");
    // The whole table: no link.
    expect(await render(managerView)).not.toContain("Show all");
  });
});
