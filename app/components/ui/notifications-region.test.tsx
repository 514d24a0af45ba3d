/**
 * A page has one notifications landmark: Radix's toast viewport ('Notifications (F8)', the key
 * that focuses it), rendered by the root's Toaster. The studio launch buttons, several on the
 * project dashboard, show their messages in it instead of a viewport of their own.
 */
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { LaunchStudioButton } from "~/components/studio/launch-studio-button";
import { Toaster } from "~/components/ui/toaster";

// The page as it is once Radix's chunk has loaded after hydration, which a server render never
// reaches on its own.
vi.mock("~/utils/page-load/popups", async () => {
  const popups = await import("~/utils/page-load/popups-chunk");
  return { usePopups: () => popups };
});

/** The landmarks named 'Notifications (F8)' in `html`. */
const notificationRegions = (html: string) =>
  (html.match(/<[^>]*\brole="region"[^>]*>/g) ?? []).filter((tag) =>
    tag.includes('aria-label="Notifications (F8)"'),
  );

describe("the notifications landmark", () => {
  it("is the Toaster's", () => {
    expect(notificationRegions(renderToString(<Toaster flashed={[]} />))).toHaveLength(1);
  });

  it("is still one on a page with three studio launch buttons", () => {
    const html = renderToString(
      <>
        <main>
          <LaunchStudioButton studioId="studio-1" />
          <LaunchStudioButton studioId="studio-1" target="theme-preview" label="Theme Preview" />
          <LaunchStudioButton studioId="studio-1" target="dev-console" label="Dev Console" />
        </main>
        <Toaster flashed={[]} />
      </>,
    );
    expect(html).toContain("Theme Preview");
    expect(notificationRegions(html)).toHaveLength(1);
  });
});
