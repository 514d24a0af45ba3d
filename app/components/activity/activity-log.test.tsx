import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ActivityEntry } from "~/services/activity/activity-log.server";
import { ActivityLogSection, relativeTime, type ActivityLogSectionProps } from "./activity-log";
import { absoluteTime, activityExpanded, activityHref, activityPagePath } from "./activity-query";

const NOW = "2024-05-10T12:00:00.000Z";

// React warns that the memory router's layout effects do nothing on the server: expected here.
const consoleError = console.error;
beforeAll(() => {
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (String(args[0]).includes("useLayoutEffect does nothing on the server")) return;
    consoleError(...args);
  });
});
afterAll(() => vi.restoreAllMocks());

function entry(i: number, minutesAgo: number): ActivityEntry {
  return {
    _key: `key-${i}`,
    type: "members.invitation.sent",
    content: `Olivia invited person${i}@example.com as Editor`,
    metadata: { role: "editor", email: `person${i}@example.com` },
    timestamp: new Date(Date.parse(NOW) - minutesAgo * 60_000).toISOString(),
    label: "Invitation sent",
  };
}

/** Server-renders the section on a page at `url`, as the dashboard does before JavaScript. */
function render(props: Partial<ActivityLogSectionProps>, url = "/sites/abc?page=2") {
  const router = createMemoryRouter(
    [
      {
        path: "*",
        element: (
          <ActivityLogSection
            entries={[]}
            total={0}
            expanded={false}
            studioId="abc"
            now={NOW}
            {...props}
          />
        ),
      },
    ],
    { initialEntries: [url] },
  );
  return renderToString(<RouterProvider router={router} />);
}

describe("ActivityLogSection", () => {
  it("shows an empty state", () => {
    const html = render({});
    expect(html).toContain("Activity Log");
    expect(html).toContain("Nothing to show here yet...");
    expect(html).not.toContain("Show more");
  });

  it("shows the entries with labels, relative and absolute times", () => {
    const html = render({ entries: [entry(1, 5), entry(2, 90)], total: 2 });
    expect(html).toContain("Invitation sent");
    expect(html).toContain("person1@example.com");
    expect(html).toContain("5 minutes ago");
    expect(html).toContain("about 2 hours ago");
    expect(html).toContain(`dateTime="${entry(1, 5).timestamp}"`);
    expect(html).toContain('title="2024-05-10 11:55 UTC"');
    // Everything shown: no Show more.
    expect(html).not.toContain("Show more");
  });

  it("links 'Show more' to ?log=all on the same page (works without JavaScript)", () => {
    const html = render({ entries: [entry(1, 1), entry(2, 2), entry(3, 3)], total: 10 });
    expect(html).toContain("Show more");
    expect(html).toContain('href="/sites/abc?page=2&amp;log=all#activity-log"');
    expect(html).toContain('aria-expanded="false"');
    expect(html).not.toContain("Collapse");
  });

  it("when expanded, links 'Collapse' back and says how many are shown", () => {
    const entries = Array.from({ length: 5 }, (_, i) => entry(i, i));
    const html = render({ entries, total: 1200, expanded: true }, "/sites/abc?log=all&page=2");
    expect(html).toContain("Collapse");
    expect(html).toContain('href="/sites/abc?page=2#activity-log"');
    expect(html).toContain('aria-expanded="true"');
    expect(html).toContain("Showing the latest <!-- -->5<!-- --> of <!-- -->1200<!-- --> events.");
    expect(html).not.toContain("Show more");
  });

  it("uses the given collapse address (the full-page log)", () => {
    const html = render(
      { entries: [entry(1, 1)], total: 1, expanded: true, collapseHref: "/sites/abc#activity-log" },
      "/sites/abc/activity",
    );
    expect(html).toContain('href="/sites/abc#activity-log"');
  });
});

describe("activity helpers", () => {
  it("reads and writes ?log=all, keeping other parameters", () => {
    expect(activityExpanded(new URL("http://x/sites/a?log=all"))).toBe(true);
    expect(activityExpanded(new URL("http://x/sites/a?log=some"))).toBe(false);
    expect(activityHref({ pathname: "/sites/a", search: "" }, true)).toBe(
      "/sites/a?log=all#activity-log",
    );
    expect(activityHref({ pathname: "/sites/a", search: "?log=all" }, false)).toBe(
      "/sites/a#activity-log",
    );
    expect(activityPagePath("a b")).toBe("/sites/a%20b/activity");
  });

  it("formats times the same way on the server and in the browser", () => {
    expect(absoluteTime("2024-01-02T03:04:05.000Z")).toBe("2024-01-02 03:04 UTC");
    expect(absoluteTime("nonsense")).toBe("nonsense");
    const now = new Date(NOW);
    expect(relativeTime("2024-05-10T11:59:40.000Z", now)).toBe("less than a minute ago");
    expect(relativeTime("2024-05-07T12:00:00.000Z", now)).toBe("3 days ago");
    // A clock slightly ahead never reads "in ...".
    expect(relativeTime("2024-05-10T12:00:20.000Z", now)).toBe("less than a minute ago");
    expect(relativeTime("bad", now)).toBe("");
  });
});
